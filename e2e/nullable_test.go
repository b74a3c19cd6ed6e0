package e2e

import (
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest/standin"
	"github.com/cugen/cugen/generated/cuda12/cu"
)

// TestNullableStringPassesNULL: a C string the docs allow to be NULL
// (cuLinkAddData's "optional name") is a *string whose nil reaches C as
// NULL, and "" as an empty string, not NULL: the stand-in driver counts
// the calls whose name was NULL.
func TestNullableStringPassesNULL(t *testing.T) {
	if !standin.Run(t, standin.Majors{}) {
		return
	}
	ptx := []byte(".version 8.0\x00")
	add := func(name *string) {
		t.Helper()
		if err := cu.LinkAddData(0, cu.JitInputPtx, unsafe.Pointer(&ptx[0]), uint64(len(ptx)), name, 0, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	add(nil)
	add(new(""))
	add(new("kernel.ptx"))
	lib := cu.SharedLibrary()
	if n := standin.Count(t, lib, "cuLinkAddData_v2"); n != 3 {
		t.Fatalf("cuLinkAddData_v2 called %d times, want 3", n)
	}
	if n := standin.Count(t, lib, "cuLinkAddData_v2_nullName"); n != 1 {
		t.Errorf("cuLinkAddData_v2 got NULL for its name %d times, want 1 (nil only)", n)
	}
}
