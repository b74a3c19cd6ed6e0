//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package abitest_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/emit/internal/abitest/cu"
	"github.com/cugen/cugen/emit/internal/abitest/cudart"
	"github.com/cugen/cugen/ffi"
)

// TestDim1Dim2 checks the constructors with C++'s dim3 defaults, through C:
// Dim3{X: 512} is {512, 0, 0}, an invalid launch, where dim3(512) is
// {512, 1, 1}.
func TestDim1Dim2(t *testing.T) {
	need(t)
	if got, want := cudart.Dim1(512), cudart.AbiMakeDim3(512, 1, 1); got != want {
		t.Errorf("Dim1(512) = %+v, want %+v", got, want)
	}
	if got, want := cudart.Dim2(0xFFFFFFFF, 7), cudart.AbiMakeDim3(0xFFFFFFFF, 7, 1); got != want {
		t.Errorf("Dim2 = %+v, want %+v", got, want)
	}
	k := cudart.Kernel(0x1000)
	check(t, "LaunchKernel", cudart.LaunchKernel(k, cudart.Dim1(512), cudart.Dim2(32, 8), nil, 0, 0))
	expectRec(t, "LaunchKernel(Dim1, Dim2)", 0x1000, 512, 1, 1, 32, 8, 1, 0, 0, 0, 0)
}

// TestKernelAndDevicePointers passes a kernel handle and a driver device
// pointer to runtime calls with no unsafe conversion of an integer.
func TestKernelAndDevicePointers(t *testing.T) {
	need(t)
	var kp cudart.KernelNodeParams
	kp.Func = cudart.Kernel(cu.Kernel(0xABCDE)) // both handles are uintptrs
	off, size, err := cudart.FuncGetParamInfo(kp.Func, 3)
	check(t, "FuncGetParamInfo", err)
	expectRec(t, "FuncGetParamInfo", 0xABCDE, 3)
	if off != 24 || size != 0xABCDE {
		t.Errorf("FuncGetParamInfo = %d, %#x; want 24, 0xabcde", off, size)
	}
	dptr := cu.Deviceptr(0x7F0012345000)
	check(t, "Free", cudart.Free(dptr.Pointer()))
	expectRec(t, "Free(Deviceptr.Pointer())", 0x7F0012345000)
	// And back: a runtime device pointer is a Deviceptr by conversion.
	if got := cu.Deviceptr(uintptr(dptr.Pointer())); got != dptr {
		t.Errorf("Deviceptr round trip = %#x, want %#x", got, dptr)
	}
	check(t, "LaunchKernel", cudart.LaunchKernel(kp.Func, cudart.Dim1(1), cudart.Dim1(1), nil, 0, cudart.Stream(cu.Stream(9))))
	expectRec(t, "LaunchKernel(cu.Stream)", 0xABCDE, 1, 1, 1, 1, 1, 1, 0, 0, 0, 9)
}

// launchExtra calls cu.LaunchKernel with a packed argument buffer made on
// this goroutine's stack and checks what C read, at every depth of a
// recursion that grows (and so moves) the stack between calls.
func launchExtra(t *testing.T, depth int) {
	var pad [32]uintptr // grow the stack quickly
	arg := int32(depth)
	buf := [12]byte{byte(depth), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, byte(depth >> 8)}
	args := []unsafe.Pointer{unsafe.Pointer(&arg)}
	if err := cu.LaunchKernel(0x42, 1, 2, 3, 4, 5, 6, 64, 0, args, buf[:]); err != nil {
		t.Fatalf("depth %d: LaunchKernel: %v", depth, err)
	}
	var first [8]byte
	copy(first[:], buf[:8])
	expectRec(t, fmt.Sprintf("LaunchKernel at depth %d", depth), 0x42, 1, 2, 3, 4, 5, 6, 64, 0,
		uint64(depth), 1, uint64(len(buf)), fnv1a(buf[:]), uint64(*(*uint64)(unsafe.Pointer(&first))))
	if depth > 0 {
		launchExtra(t, depth-1)
	}
	runtime.KeepAlive(&pad)
}

// TestLaunchExtraStackMoves: extra is the packed argument buffer ([]byte),
// and the wrapper builds {CU_LAUNCH_PARAM_BUFFER_POINTER, buf,
// CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END} in uintptr words,
// which C checks against the header's macros. Before, extra was
// *unsafe.Pointer: the caller's []unsafe.Pointer holding the markers 1 and
// 2 made the runtime throw "invalid pointer found on stack" when the stack
// moved, as it does here, with collections running alongside.
func TestLaunchExtraStackMoves(t *testing.T) {
	need(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	}()
	defer func() { close(stop); wg.Wait() }()
	for range 20 {
		launchExtra(t, 200)
	}
	// nil is NULL, for both arrays.
	check(t, "LaunchKernel(nil, nil)", cu.LaunchKernel(0x42, 1, 1, 1, 1, 1, 1, 0, 0, nil, nil))
	expectRec(t, "LaunchKernel(nil, nil)", 0x42, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0)
	// An empty buffer is a buffer of size 0, not NULL.
	check(t, "LaunchKernel(empty)", cu.LaunchKernel(0x42, 1, 1, 1, 1, 1, 1, 0, 0, nil, []byte{}))
	expectRec(t, "LaunchKernel(empty)", 0x42, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0, fnv1a(nil), 0)
}

