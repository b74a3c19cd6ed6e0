package lock

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/cugen/cugen/internal/bounded"
)

// DefaultCacheDir returns ${CUGEN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cugen},
// or an error naming the variable when that directory could not be put
// into a search path as one entry ([CheckListDir]).
func DefaultCacheDir() (string, error) {
	if d := os.Getenv("CUGEN_CACHE"); d != "" {
		return d, checkCacheVar("CUGEN_CACHE", d)
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "cugen"), checkCacheVar("XDG_CACHE_HOME", d)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cache directory: set CUGEN_CACHE: %w", err)
	}
	if err := checkCacheVar("HOME", home); err != nil {
		return "", err
	}
	return filepath.Join(home, ".cache", "cugen"), nil
}

func checkCacheVar(name, dir string) error {
	if err := CheckListDir(dir); err != nil {
		return fmt.Errorf("cache directory: %s=%q: %w: set CUGEN_CACHE to another directory", name, dir, err)
	}
	return nil
}

// CheckListDir refuses a directory that could not stand as one entry of a
// search path (LD_LIBRARY_PATH, PATH) or be printed as one line: the
// cache's directories are printed into LD_LIBRARY_PATH (cugen libs), and
// a ':' there split it into two directories, the second one the loader
// searched for NVRTC's builtins (issue 37). So, on Unix: ':' and ';'
// (ld.so splits at both), '$' (ld.so expands $ORIGIN, $LIB and $PLATFORM
// there); on Windows ';' (PATH's separator); everywhere, control
// characters (a newline ends a line of cugen libs' output).
func CheckListDir(dir string) error {
	bad := ":;$"
	if runtime.GOOS == "windows" {
		bad = ";" // C:\ is a drive, not a separator
	}
	for _, r := range dir {
		switch {
		case strings.ContainsRune(bad, r):
			return fmt.Errorf("%q in a directory that goes into a search path, which splits or expands there", r)
		case r < 0x20 || r == 0x7f:
			return fmt.Errorf("control character %q in a directory that goes into a search path", r)
		}
	}
	return nil
}

// A FetchedSet is a header set made ready for a parse: its directory and
// those of its headers entries, verified, and what the parse is held to.
type FetchedSet struct {
	Set  *Entry
	Dir  string // the set's own directory
	With []*Entry
	// WithDirs are the directories of With, in order: the parse searches
	// them after Dir.
	WithDirs []string
	// Pinned holds every file of the set and its headers entries: path
	// relative to its directory -> sha256 (parser.Options.Pinned).
	Pinned map[string]string
	// Digest is the set's identity in generated files (Lock.SetDigest).
	Digest string
}

// FetchSetEntry fetches and verifies set e of l and its headers entries:
// a toolkit set is verified in place (ToolkitDir), and so are the toolkit
// headers entries it reads, in the same toolkit (their root: nvvm/include);
// the rest are fetched (Fetch). A file pinned by two of them is an error: the parse could not
// tell which it read.
func (l *Lock) FetchSetEntry(ctx context.Context, e *Entry, cacheDir string, logw io.Writer) (*FetchedSet, error) {
	return l.setEntry(e, func(x *Entry) (string, error) { return Fetch(ctx, x, cacheDir, logw) })
}

// CachedSetEntry is FetchSetEntry without the fetch: set e and its headers
// entries as they are in cacheDir ("": the default), verified, or an
// error naming the first that is not there. It never runs apt-get or
// touches the cache: the tests use it, and make fetches.
func (l *Lock) CachedSetEntry(e *Entry, cacheDir string) (*FetchedSet, error) {
	return l.setEntry(e, func(x *Entry) (string, error) { return Cached(x, cacheDir) })
}

