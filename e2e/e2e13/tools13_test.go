//go:build linux

package e2e13

// The CUDA 13 twins of e2e's CUPTI and cuFile tests (e2e/cupti_test.go,
// e2e/cufile_test.go): the generated/cuda13 packages against the
// toolkit's libcupti.so.13 and libcufile.so.0. They skip without a GPU or
// the library.

import (
	"bytes"
	"errors"
	"os"
	"syscall"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/e2e/cudatest"
	"github.com/cugen/cugen/e2e/internal/twin"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda13/cu"
	"github.com/cugen/cugen/generated/cuda13/cufile"
	"github.com/cugen/cugen/generated/cuda13/cupti"
)

// activity13 collects what the buffer callbacks of
// TestCUPTIActivityTracesKernelAndCopies13 read, on CUPTI's threads.
var activity13 twin.Activity

// activityRequested13 and activityCompleted13 are the buffer callbacks,
// Go funcs CUPTI calls on its own threads (the wrapper's one trampoline
// per callback type). CUDA 13's records are CUpti_ActivityKernel10 and
// CUpti_ActivityMemcpy6.
func activityRequested13(buffer **byte, size, maxNumRecords *uint64) {
	activity13.Request(buffer, size, maxNumRecords)
}

func activityCompleted13(_ cu.Context, _ uint32, buffer *byte, _, validSize uint64) {
	activity13.Complete(buffer, func() {
		var rec *cupti.Activity
		for cupti.ActivityGetNextRecord(buffer, validSize, &rec) == nil {
			switch rec.Kind {
			case cupti.ActivityKindConcurrentKernel, cupti.ActivityKindKernel:
				k := (*cupti.ActivityKernel10)(unsafe.Pointer(rec))
				activity13.Kernel(ffi.GoString(uintptr(unsafe.Pointer(k.Name)), 1024), k.Start, k.End)
			case cupti.ActivityKindMemcpy:
				m := (*cupti.ActivityMemcpy6)(unsafe.Pointer(rec))
				activity13.Copy(int32(m.CopyKind), m.Bytes, m.Start, m.End)
			}
		}
	})
}

// TestCUPTIActivityTracesKernelAndCopies13 (GPU): CUPTI 13's version is the
// header's; its activity API with Go buffer callbacks, called on CUPTI's
// threads, records the kernel and the copies of a vector addition
// (cudatest's PTX): one vadd kernel record, two host-to-device copies and
// one device-to-host copy of 4 MiB each, with durations.
func TestCUPTIActivityTracesKernelAndCopies13(t *testing.T) {
	cugentest.NeedLibrary(t, cupti.SharedLibrary().Load())
	v, verr := cupti.GetVersion()
	activity13.Reset()
	// Registered and enabled before the test's context is made; without
	// a driver CUPTI may refuse both: a failure only where there is a
	// device.
	setupErr := cupti.ActivityRegisterCallbacks(activityRequested13, activityCompleted13)
	for _, k := range []cupti.ActivityKind{cupti.ActivityKindConcurrentKernel, cupti.ActivityKindMemcpy} {
		if setupErr != nil {
			break
		}
		if setupErr = cupti.ActivityEnable(k); setupErr == nil {
			defer cupti.ActivityDisable(k)
		}
	}
	device13(t) // skips here without a device
	// Checked where CUDA 13 runs: make test points CUGEN_LIBCUPTI, which
	// both majors' packages honour, at Debian's CUPTI 12.
	if verr != nil || v != cupti.ApiVersion {
		t.Fatalf("cupti.GetVersion() = %d, %v; want CUPTI_API_VERSION %d", v, verr, cupti.ApiVersion)
	}
	if setupErr != nil {
		t.Fatalf("CUPTI activity setup: %v", setupErr)
	}
	img := append([]byte(cudatest.VecAddPTX), 0)
	mod, err := cu.ModuleLoadData(unsafe.Pointer(&img[0]))
	must(t, "cuModuleLoadData", err)
	defer cu.ModuleUnload(mod)
	vadd, err := cu.ModuleGetFunction(mod, "vadd")
	must(t, "cuModuleGetFunction", err)
	const n = 1 << 20
	a, b, c := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range a {
		a[i], b[i] = float32(i), 0.5
	}
	var d [3]cu.Deviceptr
	for i := range d {
		d[i], err = cu.MemAlloc(4 * n)
		must(t, "cuMemAlloc", err)
		defer cu.MemFree(d[i])
	}
	for i, h := range [][]float32{a, b} {
		must(t, "cuMemcpyHtoD", cu.MemcpyHtoD(d[i], unsafe.Pointer(&h[0]), 4*n))
	}
	count := uint32(n)
	args := []unsafe.Pointer{unsafe.Pointer(&d[0]), unsafe.Pointer(&d[1]), unsafe.Pointer(&d[2]), unsafe.Pointer(&count)}
	must(t, "cuLaunchKernel", cu.LaunchKernel(vadd, n/256, 1, 1, 256, 1, 1, 0, 0, args, nil))
	must(t, "cuMemcpyDtoH", cu.MemcpyDtoH(unsafe.Pointer(&c[0]), d[2], 4*n))
	if c[n-1] != a[n-1]+0.5 {
		t.Fatalf("c[%d] = %v, want %v", n-1, c[n-1], a[n-1]+0.5)
	}
	must(t, "cuCtxSynchronize", cu.CtxSynchronize())
	must(t, "cuptiActivityFlushAll", cupti.ActivityFlushAll(uint32(cupti.ActivityFlagFlushForced)))
	got := activity13.CheckVAdd(t, int32(cupti.ActivityMemcpyKindHtod), int32(cupti.ActivityMemcpyKindDtoh), 4<<20)
	t.Logf("CUPTI API %d activity: %s", v, got)
}

