package lock

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeDeb builds a tiny .deb holding headers under usr/include and puts
// it in cache/debs where Fetch looks first, and returns an entry locking
// it and its headers. No apt, no network.
func fakeDeb(t *testing.T, cache string) *Entry {
	t.Helper()
	if _, err := exec.LookPath("dpkg-deb"); err != nil {
		t.Skip("dpkg-deb not installed (Fetch needs it; make deps)")
	}
	root := t.TempDir()
	writeTree(t, filepath.Join(root, "usr/include"), headers)
	writeTree(t, root, map[string]string{
		"usr/share/doc/fake-cuda-dev/copyright": "not extracted\n",
		"DEBIAN/control": "Package: fake-cuda-dev\nVersion: 1:1.0-1\nArchitecture: amd64\n" +
			"Maintainer: cugen <cugen@example.org>\nDescription: headers for cugen's tests\n",
	})
	e := &Entry{Kind: KindSet, Name: "1.0", CUDA: "1.0.0", Root: "usr/include", Lock: "test.lock",
		Deb: &Deb{Package: "fake-cuda-dev", Version: "1:1.0-1", Arch: "amd64", Suite: "nowhere"}}
	deb := filepath.Join(cache, "debs", DebFileName(e.Deb))
	os.MkdirAll(filepath.Dir(deb), 0o755)
	if out, err := exec.Command("dpkg-deb", "-Zgzip", "--root-owner-group", "--build", root, deb).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb --build: %v\n%s", err, out)
	}
	var err error
	if e.Deb.SHA256, err = shaErr(deb); err != nil {
		t.Fatal(err)
	}
	if err := Update(e, filepath.Join(root, "usr/include"), []string{"cuda.h", "crt/host_defines.h"}); err != nil {
		t.Fatal(err)
	}
	return e
}

