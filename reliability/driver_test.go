//go:build linux && (amd64 || arm64)

package reliability

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cudart"
)

// TestOneDriver: with CUGEN_LIBCUDA and CUGEN_LIBCUDART set, one process
// has one driver whichever package is called first, also when the dynamic
// loader's path offers another copy of libcuda.so.1: exactly one libcuda is
// mapped (the file CUGEN_LIBCUDA names), the runtime does not say
// cudaErrorInsufficientDriver, and both packages report the same driver
// version. Before: cudart first gave cudaErrorInsufficientDriver (it looked
// for libcuda.so.1 on its own and did not find it), or mapped the other
// copy beside the one cu then loaded.
func TestOneDriver(t *testing.T) {
	libcuda, _ := needLibs(t)
	// A real copy (a symlink would be the same file to the loader).
	other := t.TempDir()
	if !isChild(t) {
		b, err := os.ReadFile(libcuda)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(other, "libcuda.so.1"), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name, order, ldPath string
	}{
		{"cudart_first", "cudart", ""},
		{"cu_first", "cu", ""},
		{"cudart_first_another_on_loader_path", "cudart", other},
		{"cu_first_another_on_loader_path", "cu", other},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !isChild(t) {
				runChild(t, "RELIABILITY_ORDER="+c.order, "LD_LIBRARY_PATH="+c.ldPath)
				return
			}
			var rtErr, cuErr error
			callRT := func() { _, rtErr = cudart.GetDeviceCount() }
			callCU := func() { cuErr = cu.Init(0) }
			if os.Getenv("RELIABILITY_ORDER") == "cudart" {
				callRT()
				callCU()
			} else {
				callCU()
				callRT()
			}
			t.Logf("cudart.GetDeviceCount: %v; cu.Init: %v", rtErr, cuErr)
			// No device here: NoDevice from both; on a GPU machine, nil.
			if rtErr != nil && !errors.Is(rtErr, cudart.ErrorNoDevice) {
				t.Errorf("cudart.GetDeviceCount: %v, want nil or cudaErrorNoDevice", rtErr)
			}
			if cuErr != nil && !errors.Is(cuErr, cu.ErrorNoDevice) {
				t.Errorf("cu.Init: %v, want nil or CUDA_ERROR_NO_DEVICE", cuErr)
			}
			vcu, err1 := cu.DriverGetVersion()
			vrt, err2 := cudart.DriverGetVersion()
			if err1 != nil || err2 != nil || vcu == 0 || vcu != vrt {
				t.Errorf("driver version: cu %d (%v), cudart %d (%v): want one driver", vcu, err1, vrt, err2)
			}
			mapped := mappedDrivers(t)
			t.Logf("libcuda mapped: %q; cu loaded %s", mapped, cu.SharedLibrary().Path())
			if len(mapped) != 1 {
				t.Fatalf("%d copies of libcuda mapped: %q", len(mapped), mapped)
			}
			want, err := os.Stat(libcuda)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := os.Stat(mapped[0]); err != nil || !os.SameFile(got, want) {
				t.Errorf("the mapped driver is %s, want the file CUGEN_LIBCUDA names (%s)", mapped[0], libcuda)
			}
		})
	}
}

// mappedDrivers lists the distinct files named libcuda.so* mapped into this
// process (libcudart excluded), from /proc/self/maps.
func mappedDrivers(t *testing.T) []string {
	t.Helper()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var files []string
	for line := range strings.Lines(string(maps)) {
		i := strings.IndexByte(line, '/')
		if i < 0 {
			continue
		}
		path := strings.TrimSpace(line[i:])
		if strings.HasPrefix(filepath.Base(path), "libcuda.so") && !seen[path] {
			seen[path] = true
			files = append(files, path)
		}
	}
	return files
}

// TestLibcAsDriver: the C library offered as CUGEN_LIBCUDA opens (it is a
// valid shared object) but is refused at load: it has no
// cuDriverGetVersion. Before, it was accepted and every call said its
// symbol was "introduced in CUDA 2.0; this library is older".
func TestLibcAsDriver(t *testing.T) {
	libc := mappedLibc()
	if libc == "" {
		t.Skip("no libc.so.6 mapped in this process to offer")
	}
	if !isChild(t) {
		runChild(t, "CUGEN_LIBCUDA="+libc, "RELIABILITY_LIBC="+libc)
		return
	}
	libc = os.Getenv("RELIABILITY_LIBC")
	err := cu.SharedLibrary().Load()
	want := "CUGEN_LIBCUDA=" + libc + " is not the CUDA driver library (no cuDriverGetVersion)"
	if !errors.Is(err, ffi.ErrNotLoaded) || !strings.Contains(err.Error(), want) {
		t.Fatalf("libc.so.6 as the driver: Load = %v, want a LoadError containing %q", err, want)
	}
	t.Logf("cu: %v", err)
	if err := cu.Init(0); !errors.Is(err, ffi.ErrNotLoaded) || errors.Is(err, ffi.ErrNoSymbol) {
		t.Errorf("cu.Init with libc as the driver: %v, want the LoadError", err)
	}
	// The runtime needs the driver: it says so, and names the variable.
	_, err = cudart.GetDeviceCount()
	if !errors.Is(err, ffi.ErrNotLoaded) || !strings.Contains(err.Error(), want) {
		t.Errorf("cudart.GetDeviceCount with libc as the driver: %v", err)
	}
}

// mappedLibc returns the path of the libc.so.6 this process has mapped, or "".
func mappedLibc() string {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(maps)) {
		if i := strings.IndexByte(line, '/'); i >= 0 {
			if path := strings.TrimSpace(line[i:]); filepath.Base(path) == "libc.so.6" {
				return path
			}
		}
	}
	return ""
}