// cuFileCompat13 gives cuFile a log in the test's directory and a
// configuration forcing compatibility mode (twin.CuFileCompat) that
// allows unsupported file systems; it returns the log's path.
func cuFileCompat13(t *testing.T) string {
	log := twin.CuFileCompat(t)
	// cuFile registers a file only on a file system it supports: an ext4
	// it reads as mounted without data=ordered (the H200 machine's root)
	// is refused (CU_FILE_HANDLE_NOT_REGISTERED, in C as in Go) unless
	// unsupported file systems are allowed; e2e's
	// TestCuFileReadToDevice12 tries the configurations in turn.
	t.Setenv("CUFILE_EXPERIMENTAL_FS", "1")
	return log
}

// TestCuFileReadToDevice13 (GPU): cuFile of CUDA 13 reports its version;
// a close without an open fails with an *ffi.CallError whose Code is the
// CUfileError_t struct (cuFile 1.9: CU_FILE_DRIVER_NOT_INITIALIZED; logged
// if 1.15 accepts it); cuFileRead reads a
// file into device memory in compatibility mode and the bytes equal the
// file's.
func TestCuFileReadToDevice13(t *testing.T) {
	cugentest.NeedLibrary(t, cufile.SharedLibrary().Load())
	log := cuFileCompat13(t)
	device13(t)
	v, err := cufile.GetVersion()
	if err != nil || v < 1000 {
		t.Fatalf("cufile.GetVersion() = %d, %v", v, err)
	}
	err = cufile.DriverClose()
	var ce *ffi.CallError
	var st cufile.Error
	switch {
	case err == nil:
		t.Logf("cuFileDriverClose without an open succeeded (cuFile %d)", v)
	case !errors.As(err, &ce) || ce.Func != "cuFileDriverClose" || !errors.As(err, &st) || !errors.Is(err, st.Err):
		t.Errorf("DriverClose without an open = %#v, want an *ffi.CallError of cuFileDriverClose with cuFile's status", err)
	default:
		t.Logf("cuFileDriverClose without an open: %v", err)
	}
	must(t, "cuFileDriverOpen", cufile.DriverOpen())
	defer cufile.DriverClose()
	const n = 1 << 20
	want := make([]byte, n)
	for i := range want {
		want[i] = byte(i*7 + i>>11)
	}
	// cuFileHandleRegister wants a descriptor opened with O_DIRECT, which
	// tmpfs refuses: the file goes where O_DIRECT opens.
	fd := -1
	for _, dir := range []string{t.TempDir(), "."} {
		f, ferr := os.CreateTemp(dir, "cufile-data-*")
		if ferr != nil {
			err = ferr
			continue
		}
		path := f.Name()
		f.Close()
		t.Cleanup(func() { os.Remove(path) })
		if err = os.WriteFile(path, want, 0o600); err != nil {
			continue
		}
		if fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECT, 0); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("no directory here takes O_DIRECT, which cuFile needs: %v", err)
	}
	defer syscall.Close(fd)
	var descr cufile.Descr
	descr.Type = cufile.HandleTypeOpaqueFd
	*descr.Handle.Fd() = int32(fd)
	var fh cufile.Handle
	if err := cufile.HandleRegister(&fh, &descr); err != nil {
		b, _ := os.ReadFile(log)
		t.Fatalf("cuFileHandleRegister: %v; cuFile's log:\n%s", err, b[max(0, len(b)-2000):])
	}
	defer cufile.HandleDeregister(fh)
	dbuf, err := cu.MemAlloc(n)
	must(t, "cuMemAlloc", err)
	defer cu.MemFree(dbuf)
	if got := cufile.Read(fh, dbuf.Pointer(), n, 0, 0); got != n {
		t.Fatalf("cuFileRead = %d, want %d", got, n)
	}
	host := make([]byte, n)
	must(t, "cuMemcpyDtoH", cu.MemcpyDtoH(unsafe.Pointer(&host[0]), dbuf, n))
	if !bytes.Equal(host, want) {
		t.Fatal("the device copy differs from the file")
	}
	t.Logf("cuFile %d: %d bytes read into device memory, equal to the file", v, n)
}
