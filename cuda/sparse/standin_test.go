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

// TestStandinBorrow: one set of buffers backs four borrowing matrices,
// whose Close destroys each descriptor and frees no buffer; the buffers
// stay usable and are freed by their own Close, while CSRFromBuffers's
// matrix frees the buffers it took.
func TestStandinBorrow(t *testing.T) {
	if !standin.Run(t, standin.Majors{CUSPARSE: cusparse.VerMajor}) {
		return
	}
	ctx := standin.Keep(cuda.NewContext(0))(t)
	lib, drv := cusparse.SharedLibrary(), cu.SharedLibrary()
	rp := standin.Must(cuda.AllocFrom(ctx, []int32{0, 1, 2}))(t)
	ci := standin.Must(cuda.AllocFrom(ctx, []int32{1, 0}))(t)
	vs := standin.Must(cuda.AllocFrom(ctx, []float32{2, 3}))(t)
	frees := standin.Count(t, drv, "cuMemFree_v2")
	a := standin.Must(BorrowCSR(2, 2, rp, ci, vs))(t)
	b := standin.Must(BorrowCSR(2, 2, rp, ci, vs))(t)
	c := standin.Must(BorrowCOO(2, 2, rp.Slice(0, 2), ci, vs))(t)
	e := standin.Must(BorrowBSR(2, 2, 1, RowMajor, rp, ci, vs))(t)
	for _, m := range []Matrix[float32]{a, b, c, e} {
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if n := standin.Count(t, lib, "cusparseDestroySpMat"); n != 4 {
		t.Errorf("%d descriptors destroyed, want 4", n)
	}
	if n := standin.Count(t, drv, "cuMemFree_v2"); n != frees {
		t.Fatalf("closing borrowing matrices freed %d buffers", n-frees)
	}
	got := make([]float32, 2)
	if err := vs.CopyTo(got); err != nil || got[1] != 3 {
		t.Fatalf("the borrowed values after the matrices' Close: %v, %v", got, err)
	}
	// A second matrix over them after the first's Close, then one that
	// takes them over: its Close frees all three.
	d := standin.Must(CSRFromBuffers(2, 2, rp, ci, vs))(t)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if n := standin.Count(t, drv, "cuMemFree_v2"); n != frees+3 {
		t.Errorf("CSRFromBuffers's Close freed %d buffers, want 3", n-frees)
	}
}