// Cached returns the directory of library or set entry e in cacheDir ("":
// DefaultCacheDir) when it is there and verifies against e, fetching
// nothing; otherwise an error saying why. Tests use it to run on the cached
// headers and Debian libraries, or skip; make fetches.
func Cached(e *Entry, cacheDir string) (string, error) {
	if e.Toolkit() {
		return "", fmt.Errorf("%s: toolkit origin, not in the cache: verify the toolkit's include directory (ToolkitDir, Verify)", e)
	}
	if e.Wheel != nil {
		return "", fmt.Errorf("%s: wheel origin, not in the cache: verify the wheel's include directory (WheelDir, Verify)", e)
	}
	if cacheDir == "" {
		d, err := DefaultCacheDir()
		if err != nil {
			return "", err
		}
		cacheDir = d
	} else if err := CheckListDir(cacheDir); err != nil {
		return "", fmt.Errorf("cache directory %q: %w", cacheDir, err)
	}
	if err := CheckName(e.Name); err != nil {
		return "", fmt.Errorf("%s: %w", e, err)
	}
	out := filepath.Join(cacheDir, kindDir(e.Kind), e.Name, filepath.FromSlash(e.Root))
	if len(e.Files) == 0 {
		return "", fmt.Errorf("%s: no files listed in the lock", e)
	}
	if err := Verify(out, e); err != nil {
		return "", fmt.Errorf("%s not in the cache %s: %w", e, cacheDir, err)
	}
	return out, nil
}

func (l *Lock) setEntry(e *Entry, get func(*Entry) (string, error)) (*FetchedSet, error) {
	with, err := l.With(e)
	if err != nil {
		return nil, err
	}
	fs := &FetchedSet{Set: e, With: with, Pinned: map[string]string{}}
	if fs.Digest, err = l.SetDigest(e); err != nil {
		return nil, err
	}
	home := "" // the toolkit of a toolkit set, which its toolkit headers entries are read from
	for i, x := range append([]*Entry{e}, with...) {
		var dir string
		switch {
		case i == 0 && x.Toolkit():
			home, dir, err = toolkitHome(x.Base()) // a derived set (13.0+cudnn9) is its base's files
		case x.Toolkit():
			dir = filepath.Join(home, filepath.FromSlash(toolkitRoot(x)))
			if err = Verify(dir, x); err != nil {
				err = fmt.Errorf("%s (read by %s): toolkit headers in %s differ from %s:\n%w", x, e, dir, lockName(x.Lock), err)
			}
		case x.Wheel != nil:
			dir, err = WheelDir(x)
		default:
			dir, err = get(x.Base())
		}
		if err != nil {
			return nil, err
		}
		if i == 0 {
			fs.Dir = dir
		} else {
			fs.WithDirs = append(fs.WithDirs, dir)
		}
		for _, f := range x.Files {
			if _, dup := fs.Pinned[f.Path]; dup {
				return nil, fmt.Errorf("%s of %s: %s is pinned twice (by the set and a headers entry, or two headers entries)", e, lockName(e.Lock), f.Path)
			}
			fs.Pinned[f.Path] = f.SHA256
		}
	}
	return fs, nil
}

// ToolkitDir finds the include directory of an installed CUDA toolkit for
// a toolkit set and verifies it against e.
func ToolkitDir(e *Entry) (string, error) {
	_, dir, err := toolkitHome(e)
	return dir, err
}

// toolkitRoot is the toolkit's directory a toolkit entry's files are
// relative to: its root line (nvvm/include), else include.
func toolkitRoot(e *Entry) string {
	if e.Root != "" {
		return e.Root
	}
	return "include"
}

// toolkitHome finds an installed CUDA toolkit for toolkit set e: the first
// of $CUDA_HOME, $CUDA_PATH, /usr/local/cuda-NAME and /usr/local/cuda that
// has an include directory, which must verify against e. It returns the
// toolkit's directory (the toolkit headers entries the set reads are
// under it) and its include directory.
func toolkitHome(e *Entry) (home, dir string, err error) {
	if e.Kind != KindSet {
		return "", "", fmt.Errorf("%s: a toolkit headers entry is read from the toolkit of the set that reads it (a with line)", e)
	}
	var cands []string
	for _, v := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if d := os.Getenv(v); d != "" {
			cands = append(cands, d)
		}
	}
	cands = append(cands, "/usr/local/cuda-"+e.Name, "/usr/local/cuda")
	var looked []string
	for _, h := range cands {
		d := filepath.Join(h, filepath.FromSlash(toolkitRoot(e)))
		looked = append(looked, d)
		if _, err := os.Stat(d); err != nil {
			continue
		}
		if err := Verify(d, e); err != nil {
			return "", "", fmt.Errorf("%s: toolkit headers in %s differ from %s:\n%w", e, d, lockName(e.Lock), err)
		}
		return h, d, nil
	}
	return "", "", fmt.Errorf("%s is pinned to a CUDA %s toolkit install, which is not on this machine (looked in %s; set CUDA_HOME)",
		e, e.CUDA, strings.Join(looked, ", "))
}

