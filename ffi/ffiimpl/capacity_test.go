//go:build linux && (amd64 || arm64)

package ffiimpl_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/ffi/ffiimpl"
)

// TestManyIntArgs calls a 38-argument C function through a Frame: 32 stack
// words on amd64, the whole capacity, more than any generated call needs.
// Every argument must arrive in order.
func TestManyIntArgs(t *testing.T) {
	const n = 38
	var f ffiimpl.Frame
	vals := make([]uint64, n)
	for i := range vals {
		vals[i] = 0x0101010101010101*uint64(i+1) ^ uint64(i%2)<<63
		f.Int(uintptr(vals[i]))
	}
	ffiimpl.Call(fn(t, "i38"), &f)
	if err := f.Err(); err != nil {
		t.Fatalf("i38: %v", err)
	}
	if got := f.Ret(); got != n {
		t.Errorf("i38 returned %d, want %d", got, n)
	}
	expect(t, rec(t), vals)
}

// frameOp is one argument a generated wrapper adds to its Frame.
type frameOp struct {
	kind   string // Int, Float32, Float64, Struct
	layout string // for Struct: the layout variable's name
}

var (
	reFunc   = regexp.MustCompile(`^func ([A-Za-z0-9_]+)\(`)
	reOp     = regexp.MustCompile(`^\s*frame\.(Int|Float32|Float64|Struct)\((?:.*&(layout[A-Za-z0-9_]+)\))?`)
	reLayout = regexp.MustCompile(`(?m)^var (layout[A-Za-z0-9_]+) = ffiimpl\.Layout\{\n\tSize:\s+(\d+),\n\tAlign:\s+(\d+),`)
)

// TestGeneratedSignaturesFit replays the arguments of every generated
// wrapper that uses a Frame (generated/*/*/funcs.go) on a real Frame and
// checks that none overflows: a wrapper whose arguments do not fit returns
// ErrFrameOverflow without calling C (cusolverDnXgesvd, 23 arguments, did
// with 16 stack words). By-value structs are replayed as all-integer
// aggregates of their size and alignment, which take at least as much room
// as the real classification.
func TestGeneratedSignaturesFit(t *testing.T) {
	files, err := filepath.Glob("../../generated/*/*/funcs.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no generated packages in this tree")
	}
	worst, worstName := 0, ""
	checked := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		layouts := map[string]*ffiimpl.Layout{}
		for _, m := range reLayout.FindAllStringSubmatch(string(src), -1) {
			size, _ := strconv.Atoi(m[2])
			align, _ := strconv.Atoi(m[3])
			// One integer byte leaf per byte: never an HFA, never SSE.
			layouts[m[1]] = &ffiimpl.Layout{Size: uintptr(size), Align: uintptr(align),
				Scalars: []ffiimpl.Scalar{{Offset: 0, Size: 1, Count: uintptr(size)}}}
		}
		name := ""
		var ops []frameOp
		for line := range strings.SplitSeq(string(src), "\n") {
			if m := reFunc.FindStringSubmatch(line); m != nil {
				name, ops = m[1], ops[:0]
				continue
			}
			if m := reOp.FindStringSubmatch(line); m != nil {
				ops = append(ops, frameOp{m[1], m[2]})
				continue
			}
			if !strings.Contains(line, "ffiimpl.Call(") {
				continue
			}
			var f ffiimpl.Frame
			var buf [128]byte
			for _, op := range ops {
				switch op.kind {
				case "Int":
					f.Int(0)
				case "Float32":
					f.Float32(0)
				case "Float64":
					f.Float64(0)
				case "Struct":
					l := layouts[op.layout]
					if l == nil || l.Size > uintptr(len(buf)) {
						t.Fatalf("%s: %s: layout %q not found or too big", file, name, op.layout)
					}
					f.Struct(unsafe.Pointer(&buf), l)
				}
			}
			checked++
			if err := f.Err(); err != nil {
				t.Errorf("%s: %s (%d arguments): %v", file, name, len(ops), err)
			}
			if len(ops) > worst {
				worst, worstName = len(ops), name
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("replayed only %d Frame calls: the generated code's shape changed, update the test", checked)
	}
	t.Logf("%d Frame calls replayed; the longest, %s, has %d arguments", checked, worstName, worst)
}
