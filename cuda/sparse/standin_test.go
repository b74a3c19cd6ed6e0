package sparse

import (
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cusparse"
	"github.com/cugen/cugen/cugentest/standin"
)

// TestStandinHandle: on stand-ins for the driver and cuSPARSE (package
// cugentest/standin), a handle calls cusparseSetStream once, its
// workspace grows and is kept, and Close destroys the handle and frees
// the workspace, after which the context is released (the stand-in's
// allocations all freed).
func TestStandinHandle(t *testing.T) {
	if !standin.Run(t, standin.Majors{CUSPARSE: cusparse.VerMajor}) {
		return
	}
	ctx := standin.Must(cuda.NewContext(0))(t)
	s := standin.Must(ctx.NewStream())(t)
	h := standin.Must(NewHandle(ctx, s))(t)
	ctx.Close() // the handle keeps its own reference
	lib, drv := cusparse.SharedLibrary(), cu.SharedLibrary()
	if n := standin.Count(t, lib, "cusparseSetStream"); n != 1 {
		t.Errorf("NewHandle called cusparseSetStream %d times, want 1", n)
	}
	if h.Stream() != s {
		t.Errorf("Stream() is not the handle's stream")
	}
	if err := h.lock(); err != nil {
		t.Fatal(err)
	}
	w1, err := h.workspace(100)
	if err != nil {
		t.Fatal(err)
	}
	w2, _ := h.workspace(50)
	h.unlock()
	if w1 == nil || w1 != w2 || h.Workspace() != 100 {
		t.Errorf("workspace(100), workspace(50): %p, %p, Workspace %d; want one buffer of 100", w1, w2, h.Workspace())
	}
	allocs := standin.Count(t, drv, "cuMemAlloc_v2")
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != ErrClosed {
		t.Errorf("second Close: %v, want ErrClosed", err)
	}
	if n := standin.Count(t, lib, "cusparseDestroy"); n != 1 {
		t.Errorf("%d cusparseDestroy calls, want 1", n)
	}
	if frees := standin.Count(t, drv, "cuMemFree_v2"); frees != allocs {
		t.Errorf("%d cuMemFree for %d cuMemAlloc after Close", frees, allocs)
	}
	s.Close()
	if n := standin.Count(t, drv, "cuDevicePrimaryCtxRelease_v2"); n != 1 {
		t.Errorf("the context released %d times after the handle's and the stream's Close, want 1", n)
	}
}

// TestStandinSetStream: the handle's SetStream calls cusparseSetStream
// only for another stream, and refuses a nil stream and a closed handle.
func TestStandinSetStream(t *testing.T) {
	if !standin.Run(t, standin.Majors{CUSPARSE: cusparse.VerMajor}) {
		return
	}
	ctx := standin.Keep(cuda.NewContext(0))(t)
	s := standin.Keep(ctx.NewStream())(t)
	s2 := standin.Keep(ctx.NewStream())(t)
	h := standin.Must(NewHandle(ctx, s))(t)
	standin.CheckSetStream(t, cusparse.SharedLibrary(), "cusparseSetStream", h, s2, h.Close)
}
