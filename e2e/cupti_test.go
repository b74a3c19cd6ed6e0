package e2e

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/e2e/internal/twin"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/ffi/ffiimpl"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cupti"
	"github.com/cugen/cugen/nvtx"
)

// TestCUPTIWithoutDriver12: Debian's libcupti12 loads without a GPU: its
// API version is the header's CUPTI_API_VERSION and its result texts
// answer. Without a driver cuptiSubscribe fails with CUPTI's typed error
// and the registered-callback wrapper releases the Go func's handle; on a
// GPU machine it succeeds and cuptiUnsubscribe releases it.
func TestCUPTIWithoutDriver12(t *testing.T) {
	cugentest.NeedLibrary(t, cupti.SharedLibrary().Load())
	v, err := cupti.GetVersion()
	if err != nil || v != cupti.ApiVersion {
		t.Fatalf("cupti.GetVersion() = %d, %v; want CUPTI_API_VERSION %d", v, err, cupti.ApiVersion)
	}
	if s, err := cupti.GetResultString(cupti.ErrorInvalidParameter); err != nil || s != "CUPTI_ERROR_INVALID_PARAMETER" {
		t.Errorf("GetResultString(ErrorInvalidParameter) = %q, %v", s, err)
	}
	before := ffiimpl.LiveHandles()
	sub, err := cupti.Subscribe(func(cupti.CallbackDomain, cupti.CallbackId, unsafe.Pointer) {})
	if err == nil {
		if ffiimpl.LiveHandles() != before+1 {
			t.Errorf("a successful Subscribe holds %d handles more, want 1", ffiimpl.LiveHandles()-before)
		}
		if err := cupti.Unsubscribe(sub); err != nil {
			t.Fatal(err)
		}
		if ffiimpl.LiveHandles() != before {
			t.Errorf("Unsubscribe left %d handles", ffiimpl.LiveHandles()-before)
		}
		cugentest.SkipHasGPU(t, "cuptiSubscribe succeeded (CUPTI %d)", v)
	}
	var ce *ffi.CallError
	if !errors.As(err, &ce) || !errors.Is(err, cupti.ErrorNotInitialized) {
		t.Errorf("Subscribe without a driver = %v, want CUPTI_ERROR_NOT_INITIALIZED", err)
	}
	if n := ffiimpl.LiveHandles() - before; n != 0 {
		t.Errorf("a failed Subscribe left %d handles", n)
	}
	t.Logf("CUPTI API %d; %v", v, err)
}

// activityLog collects what TestCUPTIActivityTracesKernelAndCopies12's
// and TestNVTXRangesSeenByCUPTI12's buffer callbacks read, on CUPTI's
// threads.
var activityLog twin.Activity

// activityRequested and activityCompleted are the two buffer callbacks,
// Go funcs that package cupti's trampolines call on CUPTI's threads.
func activityRequested(buffer **byte, size, maxNumRecords *uint64) {
	activityLog.Request(buffer, size, maxNumRecords)
}

func activityCompleted(_ cu.Context, _ uint32, buffer *byte, _, validSize uint64) {
	activityLog.Complete(buffer, func() {
		var rec *cupti.Activity
		for cupti.ActivityGetNextRecord(buffer, validSize, &rec) == nil {
			switch rec.Kind {
			case cupti.ActivityKindConcurrentKernel, cupti.ActivityKindKernel:
				k := (*cupti.ActivityKernel9)(unsafe.Pointer(rec))
				activityLog.Kernel(ffi.GoString(uintptr(unsafe.Pointer(k.Name)), 1024), k.Start, k.End)
			case cupti.ActivityKindMarker:
				m := (*cupti.ActivityMarker2)(unsafe.Pointer(rec))
				name := ffi.GoString(uintptr(unsafe.Pointer(m.Name)), 1024)
				var what []string
				for _, f := range []struct {
					flag cupti.ActivityFlag
					text string
				}{{cupti.ActivityFlagMarkerInstantaneous, "mark"}, {cupti.ActivityFlagMarkerStart, "start"}, {cupti.ActivityFlagMarkerEnd, "end"}} {
					if m.Flags&f.flag != 0 {
						what = append(what, f.text)
					}
				}
				if domain := ffi.GoString(uintptr(unsafe.Pointer(m.Domain)), 1024); domain != "" {
					name = domain + ":" + name
				}
				activityLog.Markers = append(activityLog.Markers, strings.TrimSpace(name+" "+strings.Join(what, ",")))
			case cupti.ActivityKindMemcpy:
				m := (*cupti.ActivityMemcpy4)(unsafe.Pointer(rec))
				activityLog.Copy(int32(m.CopyKind), m.Bytes, m.Start, m.End)
			}
		}
	})
}