// WheelDir finds the include directory of a wheel entry's files, in the
// directory its Home environment variable names (CUDNN_HOME: the
// wheel's nvidia/cudnn under site-packages, or a cuDNN install with an
// include directory), and verifies it against e.
func WheelDir(e *Entry) (string, error) {
	w := e.Wheel
	home := os.Getenv(w.Home)
	if home == "" {
		return "", fmt.Errorf("%s is pinned to the headers of NVIDIA's %s %s wheel, read in place: set %s to the wheel's directory that holds include/ (under site-packages/nvidia/)",
			e, w.Package, w.Version, w.Home)
	}
	d := filepath.Join(home, "include")
	if _, err := os.Stat(d); err != nil {
		return "", fmt.Errorf("%s: %s=%s has no include directory: %w", e, w.Home, home, err)
	}
	if err := Verify(d, e); err != nil {
		return "", fmt.Errorf("%s: headers in %s (%s) differ from %s:\n%w", e, d, w.Home, lockName(e.Lock), err)
	}
	return d, nil
}

// Fetch returns the directory holding e's files, extracted from e's .deb
// into the cache and verified. If the cache already verifies it returns at
// once, without apt or the network. Otherwise it takes the cache's lock,
// downloads the .deb with a private apt source list unless the cache has
// it, checks its sha256, extracts e.Root into a temporary directory,
// verifies every locked file there and renames it into place. cacheDir ""
// means DefaultCacheDir; logw (nil: discarded) receives progress and apt's
// output.
//
// An entry with no files yet, one being added to the lock, is always
// extracted afresh, and if its Deb.SHA256 is empty Fetch fills it in with
// the hash of the .deb, which apt checked against Debian's signed index.
// Then the parser's list of opened files and Update complete the entry.
func Fetch(ctx context.Context, e *Entry, cacheDir string, logw io.Writer) (string, error) {
	if e.Toolkit() {
		return "", fmt.Errorf("%s: toolkit origin, nothing to fetch: verify the toolkit's include directory (ToolkitDir, Verify)", e)
	}
	if e.Wheel != nil {
		return "", fmt.Errorf("%s: wheel origin, nothing to fetch: verify the wheel's include directory (WheelDir, Verify)", e)
	}
	if logw == nil {
		logw = io.Discard
	}
	if cacheDir == "" {
		d, err := DefaultCacheDir()
		if err != nil {
			return "", err
		}
		cacheDir = d
	} else if err := CheckListDir(cacheDir); err != nil {
		return "", fmt.Errorf("cache directory %q: %w", cacheDir, err)
	}
	if err := CheckName(e.Name); err != nil {
		return "", fmt.Errorf("%s: %w", e, err)
	}
	cacheDir, err := filepath.Abs(cacheDir)
	if err != nil {
		return "", err
	}
	kind := filepath.Join(cacheDir, kindDir(e.Kind)) // everything Fetch removes is in here
	dest := filepath.Join(kind, e.Name)
	out := filepath.Join(dest, filepath.FromSlash(e.Root))
	var cached error // why the cached files do not verify
	if len(e.Files) > 0 {
		if cached = Verify(out, e); cached == nil {
			return out, nil
		}
	}

	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return "", err
	}
	unlock, err := lockDir(ctx, filepath.Join(cacheDir, ".lock"), logw)
	if err != nil {
		return "", err
	}
	defer unlock()
	if len(e.Files) > 0 { // fetched while we waited for the lock?
		if cached = Verify(out, e); cached == nil {
			return out, nil
		}
	}
	if err := removeGlob(kind, "."+e.Name+".tmp-*"); err != nil { // left by a crash
		return "", err
	}

	deb, err := debFile(ctx, e, cacheDir, logw)
	if err != nil {
		return "", cacheDiffers(e, out, cached, err)
	}
	// Under the cache's lock, so the name is ours; 0755 (less the umask),
	// like the rest of the cache, so that a cache shared between users works.
	tmp := filepath.Join(kind, fmt.Sprintf(".%s.tmp-%d", e.Name, os.Getpid()))
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return "", err
	}
	defer removeIn(kind, tmp)
	fmt.Fprintf(logw, "cugen: extracting ./%s from %s\n", e.Root, deb)
	if err := extract(ctx, deb, tmp, e.Root); err != nil {
		return "", cacheDiffers(e, out, cached, fmt.Errorf("%s: %w", e, err))
	}
	if err := Verify(filepath.Join(tmp, filepath.FromSlash(e.Root)), e); err != nil {
		return "", fmt.Errorf("%s: files extracted from %s differ from %s:\n%w", e, deb, lockName(e.Lock), err)
	}
	if _, err := os.Lstat(dest); err == nil {
		old := tmp + ".old"
		if err := os.Rename(dest, old); err != nil {
			return "", err
		}
		defer removeIn(kind, old)
	}
	if err := os.Rename(tmp, dest); err != nil {
		return "", err
	}
	fmt.Fprintf(logw, "cugen: %s verified in %s\n", e, out)
	return out, nil
}

