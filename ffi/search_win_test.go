//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffi

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWindowsFiles checks the DLL name derived from every soname the
// generated packages declare, against the names NVIDIA's Windows toolkits
// and wheels use.
func TestWindowsFiles(t *testing.T) {
	for soname, want := range map[string]string{
		"libcuda.so.1":       "nvcuda.dll",
		"libcudart.so.12":    "cudart64_12.dll",
		"libcudart.so.13":    "cudart64_13.dll",
		"libcudart.so.11.0":  "cudart64_110.dll",
		"libnvrtc.so.12":     "nvrtc64_120_0.dll",
		"libnvrtc.so.13":     "nvrtc64_130_0.dll",
		"libnvJitLink.so.12": "nvJitLink_120_0.dll",
		"libnvJitLink.so.13": "nvJitLink_130_0.dll",
		"libcublas.so.12":    "cublas64_12.dll",
		"libcublasLt.so.13":  "cublasLt64_13.dll",
		"libcufft.so.11":     "cufft64_11.dll",
		"libcurand.so.10":    "curand64_10.dll",
		"libcusparse.so.12":  "cusparse64_12.dll",
		"libcusolver.so.11":  "cusolver64_11.dll",
		"libnvidia-ml.so.1":  "nvml.dll",
	} {
		if got := windowsFiles([]string{soname}); !slices.Equal(got, []string{want}) {
			t.Errorf("windowsFiles(%s) = %q, want %q", soname, got, want)
		}
	}
	if got := windowsFiles([]string{"libcuda.so.1", "libcuda.so"}); !slices.Equal(got, []string{"nvcuda.dll"}) {
		t.Errorf("the driver's names = %q, want only nvcuda.dll", got)
	}
	if got := windowsFiles([]string{"libnccl.so.2"}); len(got) != 0 {
		t.Errorf("NCCL (not shipped for Windows) = %q, want none", got)
	}
}

// TestFindWindows builds a fake Windows machine (CUDA 12.4 and 13.0
// toolkits under Program Files, CUDA_PATH at 13.0 with its DLLs in
// bin\x64, a virtualenv with the CUDA 13 wheels, conda) and checks the order
// the runtime of CUDA 13 is looked for in.
func TestFindWindows(t *testing.T) {
	// Not t.TempDir: under wine its cleanup fails to remove the tree
	// ("Invalid function"), which would fail the test.
	root, err := os.MkdirTemp("", "cugen-findwin-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(root)
	pf := filepath.Join(root, "Program Files")
	toolkits := filepath.Join(pf, "NVIDIA GPU Computing Toolkit", "CUDA")
	venv := filepath.Join(root, "venv")
	conda := filepath.Join(root, "conda")
	winMkdirs(t, toolkits, "v12.4/bin", "v13.0/bin/x64")
	winMkdirs(t, venv, "Lib/site-packages/nvidia/cu13/bin/x86_64")
	winMkdirs(t, conda, "Library/bin")
	cudaPath := filepath.Join(toolkits, "v13.0")
	e := searchEnv{getenv: func(k string) string {
		return map[string]string{"CUDA_PATH": cudaPath, "ProgramFiles": pf, "VIRTUAL_ENV": venv, "CONDA_PREFIX": conda}[k]
	}, goos: "windows"}
	d := &LibraryDesc{Name: "CUDA runtime", EnvVar: "CUGEN_LIBCUDART", Files: []string{"libcudart.so.13"}, Wheels: []string{"nvidia/cu13/lib"}}
	s := e.find(d)
	want := []string{
		"cudart64_13.dll",
		filepath.Join(cudaPath, "bin", "x64", "cudart64_13.dll"),
		filepath.Join(cudaPath, "bin", "cudart64_13.dll"),
		filepath.Join(venv, "Lib", "site-packages", "nvidia", "cu13", "bin", "x86_64", "cudart64_13.dll"),
		filepath.Join(venv, "Lib", "site-packages", "nvidia", "cu13", "bin", "cudart64_13.dll"),
		filepath.Join(conda, "Library", "bin", "cudart64_13.dll"),
		filepath.Join(toolkits, "v12.4", "bin", "cudart64_13.dll"),
	}
	if !slices.Equal(s.paths, want) {
		t.Errorf("paths:\n%q\nwant\n%q", s.paths, want)
	}
	for _, dir := range []string{
		filepath.Join(conda, "Lib", "site-packages", "nvidia", "cu13", "bin", "x86_64"),
		filepath.Join(toolkits, "v12.4", "bin", "x64"),
	} {
		if !slices.Contains(s.absent, dir) {
			t.Errorf("absent %q does not name %s", s.absent, dir)
		}
	}

	// The override variable is still the only path tried.
	e.getenv = func(k string) string { return map[string]string{"CUGEN_LIBCUDART": `C:\cuda\cudart64_13.dll`}[k] }
	if s := e.find(d); !slices.Equal(s.paths, []string{`C:\cuda\cudart64_13.dll`}) || s.env != "CUGEN_LIBCUDART" {
		t.Errorf("override: paths %q env %q", s.paths, s.env)
	}

	// The driver: nvcuda.dll by name, then System32 by path.
	sys := filepath.Join(root, "Windows")
	winMkdirs(t, sys, "System32")
	e.getenv = func(k string) string { return map[string]string{"SystemRoot": sys}[k] }
	drv := &LibraryDesc{Name: "CUDA driver", Files: []string{"libcuda.so.1", "libcuda.so"}, WSL: true}
	want = []string{"nvcuda.dll", filepath.Join(sys, "System32", "nvcuda.dll")}
	if s := e.find(drv); !slices.Equal(s.paths, want) {
		t.Errorf("driver paths %q, want %q", s.paths, want)
	}
}

// TestFindWindowsNoBuild: a library NVIDIA does not ship for Windows
// (NCCL) is looked for nowhere, and its LoadError says why.
func TestFindWindowsNoBuild(t *testing.T) {
	e := searchEnv{getenv: func(string) string { return "" }, goos: "windows"}
	d := &LibraryDesc{Name: "NCCL", EnvVar: "CUGEN_LIBNCCL", Files: []string{"libnccl.so.2"}}
	r := d.load(e)
	if r.err == nil {
		t.Fatal("NCCL loaded on a fake Windows")
	}
	if want := "cugen: cannot load NCCL library: tried libnccl.so.2 (NVIDIA ships no Windows build)"; !strings.HasPrefix(r.err.Error(), want) {
		t.Errorf("error %q, want it to start with %q", r.err, want)
	}
}

// winMkdirs creates directories under base (search_test.go's mkdirs, which
// is built on Linux only).
func winMkdirs(t *testing.T, base string, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(base, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}
