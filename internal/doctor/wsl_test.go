//go:build linux && (amd64 || arm64)

package doctor

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cugen/cugen/ffi"
)

// wslStandIn builds the stand-in driver (driver_test.go's fakeDriver, its
// answers chosen by defines) at root/rel.
func wslStandIn(t *testing.T, root, rel string, defines map[string]string) string {
	t.Helper()
	def := map[string]string{"VERSION": "12060", "INIT": "0", "COUNT": "1", "NAME": `"WSL GPU %d"`}
	for k, v := range defines {
		def[k] = v
	}
	src := ""
	for k, v := range def {
		src += "#define " + k + " " + v + "\n"
	}
	path := filepath.Join(root, rel)
	standIn(t, path, src+fakeDriver)
	return path
}

// TestWSLAdvice: cugen doctor on a WSL 2 system laid out under
// Options.Root. It says how it detected WSL (WSL_DISTRO_NAME,
// /proc/version naming Microsoft's kernel) and that the driver is
// Windows' /usr/lib/wsl/lib/libcuda.so.1; with that file there it loads
// it and is content. With none, the advice is WSL's (the driver comes
// from Windows), not to install a Linux driver. A Linux driver's
// libcuda.so.1 found first (here in /usr/local/cuda/lib64; commonly
// /usr/lib/x86_64-linux-gnu), which fails cuInit under WSL, is an error
// naming both files and the fix; following the advice (CUGEN_LIBCUDA set
// to WSL's file) makes doctor content, as does a link to WSL's file found
// first. On a system that is not WSL the
// advice names no WSL. Before, doctor said nothing of WSL.
func TestWSLAdvice(t *testing.T) {
	if ffi.NewLibrary(ffi.LibraryDesc{Name: "probe", Files: []string{"libcuda.so.1"}}).Load() == nil {
		t.Skip("the dynamic loader finds a libcuda.so.1 of this machine's, which comes first in the search")
	}
	q := regexp.QuoteMeta
	opts := func(root string) Options { return Options{Majors: []int{12}, Libs: []string{"driver"}, Root: root} }
	// wslRoot isolates a subtest, sets WSL_DISTRO_NAME to distro, and
	// returns the root of its system.
	wslRoot := func(t *testing.T, distro string) string {
		isolate(t)
		t.Setenv("WSL_DISTRO_NAME", distro)
		return t.TempDir()
	}
	// content checks doctor's report of a working WSL driver: the
	// stand-in's device, no problems.
	content := func(t *testing.T, rep Report, lines []string) {
		t.Helper()
		hasLine(t, lines, q("driver: device 0: WSL GPU 0"))
		hasLine(t, lines, q("ok: no problems found"))
		if rep.Errors != 0 {
			t.Errorf("Errors = %d, want 0", rep.Errors)
		}
	}

	t.Run("wsl", func(t *testing.T) {
		root := wslRoot(t, "Ubuntu-24.04")
		lib := wslStandIn(t, root, "usr/lib/wsl/lib/libcuda.so.1", nil)
		rep, lines := doctor(t, opts(root))
		hasLine(t, lines, q("driver: WSL (WSL_DISTRO_NAME=Ubuntu-24.04): the driver is Windows' "+lib))
		hasLine(t, lines, q("driver: CUDA driver: "+lib))
		hasLine(t, lines, q("driver: version: CUDA 12.6 (cuDriverGetVersion)"))
		content(t, rep, lines)
	})

	t.Run("missing", func(t *testing.T) {
		root := wslRoot(t, "")
		mkfile(t, filepath.Join(root, "proc/version"), "Linux version 5.15.167.4-microsoft-standard-WSL2 (root@f9c826d3017f) (gcc (GCC) 11.2.0) #1 SMP\n")
		rep, lines := doctor(t, opts(root))
		lib := filepath.Join(root, "usr/lib/wsl/lib/libcuda.so.1")
		hasLine(t, lines, q(`driver: WSL (/proc/version: Linux version 5.15.167.4-microsoft-standard-WSL2`)+`.*\): the driver is Windows' `+q(lib))
		hasLine(t, lines, q("error: driver: no CUDA driver: on WSL it is Windows' "+lib+", which is missing: install or update the NVIDIA driver on Windows (not a Linux driver in the distribution), then restart WSL (wsl --shutdown); WSL 1 has no GPU (wsl --set-version DISTRO 2); in a container, run it with --gpus all"))
		if rep.Errors != 1 {
			t.Errorf("Errors = %d, want 1", rep.Errors)
		}
	})

	t.Run("shadowed", func(t *testing.T) {
		root := wslRoot(t, "Ubuntu")
		wsl := wslStandIn(t, root, "usr/lib/wsl/lib/libcuda.so.1", nil)
		linux := wslStandIn(t, root, "usr/local/cuda/lib64/libcuda.so.1", map[string]string{"INIT": "100", "VERSION": "12040", "NAME": `"Linux driver %d"`})
		rep, lines := doctor(t, opts(root))
		hasLine(t, lines, q("driver: CUDA driver: "+linux))
		hasLine(t, lines, q("error: driver: "+linux+" loaded, not Windows' "+wsl+": a Linux NVIDIA driver that shadows WSL's cannot reach the GPU (there is no /dev/nvidia* under WSL): remove the Linux driver package from the distribution (NVIDIA: install no Linux display driver in WSL), or set CUGEN_LIBCUDA="+wsl))
		hasLine(t, lines, `error: driver: no CUDA device: cuInit failed: CUDA_ERROR_NO_DEVICE .*`)
		if rep.Errors != 2 {
			t.Errorf("Errors = %d, want 2 (the Linux driver, no device)", rep.Errors)
		}

		// The advice followed: WSL's driver, named by CUGEN_LIBCUDA.
		t.Setenv("CUGEN_LIBCUDA", wsl)
		rep, lines = doctor(t, opts(root))
		hasLine(t, lines, q("driver: CUDA driver: "+wsl+" (from CUGEN_LIBCUDA)"))
		hasLine(t, lines, q("driver: device 0: WSL GPU 0"))
		hasLine(t, lines, q("ok: no problems found"))
		if rep.Errors != 0 {
			t.Errorf("with CUGEN_LIBCUDA: Errors = %d, want 0", rep.Errors)
		}
	})

	// A link to WSL's driver from elsewhere is WSL's driver.
	t.Run("linked", func(t *testing.T) {
		root := wslRoot(t, "Ubuntu")
		wsl := wslStandIn(t, root, "usr/lib/wsl/lib/libcuda.so.1", nil)
		link := filepath.Join(root, "usr/local/cuda/lib64/libcuda.so.1")
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(wsl, link); err != nil {
			t.Fatal(err)
		}
		rep, lines := doctor(t, opts(root))
		content(t, rep, lines)
	})

	t.Run("notWSL", func(t *testing.T) {
		root := wslRoot(t, "")
		mkfile(t, filepath.Join(root, "proc/version"), "Linux version 6.1.0-27-amd64 (debian-kernel@lists.debian.org)\n")
		rep, lines := doctor(t, opts(root))
		hasLine(t, lines, q("error: driver: libcuda.so.1 or libcuda.so not found: install the NVIDIA driver")+".*")
		for _, l := range lines {
			if strings.Contains(l, "WSL (") || strings.Contains(l, "on WSL") || strings.Contains(l, "Windows") {
				t.Errorf("not WSL, yet: %s", l)
			}
		}
		if rep.Errors != 1 {
			t.Errorf("Errors = %d, want 1", rep.Errors)
		}
	})
}

func mkfile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