// cacheDiffers is the error of a fetch (err) that was to replace cached
// files that did not verify (cached, Verify's error). When some file was
// there but different or refused, that is said first, with each file's
// path and both hashes: a tampered cache or lock must read as one even
// when the fetch then fails for its own reason (the archive unreachable
// reads "not in Debian" to apt).
func cacheDiffers(e *Entry, out string, cached, err error) error {
	var m *MismatchError
	var be *bounded.Error
	if cached == nil || !errors.As(cached, &m) && !errors.As(cached, &be) {
		return err
	}
	return fmt.Errorf("%s: the cached files in %s differ from %s:\n%w\nand fetching them again failed: %w", e, out, lockName(e.Lock), cached, err)
}

func kindDir(k Kind) string {
	switch k {
	case KindLib:
		return "libs"
	case KindHeaders:
		return "extra-headers"
	}
	return "headers"
}

// removeGlob removes the entries of dir whose names match pattern (one
// path element), through removeIn.
func removeGlob(dir, pattern string) error {
	m, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		return err
	}
	for _, p := range m {
		if err := removeIn(dir, p); err != nil {
			return err
		}
	}
	return nil
}

// removeIn removes p and everything under it (a symbolic link is removed,
// never followed), only if p is an entry strictly inside root, a
// directory of cugen's cache: every removal in the cache goes through
// it, so a bad name can never remove the cache itself or anything outside.
func removeIn(root, p string) error {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) ||
		filepath.IsAbs(rel) || !strings.HasPrefix(filepath.Clean(p), filepath.Clean(root)+string(filepath.Separator)) {
		return fmt.Errorf("cugen: refusing to remove %s: not inside the cache directory %s", p, root)
	}
	return os.RemoveAll(p)
}

// DebFileName is the name apt-get download gives d's .deb.
func DebFileName(d *Deb) string {
	return fmt.Sprintf("%s_%s_%s.deb", d.Package, strings.ReplaceAll(d.Version, ":", "%3a"), d.Arch)
}

