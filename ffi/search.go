//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffi

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// searchEnv is what the search for a library reads: the environment and
// the file system. A process uses hostSearch; tests give a fake
// environment and a root under which the fixed system directories
// (/usr/local/cuda, /usr/lib/python3/dist-packages, /usr/lib/wsl/lib, ...)
// are looked up, so that they build the trees they need in a temporary
// directory.
type searchEnv struct {
	getenv  func(string) string
	root    string   // prefix of every fixed system directory; "" in a process
	targets []string // the toolkit's targets/NAME directories for this machine
	goos    string   // "windows": the Windows search (search_win.go)
}

func hostSearch() searchEnv {
	return searchEnv{getenv: os.Getenv, targets: toolkitTargets(runtime.GOARCH), goos: runtime.GOOS}
}

// toolkitTargets names the CUDA toolkit's targets/ directories of an
// architecture: x86_64-linux; sbsa-linux on an arm64 server, aarch64-linux
// on Jetson.
func toolkitTargets(goarch string) []string {
	if goarch == "arm64" {
		return []string{"sbsa-linux", "aarch64-linux"}
	}
	return []string{"x86_64-linux"}
}

// search is the outcome of looking for a library's files: the paths to
// open, in order, and the directories looked in that do not exist.
type search struct {
	paths  []string        // bare file names (the loader searches) and paths of existing files or of files missing from existing directories
	absent []string        // directories (or patterns that matched nothing) that do not exist
	env    string          // the override variable, when it was set (paths is then its value only)
	seen   map[string]bool // paths added
	looked map[string]bool // directories and patterns looked in
	none   string          // why there is nothing to look for (no Windows build of the library)
}

func (s *search) addPath(p string) {
	if !s.seen[p] {
		s.seen[p] = true
		s.paths = append(s.paths, p)
	}
}

// addDir records dir as a place to look in: the files, if dir exists,
// and dir as absent otherwise.
func (s *search) addDir(dir string, files []string) {
	if s.looked[dir] {
		return
	}
	s.looked[dir] = true
	if !isDir(dir) {
		s.absent = append(s.absent, dir)
		return
	}
	for _, f := range files {
		if !strings.Contains(f, "/") {
			s.addPath(filepath.Join(dir, f))
		}
	}
}

// find lists the places the library of d is looked for, in the documented
// order (see the package doc, "Where the libraries are found").
func (e searchEnv) find(d *LibraryDesc) *search {
	s := &search{seen: map[string]bool{}, looked: map[string]bool{}}
	if d.EnvVar != "" {
		if v := e.getenv(d.EnvVar); v != "" {
			s.paths, s.env = []string{v}, d.EnvVar
			return s
		}
	}
	if e.goos == "windows" {
		e.findWindows(d, s)
		return s
	}
	// 1. The dynamic loader's own search (LD_LIBRARY_PATH, ld.so.cache):
	// what the system administrator configured.
	for _, f := range d.Files {
		s.addPath(f)
	}
	// 2. A toolkit chosen through the environment, then the description's
	// own directories.
	for _, v := range []string{"CUDA_PATH", "CUDA_HOME"} {
		if root := e.getenv(v); root != "" {
			s.addDir(filepath.Join(root, "lib64"), d.Files)
			for _, t := range e.targets {
				s.addDir(filepath.Join(root, "targets", t, "lib"), d.Files)
			}
			e.toolkitDirs(s, d, root)
		}
	}
	for _, dir := range d.Dirs {
		s.addDir(dir, d.Files)
	}
	// 3. Python wheels (pip install nvidia-cuda-runtime-cu12, ...), in the
	// site-packages directories of the active virtualenv, conda, the user
	// and the system, without running Python.
	if len(d.Wheels) > 0 {
		for _, site := range e.siteDirs(s) {
			for _, w := range d.Wheels {
				s.addDir(filepath.Join(site, filepath.FromSlash(w)), d.Files)
			}
		}
	}
	// 4. Conda's own library directory.
	if p := e.getenv("CONDA_PREFIX"); p != "" {
		s.addDir(filepath.Join(p, "lib"), d.Files)
	}
	// 5. The toolkit in its usual places, newest version first.
	local := filepath.Join(e.root, "/usr/local")
	s.addDir(filepath.Join(local, "cuda", "lib64"), d.Files)
	e.toolkitDirs(s, d, filepath.Join(local, "cuda"))
	versions := newestFirst(local, "cuda-")
	if len(versions) == 0 {
		s.absent = append(s.absent, filepath.Join(local, "cuda-*"))
	}
	for _, v := range versions {
		for _, t := range e.targets {
			s.addDir(filepath.Join(v, "targets", t, "lib"), d.Files)
		}
		s.addDir(filepath.Join(v, "lib64"), d.Files)
		e.toolkitDirs(s, d, v)
	}
	// 6. The driver under WSL.
	if d.WSL {
		s.addDir(filepath.Join(e.root, "/usr/lib/wsl/lib"), d.Files)
	}
	return s
}

// toolkitDirs looks in the description's own directories of the toolkit
// at root (LibraryDesc.ToolkitDirs: libNVVM's nvvm/lib64).
func (e searchEnv) toolkitDirs(s *search, d *LibraryDesc, root string) {
	for _, t := range d.ToolkitDirs {
		s.addDir(filepath.Join(root, filepath.FromSlash(t)), d.Files)
	}
}

