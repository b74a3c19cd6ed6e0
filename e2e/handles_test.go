package e2e

import (
	"encoding/binary"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cudart"
)

// vaddCheck compares c with a+b and reports the first wrong elements.
func vaddCheck(t *testing.T, what string, a, b, c []float32) {
	t.Helper()
	bad := 0
	for i := range c {
		if c[i] != a[i]+b[i] {
			if bad < 3 {
				t.Errorf("%s: c[%d] = %v, want %v", what, i, c[i], a[i]+b[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Fatalf("%s: %d of %d elements wrong", what, bad, len(c))
	}
}

// TestLaunchHandles12 launches vadd both ways cu.LaunchKernel takes its
// arguments, with no unsafe conversion of an integer handle: the packed
// argument buffer (extra []byte, offsets from cuFuncGetParamInfo) and the
// kernelParams slice; the output is cleared between them by the runtime,
// through a cu.Stream converted to cudart.Stream and a cu.Deviceptr passed
// as d.Pointer().
func TestLaunchHandles12(t *testing.T) {
	_, done := gpu12(t)
	defer done()
	mod, vadd, _ := loadPTX(t)
	defer cu.ModuleUnload(mod)

	const n, block = 1 << 16, 256
	a, b, c := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range a {
		a[i], b[i] = float32(i), float32(3*i)+0.25
	}
	bytes := uint64(n * 4)
	var d [3]cu.Deviceptr
	for i := range d {
		var err error
		if d[i], err = cu.MemAlloc(bytes); err != nil {
			t.Fatal(err)
		}
		defer cu.MemFree(d[i])
	}
	if err := cu.MemcpyHtoD(d[0], unsafe.Pointer(&a[0]), bytes); err != nil {
		t.Fatal(err)
	}
	if err := cu.MemcpyHtoD(d[1], unsafe.Pointer(&b[0]), bytes); err != nil {
		t.Fatal(err)
	}
	stream, err := cu.StreamCreate(0)
	if err != nil {
		t.Fatal(err)
	}
	defer cu.StreamDestroy(stream)
	clear := func() {
		t.Helper()
		if err := cudart.MemsetAsync(d[2].Pointer(), 0, bytes, cudart.Stream(stream)); err != nil {
			t.Fatalf("cudaMemsetAsync(Deviceptr.Pointer()): %v", err)
		}
	}
	readC := func() {
		t.Helper()
		if err := cu.StreamSynchronize(stream); err != nil {
			t.Fatal(err)
		}
		if err := cu.MemcpyDtoH(unsafe.Pointer(&c[0]), d[2], bytes); err != nil {
			t.Fatal(err)
		}
	}

	// Driver API, extra: the four parameters packed where the kernel
	// says they are.
	var buf []byte
	for i, v := range []uint64{uint64(d[0]), uint64(d[1]), uint64(d[2]), n} {
		off, size, err := cu.FuncGetParamInfo(vadd, uint64(i))
		if err != nil {
			t.Fatalf("cuFuncGetParamInfo(%d): %v", i, err)
		}
		buf = append(buf, make([]byte, int(off+size)-len(buf))...)
		switch size {
		case 8:
			binary.LittleEndian.PutUint64(buf[off:], v)
		case 4:
			binary.LittleEndian.PutUint32(buf[off:], uint32(v))
		default:
			t.Fatalf("vadd parameter %d has size %d", i, size)
		}
	}
	clear()
	if err := cu.LaunchKernel(vadd, n/block, 1, 1, block, 1, 1, 0, stream, nil, buf); err != nil {
		t.Fatalf("cuLaunchKernel(extra): %v", err)
	}
	readC()
	vaddCheck(t, "cuLaunchKernel(extra)", a, b, c)

	// Runtime API, with the same kernel and handles: the launch itself.
	// A CUkernel as cudart.Kernel needs a runtime that takes a cudaKernel_t
	// (CUDA 13 documents it; 12.4 answers cudaErrorInvalidDeviceFunction):
	// e2e/e2e13 tests that with the CUDA 13 packages.
	count := uint32(n)
	args := []unsafe.Pointer{unsafe.Pointer(&d[0]), unsafe.Pointer(&d[1]), unsafe.Pointer(&d[2]), unsafe.Pointer(&count)}
	clear()
	if err := cu.LaunchKernel(vadd, n/block, 1, 1, block, 1, 1, 0, stream, args, nil); err != nil {
		t.Fatalf("cuLaunchKernel(kernelParams): %v", err)
	}
	readC()
	vaddCheck(t, "cuLaunchKernel(kernelParams)", a, b, c)
}