// debFile returns the path of e's .deb in the cache, downloading it if it
// is not there, after checking its sha256.
func debFile(ctx context.Context, e *Entry, cacheDir string, logw io.Writer) (string, error) {
	d := e.Deb
	debs := filepath.Join(cacheDir, "debs")
	path := filepath.Join(debs, DebFileName(d))
	if sum, err := hashFile(path, debOptions(debs)); err == nil {
		if d.SHA256 == "" {
			d.SHA256 = sum // a new entry: apt checked the .deb when it downloaded it
		}
		if sum != d.SHA256 {
			return "", fmt.Errorf("cached %w; delete it to download it again", &MismatchError{Path: path, Got: sum, Want: d.SHA256, Entry: e.String(), Lock: e.Lock})
		}
		return path, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}

	if err := os.MkdirAll(debs, 0o755); err != nil {
		return "", err
	}
	if err := removeGlob(debs, ".download-*"); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(debs, ".download-")
	if err != nil {
		return "", err
	}
	defer removeIn(debs, tmp)
	a, err := newApt(cacheDir, d)
	if err != nil {
		return "", fmt.Errorf("%s: %w", e, err)
	}
	fmt.Fprintf(logw, "cugen: apt-get update (suite %s from %s, private sources in %s)\n", d.Suite, a.mirror, a.dir)
	updateErr, err := a.run(ctx, "", logw, "update")
	if err != nil {
		return "", fmt.Errorf("%s: apt-get update of Debian %s from %s: %w", e, d.Suite, a.mirror, err)
	}
	size := a.size(ctx, d)
	if size > 0 {
		fmt.Fprintf(logw, "cugen: apt-get download %s=%s (%s): %s into %s\n", d.Package, d.Version, d.Arch, megabytes(size), debs)
	} else {
		fmt.Fprintf(logw, "cugen: apt-get download %s=%s (%s) into %s\n", d.Package, d.Version, d.Arch, debs)
	}
	stop := progress(tmp, d.Package, size, logw)
	stderr, err := a.run(ctx, tmp, logw, "download", d.Package+"="+d.Version)
	stop()
	if err != nil {
		// apt-get update warns and succeeds when the archive cannot be
		// reached; download then finds no package in the empty index.
		if w := fetchFailure(updateErr); w != "" {
			return "", fmt.Errorf("%s: %s=%s (%s) not downloaded: Debian %s at %s could not be read (apt-get update: %s)",
				e, d.Package, d.Version, d.Arch, d.Suite, a.mirror, w)
		}
		if strings.Contains(stderr, "was not found") || strings.Contains(stderr, "Unable to locate package") {
			return "", fmt.Errorf("%s: %s=%s (%s) is not in Debian %s at %s: apt-get download: %s",
				e, d.Package, d.Version, d.Arch, d.Suite, a.mirror, strings.TrimSpace(stderr))
		}
		return "", fmt.Errorf("%s: apt-get download %s=%s (Debian %s from %s): %w", e, d.Package, d.Version, d.Suite, a.mirror, err)
	}
	got, _ := filepath.Glob(filepath.Join(tmp, "*.deb"))
	if len(got) != 1 {
		return "", fmt.Errorf("%s: apt-get download %s=%s left %d .deb files, want 1", e, d.Package, d.Version, len(got))
	}
	sum, err := hashFile(got[0], debOptions(tmp))
	if err != nil {
		return "", err
	}
	if d.SHA256 == "" {
		d.SHA256 = sum // a new entry: apt checked it against Debian's signed index
	}
	if sum != d.SHA256 {
		return "", fmt.Errorf("downloaded %w (from Debian %s at %s)", &MismatchError{Path: got[0], Got: sum, Want: d.SHA256, Entry: e.String(), Lock: e.Lock}, d.Suite, a.mirror)
	}
	if err := os.Rename(got[0], path); err != nil {
		return "", err
	}
	return path, nil
}

// debOptions are the rules for reading a .deb in dir: a regular file in
// it, no larger than bounded.Deb.
func debOptions(dir string) bounded.Options {
	return bounded.Options{Limit: bounded.Deb, What: "a .deb", Root: dir}
}

// fetchFailure returns apt-get update's first line saying an index could
// not be fetched, or "".
func fetchFailure(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "Failed to fetch") || strings.Contains(l, "Could not connect") ||
			strings.Contains(l, "Could not resolve") || strings.Contains(l, "index files failed to download") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// extract writes ./root of the .deb at deb under dir.