// TestLaunchAllocs: the extra array costs no allocation.
func TestLaunchAllocs(t *testing.T) {
	need(t)
	buf := make([]byte, 16)
	args := []unsafe.Pointer{unsafe.Pointer(&buf[0])}
	if n := testing.AllocsPerRun(100, func() { cu.LaunchKernel(1, 1, 1, 1, 1, 1, 1, 0, 0, args, buf) }); n != 0 {
		t.Errorf("LaunchKernel with extra: %v allocations per call, want 0", n)
	}
}

// checkLine returns the line of its caller.
func checkLine() int {
	_, _, l, _ := runtime.Caller(1)
	return l
}

// checkCudaErrors is NVIDIA's samples' helper, written with CheckHelper.
func checkCudaErrors(err error) bool {
	cu.CheckHelper()
	return cu.Check(err)
}

// TestGeneratedCheck: cu.Check names the driver API and, through a helper
// marked with CheckHelper, reports the helper's caller. Before, it printed
// "runtime error" and the helper's own line.
func TestGeneratedCheck(t *testing.T) {
	need(t)
	var out bytes.Buffer
	defer func(w any) { ffi.CheckOutput = w.(interface{ Write([]byte) (int, error) }) }(ffi.CheckOutput)
	ffi.CheckOutput = &out
	err := cu.AbiFail(cu.ErrorInvalidValue)
	if checkCudaErrors(err) {
		t.Fatal("Check(error) = true")
	}
	line := checkLine() - 3
	want := fmt.Sprintf("driver error handles_test.go:%d  cuAbiFail failed.\n  code = CUDA_ERROR_INVALID_VALUE", line)
	if got := out.String(); !strings.HasPrefix(got, want) {
		t.Errorf("cu.Check through a helper printed %q, want it to start with %q", got, want)
	}
	out.Reset()
	if cudart.CheckDepth(cudart.SetDevice(-1), 0) {
		t.Fatal("CheckDepth(error) = true")
	}
	if got, want := out.String(), fmt.Sprintf("runtime error handles_test.go:%d ", checkLine()-3); !strings.HasPrefix(got, want) {
		t.Errorf("cudart.CheckDepth printed %q, want it to start with %q", got, want)
	}
}

// TestVetClean runs go vet on a program that passes every kind of handle
// the way a user would: a cudart.Kernel to the runtime's kernel functions,
// a cu.Deviceptr to a runtime void * parameter, a cu.Stream to a runtime
// call, an extra buffer to cu.LaunchKernel, kernel arguments as
// []unsafe.Pointer. go vet must report nothing; the control program, which
// converts an integer handle with unsafe.Pointer as the old API required,
// must be flagged, or the test proves nothing.
func TestVetClean(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	vet := func(dir string) (string, error) {
		cmd := exec.Command(goTool, "vet", "./testdata/"+dir)
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	// vetgenerated does the same with generated/cuda13's kernel, device
	// pointer, stream and launch calls.
	for _, dir := range []string{"vetclean", "vetgenerated"} {
		if out, err := vet(dir); err != nil || out != "" {
			t.Errorf("go vet ./testdata/%s: %v\n%s", dir, err, out)
		}
	}
	out, err := vet("vetcontrol")
	if err == nil || !strings.Contains(out, "possible misuse of unsafe.Pointer") {
		t.Errorf("go vet ./testdata/vetcontrol did not flag the unsafe conversion: %v\n%s", err, out)
	}
}

// TestLaunchExtraMember: the Extra member of kernel node parameters is a
// *uintptr, and LaunchExtra's words (and the buffer) stay valid as long as
// the struct holds them, across collections and without the caller keeping
// anything else alive.
func TestLaunchExtraMember(t *testing.T) {
	need(t)
	p := &cudart.KernelNodeParams{Func: 0x77, GridDim: cudart.Dim1(9)}
	func() {
		buf := make([]byte, 20)
		for i := range buf {
			buf[i] = byte(3 * i)
		}
		p.Extra = cudart.LaunchExtra(buf)
	}()
	for range 3 {
		runtime.GC()
	}
	want := make([]byte, 20)
	for i := range want {
		want[i] = byte(3 * i)
	}
	check(t, "AbiKernelNode", cudart.AbiKernelNode(p))
	expectRec(t, "AbiKernelNode", 0x77, 9, 1, 20, fnv1a(want), uint64(*(*uint64)(unsafe.Pointer(&want[0]))))
	if cudart.LaunchExtra(nil) != nil {
		t.Error("LaunchExtra(nil) != nil")
	}
	p.Extra = nil
	check(t, "AbiKernelNode(nil extra)", cudart.AbiKernelNode(p))
	expectRec(t, "AbiKernelNode(nil extra)", 0x77, 9, 0)
}
