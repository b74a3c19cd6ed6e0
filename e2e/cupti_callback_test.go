package e2e

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cupti"
)

// TestCUPTICallbackNames12: the parts of CUPTI's callback
// API that answer without a driver (Debian's libcupti12 on the CPU).
// cuptiGetCallbackName names the driver API's callback ids as CUPTI's
// functionName will (cuLaunchKernel, cuLaunchKernel_ptsz: the name in
// the id's constant), and refuses an unknown id with a typed error;
// cuptiEnableCallback and cuptiUnsubscribe with a zero subscriber are
// CUPTI_ERROR_INVALID_PARAMETER, an error, not a crash: checked in a child
// process (this test's binary again), so that a crash in CUPTI, as
// cuptiEnableDomain's with a zero subscriber in CUPTI 12.4, would fail
// this test instead of ending the binary.
func TestCUPTICallbackNames12(t *testing.T) {
	cugentest.NeedLibrary(t, cupti.SharedLibrary().Load())
	if os.Getenv(cuptiChildEnv) == "zero" {
		cuptiZeroSubscriber(t)
		return
	}
	for _, id := range []cupti.DriverApiTraceCbid{cupti.DriverTraceCbidCuLaunchKernel, cupti.DriverTraceCbidCuLaunchKernelPtsz, cupti.DriverTraceCbidCuMemcpyHtoDV2} {
		name, err := cupti.GetCallbackName(cupti.CbDomainDriverApi, uint32(id))
		if want := strings.TrimPrefix(id.String(), "CUPTI_DRIVER_TRACE_CBID_"); err != nil || name != want {
			t.Errorf("GetCallbackName(driver, %d) = %q, %v; want %q", id, name, err, want)
		}
	}
	if _, err := cupti.GetCallbackName(cupti.CbDomainDriverApi, 1<<20); !errors.Is(err, cupti.ErrorInvalidParameter) {
		t.Errorf("GetCallbackName of an unknown id: %v, want CUPTI_ERROR_INVALID_PARAMETER", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCUPTICallbackNames12$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), cuptiChildEnv+"=zero")
	out, err := cmd.CombinedOutput()
	quoted := "| " + strings.ReplaceAll(strings.TrimRight(string(out), "\n"), "\n", "\n| ")
	if err != nil || !strings.Contains(string(out), "zero subscriber: ok") {
		t.Errorf("the zero-subscriber calls (child process): %v\n%s", err, quoted)
	}
}

// cuptiChildEnv names what a child process of a CUPTI test does.
const cuptiChildEnv = "CUGEN_CUPTI_CHILD"

// cuptiZeroSubscriber is TestCUPTICallbackNames12's child: calls with a
// zero subscriber.
func cuptiZeroSubscriber(t *testing.T) {
	var ce *ffi.CallError
	if err := cupti.EnableCallback(1, 0, cupti.CbDomainDriverApi, uint32(cupti.DriverTraceCbidCuLaunchKernel)); !errors.As(err, &ce) || !errors.Is(err, cupti.ErrorInvalidParameter) {
		t.Errorf("EnableCallback with a zero subscriber: %v, want CUPTI_ERROR_INVALID_PARAMETER", err)
	}
	if err := cupti.Unsubscribe(0); !errors.Is(err, cupti.ErrorInvalidParameter) {
		t.Errorf("Unsubscribe(0): %v, want CUPTI_ERROR_INVALID_PARAMETER", err)
	}
	if !t.Failed() {
		t.Log("zero subscriber: ok")
	}
}

// launchKernelParams is the start of cuLaunchKernel_params (and
// cuLaunchKernel_ptsz_params), CUPTI's generated_cuda_meta.h, which
// package cupti does not bind: what CUpti_CallbackData.functionParams
// points to in a cuLaunchKernel callback.
type launchKernelParams struct {
	F                            cu.Function
	GridDimX, GridDimY, GridDimZ uint32
}

// apiCall is one callback of TestCUPTICallbackSeesLaunchKernel12, copied
// out of CUpti_CallbackData while the callback runs.
type apiCall struct {
	domain      cupti.CallbackDomain
	cbid        cupti.CallbackId
	site        cupti.ApiCallbackSite
	name        string // functionName
	symbol      string // symbolName: the kernel
	correlation uint32
	fn          cu.Function // launchKernelParams.F, at the entry
	gridX       uint32
	result      cu.Result // at the exit
}