func extract(ctx context.Context, deb, dir, root string) error {
	dpkg := exec.CommandContext(ctx, "dpkg-deb", "--fsys-tarfile", deb)
	tar := exec.CommandContext(ctx, "tar", "-x", "--no-same-owner", "-f", "-", "-C", dir, "./"+root)
	var dpkgErr, tarErr bytes.Buffer
	dpkg.Stderr, tar.Stderr = &dpkgErr, &tarErr
	pipe, err := dpkg.StdoutPipe()
	if err != nil {
		return err
	}
	tar.Stdin = pipe
	if err := dpkg.Start(); err != nil {
		return fmt.Errorf("extracting %s: %w (dpkg-deb comes with dpkg)", deb, err)
	}
	if err := tar.Run(); err != nil {
		dpkg.Process.Kill()
		dpkg.Wait()
		return fmt.Errorf("extracting ./%s from %s: tar: %v: %s%s", root, deb, err,
			strings.TrimSpace(tarErr.String()), prefixed(" dpkg-deb: ", dpkgErr.String()))
	}
	if err := dpkg.Wait(); err != nil {
		return fmt.Errorf("extracting ./%s from %s: dpkg-deb: %v: %s", root, deb, err, strings.TrimSpace(dpkgErr.String()))
	}
	return nil
}

func prefixed(p, s string) string {
	if s = strings.TrimSpace(s); s != "" {
		return p + s
	}
	return ""
}

// apt runs apt-get with private state under CACHE/apt: its own source
// list (one suite of the machine's Debian mirror), lists and package cache,
// so the system's apt configuration is read but never changed.
type apt struct {
	dir, mirror string
	opts        []string
}

func newApt(cacheDir string, d *Deb) (*apt, error) {
	if _, err := exec.LookPath("apt-get"); err != nil {
		return nil, fmt.Errorf("fetching %s=%s needs apt-get (a Debian or Ubuntu machine): %w", d.Package, d.Version, err)
	}
	keyring := ""
	for _, k := range []string{"/usr/share/keyrings/debian-archive-keyring.gpg", "/usr/share/keyrings/debian-archive-keyring.pgp"} {
		if _, err := os.Stat(k); err == nil {
			keyring = k
			break
		}
	}
	if keyring == "" {
		return nil, errors.New("no Debian archive keyring in /usr/share/keyrings: apt-get install debian-archive-keyring (make deps)")
	}
	a := &apt{dir: filepath.Join(cacheDir, "apt"), mirror: Mirror()}
	for _, sub := range []string{"sources.list.d", "lists/partial", "cache/archives/partial"} {
		if err := os.MkdirAll(filepath.Join(a.dir, sub), 0o755); err != nil {
			return nil, err
		}
	}
	// main too: CCCL's headers (libcub-dev, libcu++-dev) are free software.
	src := fmt.Sprintf("# Written by cugen (internal/lock) for its private apt state; not a system file.\n"+
		"Types: deb\nURIs: %s\nSuites: %s\nComponents: main non-free contrib\nSigned-By: %s\n", a.mirror, d.Suite, keyring)
	if err := WriteFileAtomic(filepath.Join(a.dir, "sources.list.d", "cugen.sources"), []byte(src), 0o644); err != nil {
		return nil, err
	}
	a.opts = []string{
		"-o", "Dir::Etc::SourceList=/dev/null",
		"-o", "Dir::Etc::SourceParts=" + filepath.Join(a.dir, "sources.list.d"),
		"-o", "Dir::State::Lists=" + filepath.Join(a.dir, "lists"),
		"-o", "Dir::Cache=" + filepath.Join(a.dir, "cache"),
		"-o", "APT::Architecture=" + aptArch(d.Arch),
		"-o", "APT::Architectures=" + aptArch(d.Arch),
		"-o", "Acquire::Languages=none",
	}
	if os.Geteuid() == 0 {
		// apt's _apt user cannot write into a root-owned cache; no sandbox then.
		a.opts = append(a.opts, "-o", "APT::Sandbox::User=root")
	}
	return a, nil
}

// aptArch is the architecture apt is told to index for a package of
// architecture arch: a package of all (headers only, as CCCL's) is in
// every architecture's index, so the machine's own, as dpkg names it.
func aptArch(arch string) string {
	if arch != "all" {
		return arch
	}
	switch runtime.GOARCH {
	case "386":
		return "i386"
	case "arm":
		return "armhf"
	case "ppc64le":
		return "ppc64el"
	}
	return runtime.GOARCH // amd64, arm64, riscv64, s390x
}

