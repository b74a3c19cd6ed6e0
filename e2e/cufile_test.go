package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cufile"
)

// noCuFileLog sends the log cuFile writes when it opens (cufile.log in
// the working directory) to the test's temporary directory, and gives
// cuFile a configuration of its own (CUFILE_ENV_PATH_JSON) that forces
// compatibility mode: reads through the page cache, which every file
// system has, where no GPUDirect Storage driver (nvidia-fs) is loaded. It
// returns the log's path.
func noCuFileLog(t *testing.T) string {
	dir := t.TempDir()
	log := filepath.Join(dir, "cufile.log")
	t.Setenv("CUFILE_LOGFILE_PATH", log)
	conf := filepath.Join(dir, "cufile.json")
	os.WriteFile(conf, []byte(`{"logging": {"level": "ERROR"}, "properties": {"allow_compat_mode": true, "force_compat_mode": true, "use_poll_mode": false}}`), 0o600)
	t.Setenv("CUFILE_ENV_PATH_JSON", conf)
	return log
}

// cuFileLog is the end of cuFile's log, for a failure's message.
func cuFileLog(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// TestCuFileWithoutGPU12: Debian's libcufile0 (cuFile 1.9.1) loads on
// the CPU and reports its version; without a device cuFileDriverOpen
// fails with cuFile's status (and CUDA's, in the second field), no
// driver is in use, and a close without an open is
// CU_FILE_DRIVER_NOT_INITIALIZED. cuFile returns its status as a struct
// ({err, cu_err}): the wrappers return an error (library.Desc.StatusRecord),
// an *ffi.CallError naming the C function whose Code is that struct and
// which errors.Is matches against cuFile's status.
func TestCuFileWithoutGPU12(t *testing.T) {
	cugentest.NeedLibrary(t, cufile.SharedLibrary().Load())
	noCuFileLog(t)
	v, err := cufile.GetVersion()
	if err != nil || v < 1000 {
		t.Fatalf("cufile.GetVersion() = %d, %v", v, err)
	}
	if err := cufile.DriverOpen(); err == nil {
		cufile.DriverClose()
		cugentest.SkipHasGPU(t, "cuFileDriverOpen succeeded (cuFile %d)", v)
	} else {
		var ce *ffi.CallError
		var st cufile.Error
		if !errors.As(err, &ce) || ce.Func != "cuFileDriverOpen" || !errors.As(err, &st) || st.Err == cufile.Success || !errors.Is(err, st.Err) || st.Err.Message() == "" {
			t.Errorf("DriverOpen = %#v: want an *ffi.CallError of cuFileDriverOpen with cuFile's status", err)
		}
		t.Logf("cuFile %d: DriverOpen without a device: %v (CUDA: %v)", v, err, st.Cu_err)
	}
	if n := cufile.UseCount(); n != 0 {
		t.Errorf("UseCount = %d after a failed open", n)
	}
	err = cufile.DriverClose()
	if !errors.Is(err, cufile.DriverNotInitialized) || !strings.HasPrefix(fmt.Sprint(err), "cuFileDriverClose: CU_FILE_DRIVER_NOT_INITIALIZED") {
		t.Errorf("DriverClose without an open = %v, want CU_FILE_DRIVER_NOT_INITIALIZED", err)
	}
}

// TestCuFileReadToDevice12 (GPU): cuFileRead reads a file into device
// memory (in compatibility mode where the machine has no GPUDirect
// Storage), and the bytes equal the file's.
func TestCuFileReadToDevice12(t *testing.T) {
	cugentest.NeedLibrary(t, cufile.SharedLibrary().Load())
	log := noCuFileLog(t)
	_, done := gpu12(t)
	defer done()
	const n = 1 << 20
	want := make([]byte, n)
	for i := range want {
		want[i] = byte(i*7 + i>>11)
	}
	if err := cufile.DriverOpen(); err != nil {
		t.Fatalf("DriverOpen: %v", err)
	}
	defer cufile.DriverClose()
	// cuFileHandleRegister wants a descriptor opened with O_DIRECT, which
	// tmpfs (a common /tmp) refuses: the file goes where O_DIRECT opens
	fd, err := -1, error(nil)
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
			t.Logf("the file is in %s (O_DIRECT)", dir)
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
		t.Fatalf("HandleRegister: %v; cuFile's log:\n%s", err, cuFileLog(log))
	}
	defer cufile.HandleDeregister(fh)
	dbuf, err := cu.MemAlloc(n)
	if err != nil {
		t.Fatal(err)
	}
	defer cu.MemFree(dbuf)
	got := cufile.Read(fh, dbuf.Pointer(), n, 0, 0)
	if got != n {
		t.Fatalf("cuFileRead = %d, want %d; cuFile's log:\n%s", got, n, cuFileLog(log))
	}
	host := make([]byte, n)
	if err := cu.MemcpyDtoH(unsafe.Pointer(&host[0]), dbuf, n); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(host, want) {
		t.Fatal("the device copy differs from the file")
	}
	t.Logf("cuFileRead: %d bytes into device memory, equal to the file", got)
}
