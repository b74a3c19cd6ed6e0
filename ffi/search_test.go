//go:build linux && (amd64 || arm64)

package ffi

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ebitengine/purego"
)

// The search tests build fake installations in a temporary directory: the
// environment is a map, and the fixed system directories (/usr/local/cuda,
// /usr/lib/python3/dist-packages, /usr/lib/wsl/lib, ...) are looked up under
// a fake root, so the host's own CUDA or Python never matter. A library
// "installed" in a fake tree is a symbolic link to the host's libm, which
// every Linux has; the descriptions identify it by cos.

const testSoname = "libcugen-search.so.1" // on no loader path

// fakeSearch is a search over a fake root with the environment env.
func fakeSearch(root string, env map[string]string) searchEnv {
	return searchEnv{getenv: func(k string) string { return env[k] }, root: root, targets: []string{"x86_64-linux"}}
}

// libmPath is the host's libm, found by the loader.
func libmPath(t *testing.T) string {
	t.Helper()
	l := NewLibrary(LibraryDesc{Name: "C math", Files: []string{"libm.so.6"}})
	if err := l.Load(); err != nil || !filepath.IsAbs(l.Path()) {
		t.Skipf("no libm.so.6 to install in a fake tree: %v (%q)", err, l.Path())
	}
	return l.Path()
}