// TestCUPTIActivityTracesKernelAndCopies12 (GPU): CUPTI's activity API
// with Go buffer callbacks, called on CUPTI's threads, records the
// kernel and the copies of a vector addition (cudatest's PTX): one vadd
// kernel record, two host-to-device copies and one device-to-host copy of
// 4 MiB each, with durations.
func TestCUPTIActivityTracesKernelAndCopies12(t *testing.T) {
	cugentest.NeedLibrary(t, cupti.SharedLibrary().Load())
	activityLog.Reset()
	// Registered and enabled before this test's context is made (an
	// earlier test of the binary may have initialized the driver: CUPTI
	// attaches to it then). Without a driver CUPTI may refuse both
	// (CUPTI_ERROR_NOT_INITIALIZED): a failure only where there is a device.
	setupErr := cupti.ActivityRegisterCallbacks(activityRequested, activityCompleted)
	for _, k := range []cupti.ActivityKind{cupti.ActivityKindConcurrentKernel, cupti.ActivityKindMemcpy} {
		if setupErr != nil {
			break
		}
		if setupErr = cupti.ActivityEnable(k); setupErr == nil {
			defer cupti.ActivityDisable(k)
		}
	}
	_, release := gpu12(t) // skips here without a device
	defer release()
	if setupErr != nil {
		t.Fatalf("CUPTI activity setup: %v", setupErr)
	}
	mod, vadd, _ := loadPTX(t) // hand-written PTX: no NVRTC needed
	defer cu.ModuleUnload(mod)
	const n = 1 << 20
	a, b, c := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range a {
		a[i], b[i] = float32(i), 0.5
	}
	var d [3]cu.Deviceptr
	for i := range d {
		var err error
		if d[i], err = cu.MemAlloc(4 * n); err != nil {
			t.Fatal(err)
		}
		defer cu.MemFree(d[i])
	}
	for i, h := range [][]float32{a, b} {
		if err := cu.MemcpyHtoD(d[i], unsafe.Pointer(&h[0]), 4*n); err != nil {
			t.Fatal(err)
		}
	}
	count := uint32(n)
	args := []unsafe.Pointer{unsafe.Pointer(&d[0]), unsafe.Pointer(&d[1]), unsafe.Pointer(&d[2]), unsafe.Pointer(&count)}
	if err := cu.LaunchKernel(vadd, n/256, 1, 1, 256, 1, 1, 0, 0, args, nil); err != nil {
		t.Fatal(err)
	}
	if err := cu.MemcpyDtoH(unsafe.Pointer(&c[0]), d[2], 4*n); err != nil {
		t.Fatal(err)
	}
	if c[n-1] != a[n-1]+0.5 {
		t.Fatalf("c[%d] = %v, want %v", n-1, c[n-1], a[n-1]+0.5)
	}
	if err := cu.CtxSynchronize(); err != nil {
		t.Fatal(err)
	}
	if err := cupti.ActivityFlushAll(uint32(cupti.ActivityFlagFlushForced)); err != nil {
		t.Fatal(err)
	}
	got := activityLog.CheckVAdd(t, int32(cupti.ActivityMemcpyKindHtod), int32(cupti.ActivityMemcpyKindDtoh), 4<<20)
	t.Logf("CUPTI activity: %s", got)
}

// TestNVTXRangesSeenByCUPTI12 (GPU): the ranges and marks a Go program
// makes through package nvtx (NVTX 3's protocol, its loader in Go) reach
// a profiler: CUPTI, named by NVTX_INJECTION64_PATH as Nsight names its
// own library, records each one as a CUPTI_ACTIVITY_KIND_MARKER record
// that the Go buffer callbacks read back.
func TestNVTXRangesSeenByCUPTI12(t *testing.T) {
	lib := cupti.SharedLibrary()
	cugentest.NeedLibrary(t, lib.Load())
	_, release := gpu12(t) // skips here without a device
	defer release()
	// before nvtx's first call, which reads it once (no other test of
	// this binary calls nvtx)
	os.Setenv("NVTX_INJECTION64_PATH", lib.Path())
	activityLog.Reset()
	if err := cupti.ActivityRegisterCallbacks(activityRequested, activityCompleted); err != nil {
		t.Fatal(err)
	}
	if err := cupti.ActivityEnable(cupti.ActivityKindMarker); err != nil {
		t.Fatal(err)
	}
	defer cupti.ActivityDisable(cupti.ActivityKindMarker)
	if err := nvtx.Status(); err != nil {
		t.Fatalf("nvtx did not attach CUPTI: %v", err)
	}
	nvtx.Push("go-outer")
	nvtx.PushEx(nvtx.Attributes{Message: "go-inner", Color: 0xff00aa00, Payload: int64(7)})
	nvtx.Mark("go-mark")
	nvtx.Pop()
	nvtx.Pop()
	id := nvtx.Start("go-span")
	nvtx.End(id)
	d := nvtx.NewDomain("cugen-test")
	d.Mark(nvtx.Attributes{Message: "in-domain"})
	d.Close()
	if err := cupti.ActivityFlushAll(uint32(cupti.ActivityFlagFlushForced)); err != nil {
		t.Fatal(err)
	}
	var markers []string
	activityLog.Read(func() { markers = slices.Clone(activityLog.Markers) })
	for _, want := range []string{"go-outer start", "go-inner start", "go-mark mark", "go-span start", "cugen-test:in-domain mark"} {
		if !slices.Contains(markers, want) {
			t.Errorf("CUPTI recorded no %q", want)
		}
	}
	ends := 0
	for _, m := range markers {
		if m == "end" || strings.HasSuffix(m, " end") {
			ends++
		}
	}
	if ends != 3 {
		t.Errorf("%d range ends recorded, want 3 (two pops and an End)", ends)
	}
	t.Logf("CUPTI marker records of the Go program's NVTX calls: %q", markers)
}
