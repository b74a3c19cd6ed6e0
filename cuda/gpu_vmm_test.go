package cuda

import (
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// TestGPUVMM: two physical allocations mapped side by side in one range
// act as one buffer: copies and a kernel (saxpy) run over the seam, a
// view across it reads what was written, the memory stays after the
// PhysMem handles are closed, and the range's Close unmaps it all.
func TestGPUVMM(t *testing.T) {
	c := gpuContext(t)
	if v, err := c.Device().Attribute(cu.DeviceAttributeVirtualMemoryManagementSupported); err != nil || v == 0 {
		t.Fatalf("CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = %d, %v", v, err)
	}
	g, rec, err := c.Granularity()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("granularity: minimum %d, recommended %d", g, rec)
	r, err := c.ReserveAddress(4 * g)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for off := uint64(0); off < 4*g; off += 2 * g {
		m, err := c.NewPhysMem(2 * g)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Map(off, m); err != nil {
			t.Fatal(err)
		}
		if err := m.Close(); err != nil { // the mapping keeps the memory
			t.Fatal(err)
		}
	}
	n := int(4 * g / 4)
	x, err := RangeBuffer[float32](r, 0, n)
	if err != nil {
		t.Fatal(err)
	}
	hx, hy := make([]float32, n), make([]float32, n)
	for i := range hx {
		hx[i], hy[i] = float32(i%1000), float32(i%7)
	}
	if err := x.CopyFrom(hx); err != nil {
		t.Fatal(err)
	}
	y, err := AllocFrom(c, hy)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	saxpy, _ := gpuKernels(t, c)
	if err := saxpy.Launch(ForN(n, 256), float32(2), x, y, int32(n)); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, n)
	if err := y.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	checkSaxpy(t, 2, hx, hy, got)
	// A view across the seam between the two allocations.
	seam, err := RangeBuffer[float32](r, g, int(2*g/4))
	if err != nil {
		t.Fatal(err)
	}
	mid := make([]float32, seam.Len())
	if err := seam.CopyTo(mid); err != nil {
		t.Fatal(err)
	}
	for i, v := range mid {
		if want := hx[int(g/4)+i]; v != want {
			t.Fatalf("seam view element %d = %v, want %v", i, v, want)
		}
	}
	if err := seam.Fill(1.5); err != nil {
		t.Fatal(err)
	}
	if err := x.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		want := hx[i]
		if uint64(i) >= g/4 && uint64(i) < 3*g/4 {
			want = 1.5
		}
		if v != want {
			t.Fatalf("after the seam's Fill, element %d = %v, want %v", i, v, want)
		}
	}
	if err := r.Unmap(2 * g); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d floats over two mappings of %d bytes: copies, saxpy and a view over the seam checked", n, 2*g)
}

// TestGPUGrowable: a growable buffer keeps its address and contents as it
// grows from one element to the most it may hold.
func TestGPUGrowable(t *testing.T) {
	c := gpuContext(t)
	const maxLen = 64 << 20 // 256 MB of float32
	b, err := NewGrowable[float32](c, maxLen)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var addr cu.Deviceptr
	n0 := 0
	for _, n := range []int{1, 1000, 1 << 20, 30 << 20, maxLen} {
		if err := b.Grow(n); err != nil {
			t.Fatal(err)
		}
		buf, err := b.Buffer()
		if err != nil {
			t.Fatal(err)
		}
		if addr == 0 {
			addr = buf.Ptr()
		} else if buf.Ptr() != addr {
			t.Fatalf("Grow(%d) moved the buffer from %#x to %#x", n, addr, buf.Ptr())
		}
		// The old part kept its values: write the new part after it
		// and read the whole.
		part := make([]float32, n-n0)
		for i := range part {
			part[i] = float32(n0 + i)
		}
		if err := buf.Slice(n0, n).CopyFrom(part); err != nil {
			t.Fatal(err)
		}
		all := make([]float32, n)
		if err := buf.CopyTo(all); err != nil {
			t.Fatal(err)
		}
		for i, v := range all {
			if v != float32(i) {
				t.Fatalf("after Grow(%d), element %d = %v, want %d", n, i, v, i)
			}
		}
		n0 = n
	}
	t.Logf("grew to %d floats at %#x, contents kept", b.Len(), addr)
}