// TestCUPTICallbackSeesLaunchKernel12 (GPU): CUPTI's callback API with a
// Go func (cuptiSubscribe's trampoline): subscribed to cuLaunchKernel
// (both callback ids: the package calls cuLaunchKernel_ptsz under
// per-thread default streams), one launch of a kernel on a grid of 3
// blocks gives exactly two callbacks on the launching thread, the entry
// and then the exit, each with the driver domain, the callback id of the
// symbol called and its name as functionName, the kernel's name as
// symbolName, one correlation id; the entry's parameters hold the
// launched function and grid, the exit's return value CUDA_SUCCESS.
// After cuptiUnsubscribe a launch calls nothing.
func TestCUPTICallbackSeesLaunchKernel12(t *testing.T) {
	cugentest.NeedLibrary(t, cupti.SharedLibrary().Load())
	_, release := gpu12(t) // skips here without a device
	defer release()
	mod, _, empty := loadPTX(t)
	defer cu.ModuleUnload(mod)

	var mu sync.Mutex
	var calls []apiCall
	sub, err := cupti.Subscribe(func(domain cupti.CallbackDomain, cbid cupti.CallbackId, cbdata unsafe.Pointer) {
		// on the launching thread, inside cuLaunchKernel: record only
		// (t.FailNow here would unwind through C)
		d := (*cupti.CallbackData)(cbdata)
		c := apiCall{domain: domain, cbid: cbid, site: d.CallbackSite, correlation: d.CorrelationId,
			name:   ffi.GoString(uintptr(unsafe.Pointer(d.FunctionName)), 256),
			symbol: ffi.GoString(uintptr(unsafe.Pointer(d.SymbolName)), 256)}
		switch {
		case d.CallbackSite == cupti.ApiEnter && d.FunctionParams != nil:
			p := (*launchKernelParams)(d.FunctionParams)
			c.fn, c.gridX = p.F, p.GridDimX
		case d.CallbackSite == cupti.ApiExit && d.FunctionReturnValue != nil:
			c.result = *(*cu.Result)(d.FunctionReturnValue)
		}
		mu.Lock()
		calls = append(calls, c)
		mu.Unlock()
	})
	if err != nil {
		t.Fatalf("cuptiSubscribe: %v", err)
	}
	subscribed := true
	defer func() {
		if subscribed {
			cupti.Unsubscribe(sub)
		}
	}()
	ids := []cupti.DriverApiTraceCbid{cupti.DriverTraceCbidCuLaunchKernel, cupti.DriverTraceCbidCuLaunchKernelPtsz}
	for _, id := range ids {
		if err := cupti.EnableCallback(1, sub, cupti.CbDomainDriverApi, uint32(id)); err != nil {
			t.Fatalf("cuptiEnableCallback(%v): %v", id, err)
		}
	}
	if err := cu.LaunchKernel(empty, 3, 1, 1, 32, 1, 1, 0, 0, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := cu.CtxSynchronize(); err != nil {
		t.Fatal(err)
	}
	want := ids[0]
	if cu.SharedLibrary().PerThreadDefaultStream() {
		want = ids[1]
	}
	wantName := strings.TrimPrefix(want.String(), "CUPTI_DRIVER_TRACE_CBID_")

	mu.Lock()
	got := append([]apiCall(nil), calls...)
	mu.Unlock()
	for _, c := range got {
		t.Logf("callback: domain %v, cbid %d, site %v, function %q, symbol %q, correlation %d, f %#x, gridDimX %d, result %v",
			c.domain, c.cbid, c.site, c.name, c.symbol, c.correlation, c.fn, c.gridX, c.result)
	}
	if len(got) != 2 || got[0].site != cupti.ApiEnter || got[1].site != cupti.ApiExit {
		t.Fatalf("%d callbacks, want the entry and the exit of one launch", len(got))
	}
	for _, c := range got {
		if c.domain != cupti.CbDomainDriverApi || c.cbid != uint32(want) || c.name != wantName || c.symbol != "empty" {
			t.Errorf("%v callback: domain %v, cbid %d, function %q, symbol %q; want the driver API, %d, %q, the kernel \"empty\"",
				c.site, c.domain, c.cbid, c.name, c.symbol, want, wantName)
		}
	}
	if got[0].correlation == 0 || got[0].correlation != got[1].correlation {
		t.Errorf("correlation ids %d and %d, want one non-zero id", got[0].correlation, got[1].correlation)
	}
	if got[0].fn != empty || got[0].gridX != 3 {
		t.Errorf("entry parameters: f %#x, gridDimX %d; want %#x, 3", got[0].fn, got[0].gridX, empty)
	}
	if got[1].result != cu.Success {
		t.Errorf("exit return value %v, want CUDA_SUCCESS", got[1].result)
	}

	subscribed = false
	if err := cupti.Unsubscribe(sub); err != nil {
		t.Fatal(err)
	}
	if err := cu.LaunchKernel(empty, 1, 1, 1, 32, 1, 1, 0, 0, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := cu.CtxSynchronize(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != 2 {
		t.Errorf("%d callbacks after cuptiUnsubscribe, want none", len(calls)-2)
	}
}