// siteDirs returns the existing Python site-packages directories, in the
// order searched: the active virtualenv, conda, the user's, the system's.
// A pattern that matched nothing, or a site directory missing under a
// matching python3.N directory, is recorded in s as absent.
func (e searchEnv) siteDirs(s *search) []string {
	var sites []string
	site := func(dir string) {
		if s.looked[dir] {
			return
		}
		s.looked[dir] = true
		if isDir(dir) {
			sites = append(sites, dir)
		} else {
			s.absent = append(s.absent, dir)
		}
	}
	glob := func(base, sub string) {
		pys := newestFirst(base, "python3")
		if len(pys) == 0 {
			if p := filepath.Join(base, "python3*", sub); !s.looked[p] {
				s.looked[p] = true
				s.absent = append(s.absent, p)
			}
		}
		for _, py := range pys {
			site(filepath.Join(py, sub))
		}
	}
	if v := e.getenv("VIRTUAL_ENV"); v != "" {
		glob(filepath.Join(v, "lib"), "site-packages")
	}
	if v := e.pathVenv(); v != "" {
		glob(filepath.Join(v, "lib"), "site-packages")
	}
	if p := e.getenv("CONDA_PREFIX"); p != "" {
		glob(filepath.Join(p, "lib"), "site-packages")
	}
	user := e.getenv("PYTHONUSERBASE")
	if user == "" {
		if home := e.getenv("HOME"); home != "" {
			user = filepath.Join(home, ".local")
		}
	}
	if user != "" {
		glob(filepath.Join(user, "lib"), "site-packages")
	}
	r := e.root
	glob(filepath.Join(r, "/usr/local/lib"), "dist-packages") // Debian, Ubuntu: pip as root
	glob(filepath.Join(r, "/usr/local/lib"), "site-packages")
	site(filepath.Join(r, "/usr/lib/python3/dist-packages")) // Debian's own
	glob(filepath.Join(r, "/usr/lib"), "site-packages")      // Arch, Fedora (noarch)
	glob(filepath.Join(r, "/usr/lib64"), "site-packages")    // Fedora (platform-specific)
	return sites
}

// pathVenv returns the virtualenv whose python3 is the first on PATH (its
// bin directory's parent holds pyvenv.cfg), or "": a container image often
// puts a virtualenv's bin on PATH without setting VIRTUAL_ENV.
func (e searchEnv) pathVenv() string {
	for _, dir := range filepath.SplitList(e.getenv("PATH")) {
		if !filepath.IsAbs(dir) {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, "python3")); err != nil || st.IsDir() {
			continue
		}
		venv := filepath.Dir(dir)
		if st, err := os.Stat(filepath.Join(venv, "pyvenv.cfg")); err == nil && st.Mode().IsRegular() {
			return venv
		}
		return "" // the python3 a user runs is not a virtualenv's
	}
	return ""
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// newestFirst returns the directories in parent whose names are prefix
// followed by a version ("python3", "python3.12"; "cuda-12.4"), newest
// first: versions compare numerically, part by part (12.10 is newer than
// 12.9, 12.4 than 12), a non-numeric part counting as older than any
// number; equal versions sort by name. A name whose rest is not a version
// ("python3-config", "cuda-samples") is not one of them.
func newestFirst(parent, prefix string) []string {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	type dir struct {
		name string
		ver  []int // -1 for a non-numeric part
	}
	var dirs []dir
	for _, ent := range entries {
		rest, ok := strings.CutPrefix(ent.Name(), prefix)
		if !ok || !isDir(filepath.Join(parent, ent.Name())) {
			continue
		}
		if prefix == "python3" {
			if rest != "" && !strings.HasPrefix(rest, ".") {
				continue
			}
			rest = strings.TrimPrefix(rest, ".")
		}
		var ver []int
		if rest != "" {
			for _, part := range strings.Split(rest, ".") {
				n, err := strconv.Atoi(part)
				if err != nil || n < 0 {
					n = -1
				}
				ver = append(ver, n)
			}
		}
		if prefix != "python3" && (len(ver) == 0 || ver[0] < 0) {
			continue
		}
		dirs = append(dirs, dir{ent.Name(), ver})
	}
	slices.SortFunc(dirs, func(a, b dir) int {
		if c := slices.Compare(b.ver, a.ver); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	out := make([]string, len(dirs))
	for i, d := range dirs {
		out[i] = filepath.Join(parent, d.name)
	}
	return out
}

// irregularName says why file name p (no slash), which the loader looks
// for in each directory of LD_LIBRARY_PATH first, must not be handed to
// it: such a directory has an entry of that name that is not a regular
// file (links followed). It is "" when p may be handed to the loader.
// (A path with a slash is checked by LibraryDesc.load's own stat.)
func (e searchEnv) irregularName(p string) string {
	// ld.so splits LD_LIBRARY_PATH at ':' and ';'; an empty entry is the
	// working directory.
	v := e.getenv("LD_LIBRARY_PATH")
	if v == "" {
		return ""
	}
	for _, dir := range strings.Split(strings.ReplaceAll(v, ";", ":"), ":") {
		if dir == "" {
			dir = "."
		}
		f := filepath.Join(dir, p)
		if st, err := os.Stat(f); err == nil && !st.Mode().IsRegular() {
			return "LD_LIBRARY_PATH has " + f + ", " + notRegular(st.Mode())
		}
	}
	return ""
}

// notRegular names the kind of a file that is not a regular one: "a named
// pipe (FIFO), not a library file".
func notRegular(m os.FileMode) string {
	kind := "not a regular file"
	switch {
	case m&os.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case m&os.ModeCharDevice != 0:
		kind = "a character device"
	case m&os.ModeDevice != 0:
		kind = "a block device"
	case m&os.ModeSocket != 0:
		kind = "a socket"
	case m.IsDir():
		kind = "a directory"
	}
	return kind + ", not a library file"
}