func TestFetchFromCache(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	e := fakeDeb(t, cache)
	dir, err := Fetch(ctx, e, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(cache, "headers/1.0/usr/include"); dir != want {
		t.Errorf("Fetch = %s, want %s", dir, want)
	}
	if _, err := os.Stat(filepath.Join(cache, "headers/1.0/usr/share")); err == nil {
		t.Error("Fetch extracted more than ./usr/include")
	}

	// A tampered extracted header is replaced from the cached .deb.
	writeTree(t, dir, map[string]string{"cuda.h": "tampered\n"})
	if _, err := Fetch(ctx, e, cache, nil); err != nil {
		t.Fatal(err)
	}
	if err := Verify(dir, e); err != nil {
		t.Errorf("after Fetch: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(cache, "headers/.*")); len(left) != 0 {
		t.Errorf("Fetch left %q", left)
	}

	// Once extracted and verified, Fetch needs neither the .deb nor any tool.
	os.Remove(filepath.Join(cache, "debs", DebFileName(e.Deb)))
	t.Setenv("PATH", "")
	if got, err := Fetch(ctx, e, cache, nil); err != nil || got != dir {
		t.Errorf("Fetch from a verified cache = %q, %v", got, err)
	}
}

func TestFetchTamperedDeb(t *testing.T) {
	cache := t.TempDir()
	e := fakeDeb(t, cache)
	deb := filepath.Join(cache, "debs", DebFileName(e.Deb))
	if !strings.Contains(deb, "fake-cuda-dev_1%3a1.0-1_amd64.deb") {
		t.Errorf("cached .deb named %s, not as apt-get download names it", deb)
	}
	f, _ := os.OpenFile(deb, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("tampered")
	f.Close()
	got := sha(t, deb)

	_, err := Fetch(context.Background(), e, cache, nil)
	var m *MismatchError
	if !errors.As(err, &m) {
		t.Fatalf("Fetch = %v, want a *MismatchError", err)
	}
	for _, s := range []string{deb, got, e.Deb.SHA256, "set 1.0", "test.lock"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %s", err, s)
		}
	}
	if _, err := os.Stat(filepath.Join(cache, "headers/1.0")); err == nil {
		t.Error("Fetch created the set's directory from a bad .deb")
	}
}

// TestFetchBadHeader: the .deb is the locked one but a header in it is
// not: nothing is put in place and the error names the header.
func TestFetchBadHeader(t *testing.T) {
	cache := t.TempDir()
	e := fakeDeb(t, cache)
	got := e.Files[1].SHA256
	e.Files[1].SHA256 = h1
	_, err := Fetch(context.Background(), e, cache, nil)
	if err == nil {
		t.Fatal("Fetch succeeded with a wrong header hash")
	}
	for _, s := range []string{"cuda.h", got, h1, DebFileName(e.Deb)} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %s", err, s)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(cache, "headers/*")); len(left) != 0 {
		t.Errorf("Fetch left %q", left)
	}
	if left, _ := filepath.Glob(filepath.Join(cache, "headers/.*")); len(left) != 0 {
		t.Errorf("Fetch left %q", left)
	}
}

// TestFetchNew: an entry with no files yet is extracted and its .deb hash
// filled in, ready for Update.
func TestFetchNew(t *testing.T) {
	cache := t.TempDir()
	e := fakeDeb(t, cache)
	want := e.Deb.SHA256
	e.Deb.SHA256, e.Files = "", nil
	dir, err := Fetch(context.Background(), e, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.Deb.SHA256 != want {
		t.Errorf("Fetch set the .deb hash to %q, want %q", e.Deb.SHA256, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "crt/host_defines.h")); err != nil {
		t.Error(err)
	}
}

// TestFetchUnknownVersion asks Debian's archive (network) for a version
// that does not exist. It runs apt-get, which only make test's run does
// (CUGEN_TEST_APT=1): other unit test runs leave apt to make.
func TestFetchUnknownVersion(t *testing.T) {
	if os.Getenv("CUGEN_TEST_APT") != "1" {
		t.Skip("runs apt-get against Debian's archive: make test runs it (CUGEN_TEST_APT=1)")
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		t.Skip("apt-get not installed: not a Debian-like machine")
	}
	e := &Entry{Kind: KindSet, Name: "0.0", CUDA: "0.0", Root: "usr/include", Files: []File{{"cuda.h", h1}},
		Deb: &Deb{Package: "nvidia-cuda-dev", Version: "0.0~cugen-no-such-version", Arch: "amd64", Suite: "bookworm", SHA256: h2}}
	_, err := Fetch(context.Background(), e, t.TempDir(), nil)
	if err == nil {
		t.Fatal("Fetch of a version that does not exist succeeded")
	}
	if strings.Contains(err.Error(), "keyring") {
		t.Skip(err)
	}
	for _, s := range []string{"nvidia-cuda-dev", "0.0~cugen-no-such-version", "bookworm", "was not found"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %s", err, s)
		}
	}
}

func TestFetchSetToolkit(t *testing.T) {
	cuda := t.TempDir()
	writeTree(t, filepath.Join(cuda, "include"), headers)
	e := &Entry{Kind: KindSet, Name: "13.0", CUDA: "13.0.0"}
	if err := Update(e, filepath.Join(cuda, "include"), []string{"cuda.h"}); err != nil {
		t.Fatal(err)
	}
	l := &Lock{Entries: []*Entry{e}}
	t.Setenv("CUDA_HOME", cuda)
	t.Setenv("CUDA_PATH", "")
	fs, err := l.FetchSetEntry(context.Background(), e, t.TempDir(), nil)
	if err != nil || fs.Dir != filepath.Join(cuda, "include") {
		t.Fatalf("FetchSetEntry(toolkit) = %+v, %v", fs, err)
	}
	writeTree(t, filepath.Join(cuda, "include"), map[string]string{"cuda.h": "other\n"})
	if _, err := l.FetchSetEntry(context.Background(), e, t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "cuda.h") {
		t.Errorf("FetchSetEntry(tampered toolkit) = %v", err)
	}
	if _, err := Fetch(context.Background(), e, t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "toolkit origin") {
		t.Errorf("Fetch(toolkit entry) = %v", err)
	}
}

// TestFetchSetToolkitHeaders: a toolkit set reads a toolkit headers entry
// (CUDA 13's nvvm.h, in the toolkit's nvvm/include, outside include) from
// the toolkit its include directory verified in: the entry's directory is
// searched after the set's, its files are pinned and verified in place,
// and a different or missing file there fails naming it. The CUDA_HOME of
// another toolkit is never mixed in. Before the root line of toolkit
// entries, no entry could name a file outside include.
func TestFetchSetToolkitHeaders(t *testing.T) {
	cuda := t.TempDir()
	writeTree(t, filepath.Join(cuda, "include"), headers)
	writeTree(t, filepath.Join(cuda, "nvvm/include"), map[string]string{"nvvm.h": "typedef int nvvmResult;\n"})
	set := &Entry{Kind: KindSet, Name: "13.0", CUDA: "13.0.0", With: []string{"cuda-nvvm-13.0"}, Lock: "headers.lock"}
	nvvm := &Entry{Kind: KindHeaders, Name: "cuda-nvvm-13.0", Root: "nvvm/include", Lock: "headers.lock"}
	if err := Update(set, filepath.Join(cuda, "include"), []string{"cuda.h"}); err != nil {
		t.Fatal(err)
	}
	if err := Update(nvvm, filepath.Join(cuda, "nvvm/include"), []string{"nvvm.h"}); err != nil {
		t.Fatal(err)
	}
	// Through the text: the entries parse and format back.
	l, err := Parse(bytes.NewReader((&Lock{Entries: []*Entry{set, nvvm}}).Format()), "headers.lock")
	if err != nil {
		t.Fatal(err)
	}
	set, _ = l.Entry("13.0")
	t.Setenv("CUDA_HOME", cuda)
	t.Setenv("CUDA_PATH", "")
	fs, err := l.FetchSetEntry(context.Background(), set, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if fs.Dir != filepath.Join(cuda, "include") || len(fs.WithDirs) != 1 || fs.WithDirs[0] != filepath.Join(cuda, "nvvm/include") {
		t.Errorf("Dir %s, WithDirs %v; want include and nvvm/include of %s", fs.Dir, fs.WithDirs, cuda)
	}
	if len(fs.Pinned) != 2 || fs.Pinned["nvvm.h"] != nvvm.Files[0].SHA256 {
		t.Errorf("Pinned = %v", fs.Pinned)
	}
	if c, err := l.CachedSetEntry(set, t.TempDir()); err != nil || c.WithDirs[0] != fs.WithDirs[0] {
		t.Errorf("CachedSetEntry = %+v, %v", c, err)
	}
	writeTree(t, filepath.Join(cuda, "nvvm/include"), map[string]string{"nvvm.h": "tampered\n"})
	_, err = l.FetchSetEntry(context.Background(), set, t.TempDir(), nil)
	if err == nil || !strings.Contains(err.Error(), "headers cuda-nvvm-13.0 (read by set 13.0)") || !strings.Contains(err.Error(), filepath.Join(cuda, "nvvm/include/nvvm.h")) {
		t.Errorf("FetchSetEntry(tampered nvvm.h) = %v", err)
	}
	if err := os.RemoveAll(filepath.Join(cuda, "nvvm")); err != nil {
		t.Fatal(err)
	}
	if _, err = l.FetchSetEntry(context.Background(), set, t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "nvvm.h: missing") {
		t.Errorf("FetchSetEntry(no nvvm/include) = %v", err)
	}
	// Alone, a toolkit headers entry has no toolkit to be read from.
	h, _ := l.find(KindHeaders, "cuda-nvvm-13.0")
	if _, err := ToolkitDir(h); err == nil || !strings.Contains(err.Error(), "read from the toolkit of the set") {
		t.Errorf("ToolkitDir(headers entry) = %v", err)
	}
}

// TestFetchBadNameRemovesNothing: a lock entry named ".." (valid hashes)
// once made Fetch rename the whole cache directory aside and delete it.
// The name is refused when the lock is read, and Fetch refuses an entry
// built in memory with such a name; the cache is untouched.
func TestFetchBadNameRemovesNothing(t *testing.T) {
	cache := t.TempDir()
	e := fakeDeb(t, cache)
	keep := filepath.Join(cache, "keep")
	writeTree(t, keep, map[string]string{"precious": "mine\n"})

	var b bytes.Buffer
	lib := *e
	lib.Kind, lib.CUDA, lib.Name = KindLib, "", ".."
	lib.format(&b)
	lockFile := filepath.Join(t.TempDir(), "x.lock")
	if err := os.WriteFile(lockFile, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(lockFile); err == nil || !strings.Contains(err.Error(), `entry name ".."`) {
		t.Errorf("ReadFile(lib ..) = %v, want an entry name error", err)
	}
	for _, name := range []string{"..", ".", "../..", "a/../..", ""} {
		bad := lib
		bad.Name = name
		if _, err := Fetch(context.Background(), &bad, cache, nil); err == nil || !strings.Contains(err.Error(), "entry name") {
			t.Errorf("Fetch(lib %q) = %v, want an entry name error", name, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(keep, "precious")); err != nil || string(b) != "mine\n" {
		t.Errorf("cache file after Fetch: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(cache, "debs", DebFileName(e.Deb))); err != nil {
		t.Errorf("cached .deb: %v", err)
	}
}

// TestRemoveIn: removals in the cache stay strictly inside their root.
func TestRemoveIn(t *testing.T) {
	root := filepath.Join(t.TempDir(), "libs")
	writeTree(t, root, map[string]string{"x/f": "1\n"})
	for _, p := range []string{root, filepath.Dir(root), root + "/..", root + "/x/../..", "/", root + "2"} {
		if err := removeIn(root, p); err == nil {
			t.Errorf("removeIn(%s) = nil, want a refusal", p)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "x/f")); err != nil {
		t.Fatal(err)
	}
	if err := removeIn(root, filepath.Join(root, "x")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "x")); err == nil {
		t.Error("removeIn(root/x) left it")
	}
}

// TestFetchSharedCacheModes: extracted directories get 0755 less the
// umask, like the rest of the cache (they were 0700, from os.MkdirTemp,
// so another user sharing the cache could not read them).
func TestFetchSharedCacheModes(t *testing.T) {
	cache := t.TempDir()
	e := fakeDeb(t, cache)
	dir, err := Fetch(context.Background(), e, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(t.TempDir(), "probe")
	if err := os.Mkdir(probe, 0o755); err != nil { // the umask applied
		t.Fatal(err)
	}
	ps, _ := os.Stat(probe)
	for d := dir; d != filepath.Join(cache, "headers"); d = filepath.Dir(d) {
		st, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != ps.Mode().Perm() {
			t.Errorf("%s: mode %v, want %v", d, st.Mode().Perm(), ps.Mode().Perm())
		}
	}
}

// TestFetchSetEntry: a set and the headers entries it reads are fetched
// (a toolkit set verified in place, a headers entry extracted from its
// .deb), their pins merged and their identity one digest; a file pinned by
// both is refused.
func TestFetchSetEntry(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	h := fakeDeb(t, cache)
	h.Kind, h.Name = KindHeaders, "fake-dev"
	all := h.Files
	h.Files = []File{all[0]} // crt/host_defines.h
	cuda := t.TempDir()
	writeTree(t, filepath.Join(cuda, "include"), headers)
	set := &Entry{Kind: KindSet, Name: "13.0", CUDA: "13.0.0", With: []string{"fake-dev"}}
	if err := Update(set, filepath.Join(cuda, "include"), []string{"cuda.h"}); err != nil {
		t.Fatal(err)
	}
	l := &Lock{Entries: []*Entry{set, h}}
	t.Setenv("CUDA_HOME", cuda)
	t.Setenv("CUDA_PATH", "")
	fs, err := l.FetchSetEntry(ctx, set, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fs.Dir != filepath.Join(cuda, "include") || len(fs.WithDirs) != 1 || fs.WithDirs[0] != filepath.Join(cache, "extra-headers/fake-dev/usr/include") {
		t.Errorf("Dir %s, WithDirs %v", fs.Dir, fs.WithDirs)
	}
	if len(fs.Pinned) != 2 || fs.Pinned["cuda.h"] != set.Files[0].SHA256 || fs.Pinned["crt/host_defines.h"] != h.Files[0].SHA256 {
		t.Errorf("Pinned = %v", fs.Pinned)
	}
	if d, _ := l.SetDigest(set); fs.Digest != d || d == set.Digest() {
		t.Errorf("Digest = %s, want SetDigest %s, not the set's own %s", fs.Digest, d, set.Digest())
	}
	h.Files = all // cuda.h now pinned by both
	if _, err := l.FetchSetEntry(ctx, set, cache, nil); err == nil || !strings.Contains(err.Error(), "cuda.h is pinned twice") {
		t.Errorf("a file pinned twice: %v", err)
	}
}

// TestCachedSetEntry: CachedSetEntry finds what FetchSetEntry put in the
// cache and, before that, fails naming the missing entry without fetching
// it (the tests call it; only make fetches).
func TestCachedSetEntry(t *testing.T) {
	cache := t.TempDir()
	h := fakeDeb(t, cache)
	h.Kind, h.Name = KindHeaders, "fake-dev"
	set := &Entry{Kind: KindSet, Name: "13.0", CUDA: "13.0.0", With: []string{"fake-dev"}}
	cuda := t.TempDir()
	writeTree(t, filepath.Join(cuda, "include"), headers)
	if err := Update(set, filepath.Join(cuda, "include"), []string{"cuda.h"}); err != nil {
		t.Fatal(err)
	}
	h.Files = h.Files[:1]
	l := &Lock{Entries: []*Entry{set, h}}
	t.Setenv("CUDA_HOME", cuda)
	t.Setenv("CUDA_PATH", "")
	if fs, err := l.CachedSetEntry(set, cache); err == nil || !strings.Contains(err.Error(), "headers fake-dev not in the cache") {
		t.Fatalf("CachedSetEntry before the fetch = %+v, %v; want fake-dev not in the cache", fs, err)
	}
	if _, err := os.Stat(filepath.Join(cache, "extra-headers")); !os.IsNotExist(err) {
		t.Errorf("CachedSetEntry wrote into the cache: %v", err)
	}
	want, err := l.FetchSetEntry(context.Background(), set, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := l.CachedSetEntry(set, cache)
	if err != nil || got.Dir != want.Dir || strings.Join(got.WithDirs, ",") != strings.Join(want.WithDirs, ",") || got.Digest != want.Digest {
		t.Errorf("CachedSetEntry after the fetch = %+v, %v; want %+v", got, err, want)
	}
}

// TestCached: Cached finds an entry only once it is in the cache and
// verifies, fetching nothing: before Fetch it is an error (and nothing is
// extracted), after Fetch the directory Fetch gave, and a tampered file is
// an error naming it, the cache left as it is.
func TestCached(t *testing.T) {
	cache := t.TempDir()
	e := fakeDeb(t, cache)
	if dir, err := Cached(e, cache); err == nil {
		t.Fatalf("Cached before Fetch = %s", dir)
	}
	if _, err := os.Stat(filepath.Join(cache, "headers")); err == nil {
		t.Error("Cached extracted the .deb")
	}
	want, err := Fetch(context.Background(), e, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	if dir, err := Cached(e, cache); err != nil || dir != want {
		t.Errorf("Cached after Fetch = %q, %v; want %s", dir, err, want)
	}
	writeTree(t, want, map[string]string{"cuda.h": "tampered\n"})
	if _, err := Cached(e, cache); err == nil || !strings.Contains(err.Error(), "cuda.h") {
		t.Errorf("Cached of a tampered file: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(want, "cuda.h")); string(b) != "tampered\n" {
		t.Error("Cached repaired the cache: it must fetch nothing")
	}
	if _, err := Cached(&Entry{Kind: KindLib, Name: "..", Files: e.Files}, cache); err == nil {
		t.Error("Cached accepted the entry name ..")
	}
}

// TestProgress: a download says how much of the package's size has
// arrived, as it arrives (apt-get -q shows nothing until it is done).
func TestProgress(t *testing.T) {
	defer func(d time.Duration) { ProgressEvery = d }(ProgressEvery)
	ProgressEvery = 10 * time.Millisecond
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.deb"), make([]byte, 500_000), 0o644); err != nil {
		t.Fatal(err)
	}
	var b syncBuffer
	stop := progress(dir, "nvidia-cuda-dev", 1_000_000, &b)
	time.Sleep(100 * time.Millisecond)
	stop()
	if got := b.String(); !strings.Contains(got, "cugen: nvidia-cuda-dev: 0.5 MB of 1.0 MB (50%)\n") {
		t.Errorf("progress printed %q", got)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
