package lock

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cugen/cugen/internal/namedpipe"
)

// The cache is read like hostile input (issue 24): checking a digest reads
// the file, so every file Verify, Update and Fetch hash goes through the
// parser's bounded reader (internal/bounded).

func shaErr(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

func sha(t *testing.T, path string) string {
	t.Helper()
	s, err := shaErr(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// within runs f and fails the test if it has not returned after a
// generous ceiling: a regression hangs (a FIFO) or reads without end
// (/dev/zero), and the test must say so rather than hang itself.
func within[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not return within 30 s", what)
		panic("unreachable")
	}
}

// TestVerifyHostileFiles: every way a pinned file in the cache can be
// something other than a regular file of its entry's size inside the
// entry's directory. Was: a FIFO blocked Verify in open(2) forever, a link
// to /dev/zero was hashed forever at 100% CPU, a 1 GiB sparse header was
// read whole, a link out of the directory to a file with the pinned bytes
// verified. Now each is refused, naming the file, at once.
func TestVerifyHostileFiles(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, headers)
	for _, c := range []struct {
		name  string
		plant func(t *testing.T, p string) // replaces cuda.h at p
		msg   string
	}{
		{"fifo", func(t *testing.T, p string) {
			if err := namedpipe.Make(p); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
		}, "not a regular file"},
		{"dev-zero", func(t *testing.T, p string) { symlink(t, "/dev/zero", p) }, "outside its directory"},
		{"proc-pagemap", func(t *testing.T, p string) { symlink(t, "/proc/self/pagemap", p) }, "outside its directory"},
		{"link-out-same-bytes", func(t *testing.T, p string) { symlink(t, filepath.Join(outside, "cuda.h"), p) }, "outside its directory"},
		{"relative-link-out", func(t *testing.T, p string) {
			writeTree(t, filepath.Join(filepath.Dir(p), "../../.."), map[string]string{"cuda.h": headers["cuda.h"]})
			symlink(t, "../../../cuda.h", p)
		}, "outside its directory"},
		{"sparse-1GiB", func(t *testing.T, p string) {
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(p, 1<<30); err != nil {
				t.Fatal(err)
			}
		}, "1073741824 bytes: larger than the 4 MiB a header may have"},
		{"directory", func(t *testing.T, p string) {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "not a regular file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "x", "usr", "include")
			writeTree(t, dir, headers)
			e := &Entry{Kind: KindSet, Name: "12.4", CUDA: "12.4.1", Lock: "headers.lock"}
			if err := Update(e, dir, []string{"cuda.h", "crt/host_defines.h"}); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, "cuda.h")
			os.Remove(p)
			c.plant(t, p)
			err := within(t, "Verify", func() error { return Verify(dir, e) })
			if err == nil || !strings.Contains(err.Error(), p+": ") || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("Verify = %v, want an error naming %s: %s", err, p, c.msg)
			}
			// cugen lock hashes through the same reader.
			err = within(t, "Update", func() error { return Update(e, dir, []string{"cuda.h"}) })
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("Update = %v, want %s", err, c.msg)
			}
		})
	}

	// Links that stay inside the directory are fine (a library package's
	// libx.so.1 -> libx.so.1.2; a toolkit root that is itself a link).
	root := t.TempDir()
	lib := filepath.Join(root, "real", "lib")
	writeTree(t, lib, map[string]string{"libx.so.1.2": "ELF\n"})
	symlink(t, "libx.so.1.2", filepath.Join(lib, "libx.so.1"))
	symlink(t, filepath.Join(root, "real"), filepath.Join(root, "current"))
	e := &Entry{Kind: KindLib, Name: "libx1"}
	via := filepath.Join(root, "current", "lib")
	if err := Update(e, via, []string{"libx.so.1", "libx.so.1.2"}); err != nil {
		t.Fatal(err)
	}
	if err := Verify(via, e); err != nil {
		t.Errorf("Verify with links inside the directory: %v", err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestFetchHostileCache: Fetch over a cache whose extracted header or
// .deb is a FIFO returns at once: the header is extracted again from the
// .deb, the .deb is refused by name.
func TestFetchHostileCache(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	e := fakeDeb(t, cache)
	dir, err := Fetch(ctx, e, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "cuda.h")
	os.Remove(p)
	if err := namedpipe.Make(p); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	fetch := func() error { _, err := Fetch(ctx, e, cache, nil); return err }
	if err := within(t, "Fetch", fetch); err != nil {
		t.Fatalf("Fetch over a FIFO in the cache: %v", err)
	}
	if err := Verify(dir, e); err != nil {
		t.Errorf("after Fetch: %v", err)
	}

	deb := filepath.Join(cache, "debs", DebFileName(e.Deb))
	os.Remove(deb)
	if err := namedpipe.Make(deb); err != nil {
		t.Fatal(err)
	}
	e.Files[1].SHA256 = h1 // not in the cache: Fetch goes to the .deb
	err = within(t, "Fetch", fetch)
	if err == nil || !strings.Contains(err.Error(), deb+": not a regular file") {
		t.Errorf("Fetch with a FIFO as the .deb = %v, want it named, not a regular file", err)
	}
}

// TestFetchTamperedLockOffline: the lock pins another digest for a cached
// file (a tampered lock, or a tampered cache) and the .deb must be fetched
// again, but the Debian archive is unreachable. Was: reported as the
// package "is not in Debian" (apt's answer without its index). Now the
// mismatch comes first, with the file and both digests, then why the fetch
// failed.
func TestFetchTamperedLockOffline(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	e := fakeDeb(t, cache)
	dir, err := Fetch(ctx, e, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(cache, "debs", DebFileName(e.Deb))) // only the extracted set is cached
	got := e.Files[1].SHA256
	e.Files[1].SHA256 = h1 // cuda.h
	t.Setenv("CUGEN_DEBIAN_MIRROR", "http://127.0.0.1:9/debian")
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	err = within(t, "Fetch", func() error { _, err := Fetch(ctx, e, cache, nil); return err })
	t.Log(err)
	var m *MismatchError
	if !errors.As(err, &m) || m.Path != filepath.Join(dir, "cuda.h") || m.Want != h1 || m.Got != got {
		t.Fatalf("Fetch = %v, want a *MismatchError for %s (want %s, got %s)", err, filepath.Join(dir, "cuda.h"), h1, got)
	}
	first, _, _ := strings.Cut(err.Error(), "\n")
	if !strings.Contains(first, "differ from test.lock") {
		t.Errorf("first line %q does not say the cached files differ from the lock", first)
	}
	if strings.Contains(err.Error(), "is not in Debian") {
		t.Errorf("error %q says the package is not in Debian: the archive was not reached", err)
	}
	for _, s := range []string{filepath.Join(dir, "cuda.h"), h1, got} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %s", err, s)
		}
	}
}
