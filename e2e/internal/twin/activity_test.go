package twin

import (
	"testing"
)

// TestActivity: buffers handed out are kept until given back, the walk
// of each records what CheckVAdd checks, and its summary is the log's.
func TestActivity(t *testing.T) {
	var a Activity
	a.Reset()
	var bufs [2]*byte
	for i := range bufs {
		var size, most uint64
		a.Request(&bufs[i], &size, &most)
		if bufs[i] == nil || size != 1<<20 || most != 0 {
			t.Fatalf("Request: buffer %p, size %d, max %d; want 1 MiB for as many records as fit", bufs[i], size, most)
		}
	}
	const h2d, d2h = 1, 2
	a.Complete(bufs[0], func() {
		a.Kernel("vadd", 100, 150)
		a.Copy(h2d, 4<<20, 0, 10)
		a.Copy(h2d, 4<<20, 10, 30)
	})
	a.Read(func() {
		if len(a.buffers) != 1 {
			t.Errorf("%d buffers held after one of two came back, want 1", len(a.buffers))
		}
	})
	a.Complete(bufs[1], func() { a.Copy(d2h, 4<<20, 30, 60) })
	got := a.CheckVAdd(t, h2d, d2h, 4<<20)
	if want := `kernels ["vadd"] 50 ns; copies HtoD [4194304 4194304] DtoH [4194304], 60 ns in all`; got != want {
		t.Errorf("CheckVAdd = %q, want %q", got, want)
	}
	a.Reset()
	if len(a.Kernels) != 0 || len(a.Copies) != 0 || a.KernelNS != 0 || a.CopyNS != 0 {
		t.Errorf("Reset left %v %v %d %d", a.Kernels, a.Copies, a.KernelNS, a.CopyNS)
	}
}