// size is the size of d's .deb as the updated index says (apt-cache
// show), 0 if it does not say.
func (a *apt) size(ctx context.Context, d *Deb) int64 {
	cmd := exec.CommandContext(ctx, "apt-cache", append(append([]string{}, a.opts...), "show", "--no-all-versions", d.Package+"="+d.Version)...)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(l, "Size: "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return 0
}

// ProgressEvery is how often a download says how far it is.
var ProgressEvery = 5 * time.Second

// progress prints, every ProgressEvery until stop is called, how much of
// pkg's size bytes (0: unknown) the files in dir hold: apt-get -q shows
// no progress of its own.
func progress(dir, pkg string, size int64, logw io.Writer) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(ProgressEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				var got int64
				filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
					if err == nil && e.Type().IsRegular() {
						if info, err := e.Info(); err == nil {
							got += info.Size()
						}
					}
					return nil
				})
				if size > 0 {
					fmt.Fprintf(logw, "cugen: %s: %s of %s (%d%%)\n", pkg, megabytes(got), megabytes(size), got*100/size)
				} else {
					fmt.Fprintf(logw, "cugen: %s: %s\n", pkg, megabytes(got))
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}

// megabytes writes n bytes in MB, as apt does.
func megabytes(n int64) string {
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// run runs apt-get in dir, copying its output to logw; the error includes
// what apt wrote to stderr, which is also returned.
func (a *apt) run(ctx context.Context, dir string, logw io.Writer, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "apt-get", append(append([]string{"-q"}, a.opts...), args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stdout = logw
	cmd.Stderr = io.MultiWriter(logw, &stderr)
	err := cmd.Run()
	if err != nil {
		err = fmt.Errorf("apt-get %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stderr.String(), err
}

// FallbackMirror is used when the machine's apt sources name no Debian archive.
const FallbackMirror = "http://deb.debian.org/debian"

// Mirror returns the Debian archive to fetch from: $CUGEN_DEBIAN_MIRROR,
// else the first Debian archive (a URI whose path ends in /debian) in the
// machine's apt sources, else FallbackMirror.
func Mirror() string {
	if m := os.Getenv("CUGEN_DEBIAN_MIRROR"); m != "" {
		return m
	}
	files, _ := filepath.Glob("/etc/apt/sources.list.d/*.sources")
	for _, f := range files {
		if m := mirrorIn(f, true); m != "" {
			return m
		}
	}
	files, _ = filepath.Glob("/etc/apt/sources.list.d/*.list")
	for _, f := range append([]string{"/etc/apt/sources.list"}, files...) {
		if m := mirrorIn(f, false); m != "" {
			return m
		}
	}
	return FallbackMirror
}

// mirrorIn returns the first Debian archive URI in an apt sources file,
// deb822 (.sources) or one-line (.list).
func mirrorIn(path string, deb822 bool) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	if deb822 {
		return mirrorIn822(string(data))
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || f[0] != "deb" {
			continue
		}
		f = f[1:]
		if strings.HasPrefix(f[0], "[") { // options: [arch=amd64 signed-by=...]
			for len(f) > 0 && !strings.HasSuffix(f[0], "]") {
				f = f[1:]
			}
			if len(f) > 0 {
				f = f[1:]
			}
		}
		if len(f) > 0 && isDebianArchive(f[0]) {
			return strings.TrimSuffix(f[0], "/")
		}
	}
	return ""
}

func mirrorIn822(text string) string {
	for _, stanza := range strings.Split(text, "\n\n") {
		fields := map[string]string{}
		for _, line := range strings.Split(stanza, "\n") {
			if strings.HasPrefix(line, "#") {
				continue
			}
			k, v, ok := strings.Cut(line, ":")
			if ok && !strings.HasPrefix(k, " ") && !strings.HasPrefix(k, "\t") {
				fields[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
			}
		}
		if strings.EqualFold(fields["enabled"], "no") || !strings.Contains(" "+fields["types"]+" ", " deb ") {
			continue
		}
		for _, u := range strings.Fields(fields["uris"]) {
			if isDebianArchive(u) {
				return strings.TrimSuffix(u, "/")
			}
		}
	}
	return ""
}

func isDebianArchive(uri string) bool {
	return (strings.HasPrefix(uri, "http://") || strings.HasPrefix(uri, "https://")) &&
		strings.HasSuffix(strings.TrimSuffix(uri, "/"), "/debian")
}
