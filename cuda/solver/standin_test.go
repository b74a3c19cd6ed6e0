package solver

import (
	"testing"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cusolver"
	"github.com/cugen/cugen/cugentest/standin"
)

// TestStandinHandle: on stand-ins for the driver and cuSOLVER (package
// cugentest/standin), a handle calls cusolverDnSetStream and
// cusolverDnCreateParams once, keeps its workspace, and Close destroys
// the parameters and the handle, frees every allocation and releases the
// context once.
func TestStandinHandle(t *testing.T) {
	if !standin.Run(t, standin.Majors{CUSOLVER: cusolver.VerMajor}) {
		return
	}
	ctx := standin.Must(cuda.NewContext(0))(t)
	s := standin.Must(ctx.NewStream())(t)
	h := standin.Must(NewHandle(ctx, s))(t)
	ctx.Close() // the handle keeps its own reference
	lib, drv := cusolver.SharedLibrary(), cu.SharedLibrary()
	for _, fn := range []string{"cusolverDnSetStream", "cusolverDnCreateParams"} {
		if n := standin.Count(t, lib, fn); n != 1 {
			t.Errorf("NewHandle called %s %d times, want 1", fn, n)
		}
	}
	if h.Stream() != s {
		t.Errorf("Stream() is not the handle's stream")
	}
	if err := h.lock(); err != nil {
		t.Fatal(err)
	}
	w1, hp, err := h.workspace(100, 24)
	if err != nil || hp == nil || uintptr(hp)%16 != 0 {
		t.Fatalf("workspace(100, 24): %v, host %p", err, hp)
	}
	w2, _, _ := h.workspace(50, 0)
	h.mu.Unlock()
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
	for _, fn := range []string{"cusolverDnDestroyParams", "cusolverDnDestroy"} {
		if n := standin.Count(t, lib, fn); n != 1 {
			t.Errorf("%d %s calls, want 1", n, fn)
		}
	}
	if frees := standin.Count(t, drv, "cuMemFree_v2"); frees != allocs || allocs != 2 {
		t.Errorf("%d cuMemFree for %d cuMemAlloc after Close (want the info word and the workspace)", frees, allocs)
	}
	s.Close()
	if n := standin.Count(t, drv, "cuDevicePrimaryCtxRelease_v2"); n != 1 {
		t.Errorf("the context released %d times after the handle's and the stream's Close, want 1", n)
	}
}

// TestOperands: a nil buffer (a workspace of 0 bytes) is left out of a
// call's operands, whatever its element type; the others are kept in
// order.
func TestOperands(t *testing.T) {
	a, b := new(cuda.Buffer[float32]), new(cuda.Buffer[int64])
	var none *cuda.Buffer[byte]
	got := operands(buf(a), buf(none), buf(b), buf[complex128](nil))
	if len(got) != 2 || got[0] != cuda.Operand(a) || got[1] != cuda.Operand(b) {
		t.Errorf("operands = %v, want [a b]", got)
	}
}

// TestStandinSetStream: the handle's SetStream calls cusolverDnSetStream
// only for another stream, and refuses a nil stream and a closed handle.
func TestStandinSetStream(t *testing.T) {
	if !standin.Run(t, standin.Majors{CUSOLVER: cusolver.VerMajor}) {
		return
	}
	ctx := standin.Keep(cuda.NewContext(0))(t)
	s := standin.Keep(ctx.NewStream())(t)
	s2 := standin.Keep(ctx.NewStream())(t)
	h := standin.Must(NewHandle(ctx, s))(t)
	standin.CheckSetStream(t, cusolver.SharedLibrary(), "cusolverDnSetStream", h, s2, h.Close)
}