// install puts the library at each path (under base): a link to libm.
func install(t *testing.T, base string, paths ...string) {
	t.Helper()
	libm := libmPath(t)
	for _, p := range paths {
		p = filepath.Join(base, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(libm, p); err != nil {
			t.Fatal(err)
		}
	}
}

// mkdirs creates directories under base.
func mkdirs(t *testing.T, base string, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// runtimeDesc is a runtime-like description: CUDA 12's and 13's wheel
// directories.
func runtimeDesc() *LibraryDesc {
	return &LibraryDesc{Name: "test runtime", EnvVar: "CUGEN_TEST_SEARCH", Files: []string{testSoname}, Identify: "cos",
		Wheels: []string{"nvidia/cuda_runtime/lib", "nvidia/cu13/lib"}}
}

// load runs the search of d in se and returns the path loaded, or the error.
func loadIn(t *testing.T, d *LibraryDesc, se searchEnv) (string, *LoadError) {
	t.Helper()
	r := d.load(se)
	if r.err != nil {
		var le *LoadError
		if !errors.As(r.err, &le) {
			t.Fatalf("load: %T %v, want a *LoadError", r.err, r.err)
		}
		return "", le
	}
	return r.path, nil
}

// TestSearchOrder: with the library in every place, the paths tried come
// in the documented order: the loader's search, CUDA_PATH and CUDA_HOME
// (lib64, targets/ARCH/lib), the description's Dirs, the wheel directories
// of the virtualenv, conda, the user's and the system's site-packages
// (python3.N newest first), $CONDA_PREFIX/lib, /usr/local/cuda/lib64, the
// versioned toolkits newest first (12.10 before 12.9), and WSL's directory
// for the driver.
func TestSearchOrder(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	env := map[string]string{
		"CUDA_PATH":    filepath.Join(base, "cudapath"),
		"CUDA_HOME":    filepath.Join(base, "cudahome"),
		"VIRTUAL_ENV":  filepath.Join(base, "venv"),
		"CONDA_PREFIX": filepath.Join(base, "conda"),
		"HOME":         filepath.Join(base, "home"),
	}
	files := []string{
		"cudapath/lib64", "cudapath/targets/x86_64-linux/lib",
		"cudahome/lib64", "cudahome/targets/x86_64-linux/lib",
		"own",
		"venv/lib/python3.12/site-packages/nvidia/cuda_runtime/lib",
		"venv/lib/python3.12/site-packages/nvidia/cu13/lib",
		"venv/lib/python3.9/site-packages/nvidia/cuda_runtime/lib",
		"conda/lib/python3.11/site-packages/nvidia/cu13/lib",
		"home/.local/lib/python3.10/site-packages/nvidia/cuda_runtime/lib",
		"root/usr/local/lib/python3.12/dist-packages/nvidia/cuda_runtime/lib",
		"root/usr/local/lib/python3.12/site-packages/nvidia/cuda_runtime/lib",
		"root/usr/lib/python3/dist-packages/nvidia/cuda_runtime/lib",
		"root/usr/lib/python3.13/site-packages/nvidia/cuda_runtime/lib",
		"root/usr/lib64/python3.13/site-packages/nvidia/cuda_runtime/lib",
		"conda/lib",
		"root/usr/local/cuda/lib64",
		"root/usr/local/cuda-12.10/targets/x86_64-linux/lib", "root/usr/local/cuda-12.10/lib64",
		"root/usr/local/cuda-12.9/targets/x86_64-linux/lib", "root/usr/local/cuda-12.9/lib64",
		"root/usr/lib/wsl/lib",
	}
	var want []string
	for _, f := range files {
		p := filepath.Join(f, testSoname)
		install(t, base, p)
		want = append(want, filepath.Join(base, p))
	}
	d := runtimeDesc()
	d.Dirs = []string{filepath.Join(base, "own")}
	d.WSL = true
	s := fakeSearch(root, env).find(d)
	want = append([]string{testSoname}, want...)
	if !slices.Equal(s.paths, want) {
		t.Errorf("search order:\n got %s\nwant %s", strings.Join(s.paths, "\n     "), strings.Join(want, "\n     "))
	}
	if p, le := loadIn(t, d, fakeSearch(root, env)); p != want[1] {
		t.Errorf("loaded %q (%v), want the first installed copy %q", p, le, want[1])
	}

	// The override variable, when set, is the only path.
	env["CUGEN_TEST_SEARCH"] = "/elsewhere/libcudart.so.12"
	if s := fakeSearch(root, env).find(d); !slices.Equal(s.paths, []string{"/elsewhere/libcudart.so.12"}) || s.env != "CUGEN_TEST_SEARCH" || len(s.absent) != 0 {
		t.Errorf("with the override set: paths %q, absent %q, env %q", s.paths, s.absent, s.env)
	}
}

// TestSearchWheelOnly: a machine whose only CUDA is a pip wheel (no
// toolkit, nothing on the loader's path) loads the runtime from the wheel,
// in a virtualenv (CUDA 12's nvidia/cuda_runtime/lib), in the user's site
// (CUDA 13's nvidia/cu13/lib) and in the system's dist-packages.
func TestSearchWheelOnly(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  func(base string) map[string]string
		lib  string
	}{
		{"virtualenv", func(b string) map[string]string { return map[string]string{"VIRTUAL_ENV": filepath.Join(b, "venv")} },
			"venv/lib/python3.12/site-packages/nvidia/cuda_runtime/lib"},
		{"virtualenv on PATH", func(b string) map[string]string {
			return map[string]string{"PATH": "relative/bin:" + filepath.Join(b, "empty") + ":" + filepath.Join(b, "venv/bin") + ":/usr/bin"}
		}, "venv/lib/python3.12/site-packages/nvidia/cu13/lib"},
		{"user", func(b string) map[string]string { return map[string]string{"HOME": filepath.Join(b, "home")} },
			"home/.local/lib/python3.11/site-packages/nvidia/cu13/lib"},
		{"PYTHONUSERBASE", func(b string) map[string]string {
			return map[string]string{"HOME": filepath.Join(b, "home"), "PYTHONUSERBASE": filepath.Join(b, "userbase")}
		}, "userbase/lib/python3.11/site-packages/nvidia/cu13/lib"},
		{"system", func(b string) map[string]string { return nil },
			"root/usr/local/lib/python3.11/dist-packages/nvidia/cuda_runtime/lib"},
		{"debian", func(b string) map[string]string { return nil },
			"root/usr/lib/python3/dist-packages/nvidia/cu13/lib"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			want := filepath.Join(base, tc.lib, testSoname)
			install(t, base, filepath.Join(tc.lib, testSoname))
			mkdirs(t, base, "venv/bin", "empty")
			for _, f := range []string{"venv/bin/python3", "venv/pyvenv.cfg"} {
				if err := os.WriteFile(filepath.Join(base, f), nil, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			got, le := loadIn(t, runtimeDesc(), fakeSearch(filepath.Join(base, "root"), tc.env(base)))
			if got != want {
				t.Errorf("loaded %q (%v), want %q", got, le, want)
			}
		})
	}
}

// TestSearchPathPython: a python3 first on PATH that is not a
// virtualenv's (no pyvenv.cfg above its bin) adds no directory, and one
// found later on PATH is not the user's Python and is not looked at.
func TestSearchPathPython(t *testing.T) {
	base := t.TempDir()
	mkdirs(t, base, "usr/bin", "venv/bin")
	for _, f := range []string{"usr/bin/python3", "venv/bin/python3", "venv/pyvenv.cfg"} {
		if err := os.WriteFile(filepath.Join(base, f), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	install(t, base, "venv/lib/python3.12/site-packages/nvidia/cu13/lib/"+testSoname)
	env := map[string]string{"PATH": filepath.Join(base, "usr/bin") + ":" + filepath.Join(base, "venv/bin")}
	_, le := loadIn(t, runtimeDesc(), fakeSearch(filepath.Join(base, "root"), env))
	if le == nil || strings.Contains(le.Error(), filepath.Join(base, "venv")) {
		t.Errorf("a virtualenv behind the system's python3 on PATH was searched: %v", le)
	}
	env["PATH"] = filepath.Join(base, "venv/bin") + ":" + filepath.Join(base, "usr/bin")
	if got, le := loadIn(t, runtimeDesc(), fakeSearch(filepath.Join(base, "root"), env)); got != filepath.Join(base, "venv/lib/python3.12/site-packages/nvidia/cu13/lib", testSoname) {
		t.Errorf("the virtualenv first on PATH: loaded %q (%v)", got, le)
	}
}

// TestSearchConda: in a conda environment the runtime is found in
// $CONDA_PREFIX/lib (conda-forge's cuda-cudart), and a wheel installed in
// the environment's site-packages comes first.
func TestSearchConda(t *testing.T) {
	base := t.TempDir()
	env := map[string]string{"CONDA_PREFIX": filepath.Join(base, "conda")}
	se := fakeSearch(filepath.Join(base, "root"), env)
	install(t, base, "conda/lib/"+testSoname)
	mkdirs(t, base, "conda/lib/python3.12/site-packages")
	if got, le := loadIn(t, runtimeDesc(), se); got != filepath.Join(base, "conda/lib", testSoname) {
		t.Errorf("loaded %q (%v), want conda's lib", got, le)
	}
	install(t, base, "conda/lib/python3.12/site-packages/nvidia/cuda_runtime/lib/"+testSoname)
	if got, le := loadIn(t, runtimeDesc(), se); got != filepath.Join(base, "conda/lib/python3.12/site-packages/nvidia/cuda_runtime/lib", testSoname) {
		t.Errorf("loaded %q (%v), want the wheel in conda's site-packages", got, le)
	}
}

// TestSearchToolkitVersions: of two installed toolkits the newest version
// wins, compared as numbers (12.10 is newer than 12.9, which sorts after it
// as text); /usr/local/cuda, when it has the library, comes first; a
// newest toolkit without the library passes the search on to the next.
func TestSearchToolkitVersions(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	se := fakeSearch(root, nil)
	install(t, root, "usr/local/cuda-12.9/targets/x86_64-linux/lib/"+testSoname, "usr/local/cuda-12.10/lib64/"+testSoname)
	mkdirs(t, root, "usr/local/cuda-12.10/targets/x86_64-linux/lib", "usr/local/cuda-samples", "usr/local/cuda-13.0/targets/x86_64-linux/lib")
	got, le := loadIn(t, runtimeDesc(), se)
	if want := filepath.Join(root, "usr/local/cuda-12.10/lib64", testSoname); got != want {
		t.Errorf("loaded %q (%v), want %q", got, le, want)
	}
	// The 13.0 toolkit's directory exists without the file: said so, not
	// a dlopen error.
	d := runtimeDesc()
	d.Identify = "cuNotInLibm"
	_, le = loadIn(t, d, se)
	if le == nil || !slices.Contains(le.Tried, filepath.Join(root, "usr/local/cuda-13.0/targets/x86_64-linux/lib", testSoname)+": no such file") {
		t.Errorf("error %v does not list the 13.0 toolkit's directory as lacking the file", le)
	}
	install(t, root, "usr/local/cuda/lib64/"+testSoname)
	if got, le := loadIn(t, runtimeDesc(), se); got != filepath.Join(root, "usr/local/cuda/lib64", testSoname) {
		t.Errorf("loaded %q (%v), want /usr/local/cuda/lib64's", got, le)
	}
}

// TestSearchToolkitDirs: a library a toolkit keeps outside lib64
// (libNVVM in nvvm/lib64, LibraryDesc.ToolkitDirs) is found there in
// $CUDA_HOME, /usr/local/cuda and /usr/local/cuda-X.Y, each after the
// toolkit's lib64; a description without ToolkitDirs never looks there
// (before ToolkitDirs nothing did: CUDA 13's libnvvm.so.4 needed
// CUGEN_LIBNVVM).
func TestSearchToolkitDirs(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	home := filepath.Join(base, "home")
	nvvm := func() *LibraryDesc {
		return &LibraryDesc{Name: "test NVVM", Files: []string{testSoname}, Identify: "cos", ToolkitDirs: []string{"nvvm/lib64"}}
	}
	install(t, root, "usr/local/cuda-13.0/nvvm/lib64/"+testSoname)
	if got, le := loadIn(t, nvvm(), fakeSearch(root, nil)); got != filepath.Join(root, "usr/local/cuda-13.0/nvvm/lib64", testSoname) {
		t.Errorf("loaded %q (%v), want cuda-13.0's nvvm/lib64", got, le)
	}
	plain := nvvm()
	plain.ToolkitDirs = nil
	if got, le := loadIn(t, plain, fakeSearch(root, nil)); le == nil || slices.ContainsFunc(le.Tried, func(s string) bool { return strings.Contains(s, "nvvm") }) {
		t.Errorf("without ToolkitDirs: loaded %q, tried %v; want nvvm/lib64 never looked in", got, le)
	}
	install(t, root, "usr/local/cuda/nvvm/lib64/"+testSoname)
	if got, le := loadIn(t, nvvm(), fakeSearch(root, nil)); got != filepath.Join(root, "usr/local/cuda/nvvm/lib64", testSoname) {
		t.Errorf("loaded %q (%v), want /usr/local/cuda's nvvm/lib64", got, le)
	}
	install(t, home, "nvvm/lib64/"+testSoname)
	mkdirs(t, home, "lib64")
	if got, le := loadIn(t, nvvm(), fakeSearch(root, map[string]string{"CUDA_HOME": home})); got != filepath.Join(home, "nvvm/lib64", testSoname) {
		t.Errorf("loaded %q (%v), want $CUDA_HOME's nvvm/lib64", got, le)
	}
}

// TestSearchWSL: the driver is found in WSL's /usr/lib/wsl/lib; a library
// not marked WSL never looks there.
func TestSearchWSL(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	install(t, root, "usr/lib/wsl/lib/"+testSoname)
	driver := &LibraryDesc{Name: "test driver", Files: []string{testSoname}, Identify: "cos", WSL: true}
	if got, le := loadIn(t, driver, fakeSearch(root, nil)); got != filepath.Join(root, "usr/lib/wsl/lib", testSoname) {
		t.Errorf("loaded %q (%v), want WSL's", got, le)
	}
	_, le := loadIn(t, runtimeDesc(), fakeSearch(root, nil))
	if le == nil || strings.Contains(le.Error(), "wsl") {
		t.Errorf("the runtime: %v, want a LoadError not naming WSL's directory", le)
	}
}

// TestSearchDriverAdvice: with no driver anywhere, the driver's load
// error says to install the NVIDIA driver, as doctor does, and that the
// variable names the driver's library file; another library's says to set
// its variable. (Was: "set CUGEN_LIBCUDA to its path" only.)
func TestSearchDriverAdvice(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	driver := &LibraryDesc{Name: "test driver", EnvVar: "CUGEN_TEST_DRIVER", Files: []string{"libcugen-test-nodriver.so.1"}, WSL: true}
	_, le := loadIn(t, driver, fakeSearch(root, nil))
	if le == nil {
		t.Fatal("loaded a driver that is nowhere")
	}
	want := "; install the NVIDIA driver (in a container, run it with the GPU runtime, e.g. docker run --gpus all), or set CUGEN_TEST_DRIVER to the path of the driver's library file"
	if msg := le.Error(); !strings.HasSuffix(msg, want) {
		t.Errorf("driver: %q\ndoes not end with %q", msg, want)
	}
	other := *driver
	other.WSL = false
	if _, le := loadIn(t, &other, fakeSearch(root, nil)); le == nil || !strings.HasSuffix(le.Error(), "; set CUGEN_TEST_DRIVER to its path") {
		t.Errorf("another library: %v, want the advice to set its variable", le)
	}
}

// TestSearchErrorNamesEveryPlace: when nothing loads, the error names
// every place looked in, in order: each file looked for with its reason,
// then each directory that does not exist (a pattern that matched
// nothing, such as python3*, as itself).
func TestSearchErrorNamesEveryPlace(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	env := map[string]string{
		"CUDA_HOME":    filepath.Join(base, "cuda"),
		"VIRTUAL_ENV":  filepath.Join(base, "venv"),
		"CONDA_PREFIX": filepath.Join(base, "conda"),
		"HOME":         filepath.Join(base, "home"),
	}
	mkdirs(t, base,
		"cuda/lib64",
		"venv/lib/python3.12/site-packages/nvidia/cu13/lib",
		"conda/lib",
		"root/usr/lib/python3/dist-packages",
		"root/usr/local/cuda-12.4/lib64",
	)
	// A file that is there but is not the library.
	if err := os.WriteFile(filepath.Join(base, "cuda/lib64", testSoname), []byte("not ELF"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, le := loadIn(t, runtimeDesc(), fakeSearch(root, env))
	if le == nil {
		t.Fatal("loaded a library from an empty tree")
	}
	b := func(p string) string { return filepath.Join(base, p) }
	wantTried := []string{
		testSoname,
		b("cuda/lib64/" + testSoname),
		b("venv/lib/python3.12/site-packages/nvidia/cu13/lib/"+testSoname) + ": no such file",
		b("conda/lib/"+testSoname) + ": no such file",
		b("root/usr/local/cuda-12.4/lib64/"+testSoname) + ": no such file",
	}
	wantAbsent := []string{
		b("cuda/targets/x86_64-linux/lib"),
		b("conda/lib/python3*/site-packages"),
		b("home/.local/lib/python3*/site-packages"),
		b("root/usr/local/lib/python3*/dist-packages"),
		b("root/usr/local/lib/python3*/site-packages"),
		b("root/usr/lib/python3/site-packages"), // python3* matched Debian's python3
		b("root/usr/lib64/python3*/site-packages"),
		b("venv/lib/python3.12/site-packages/nvidia/cuda_runtime/lib"),
		b("root/usr/lib/python3/dist-packages/nvidia/cuda_runtime/lib"),
		b("root/usr/lib/python3/dist-packages/nvidia/cu13/lib"),
		b("root/usr/local/cuda/lib64"),
		b("root/usr/local/cuda-12.4/targets/x86_64-linux/lib"),
	}
	if len(le.Tried) != len(wantTried) {
		t.Fatalf("Tried:\n %s\nwant\n %s", strings.Join(le.Tried, "\n "), strings.Join(wantTried, "\n "))
	}
	for i, w := range wantTried {
		if got := le.Tried[i]; !strings.HasPrefix(got, w) || (!strings.Contains(w, ": ") && !strings.HasPrefix(got, w+": ")) {
			t.Errorf("Tried[%d] = %q, want %q", i, got, w)
		}
	}
	if !slices.Equal(le.Absent, wantAbsent) {
		t.Errorf("Absent:\n %s\nwant\n %s", strings.Join(le.Absent, "\n "), strings.Join(wantAbsent, "\n "))
	}
	msg := le.Error()
	for _, s := range append(append([]string{}, wantTried...), wantAbsent...) {
		s, _, _ = strings.Cut(s, ": ")
		if !strings.Contains(msg, s) {
			t.Errorf("error does not name %s", s)
		}
	}
	if !strings.Contains(msg, "; no such directories: "+strings.Join(wantAbsent, ", ")+"; set CUGEN_TEST_SEARCH to its path") {
		t.Errorf("error %q does not end with the absent directories and the variable", msg)
	}
	t.Log(msg)
}

// TestNewestFirst: versioned directories sort newest first, numerically.
func TestNewestFirst(t *testing.T) {
	for _, tc := range []struct {
		prefix string
		names  []string
		want   []string
	}{
		{"cuda-", []string{"cuda-12.9", "cuda-12.10", "cuda-11.8", "cuda-13.0", "cuda-12", "cuda-samples", "cuda", "cuda-12.x"},
			[]string{"cuda-13.0", "cuda-12.10", "cuda-12.9", "cuda-12.x", "cuda-12", "cuda-11.8"}},
		{"python3", []string{"python3.9", "python3.12", "python3", "python3.10", "python3-config", "python2.7"},
			[]string{"python3.12", "python3.10", "python3.9", "python3"}},
	} {
		dir := t.TempDir()
		mkdirs(t, dir, tc.names...)
		got := newestFirst(dir, tc.prefix)
		for i := range got {
			got[i] = filepath.Base(got[i])
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("newestFirst(%q) = %q, want %q", tc.prefix, got, tc.want)
		}
	}
}

// TestResolvedPathOfLink: a library opened by its soname, a link to a
// versioned file (libcuda.so.1 -> libcuda.so.550.54.15), is reported at
// the file mapped, found by the address of its Identify symbol. Before,
// only a mapped file named like the soname was found, so Path was the bare
// soname (cugen doctor printed "libcuda.so.1").
func TestResolvedPathOfLink(t *testing.T) {
	b, err := os.ReadFile(libmPath(t))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "libcugen-resolve.so.6.2.1")
	if err := os.WriteFile(file, b, 0o755); err != nil {
		t.Fatal(err)
	}
	h, err := dlopen(file, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		t.Fatal(err)
	}
	defer purego.Dlclose(h)
	if got := resolvedPath("libcugen-resolve.so.6", h, "cos"); got != file {
		t.Errorf("resolvedPath = %q, want %q", got, file)
	}
	if got := resolvedPath("libcugen-resolve.so.6", h, ""); got != "libcugen-resolve.so.6" {
		t.Errorf("without a symbol: %q, want the soname", got)
	}
}
