package cugen

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestEmbedded: what the command carries is this checkout's headers.lock
// and every Go file of cuda/ and of its subpackages (cuda/*/), byte for
// byte (go:embed reads them at build time; this test says so where make
// check runs).
func TestEmbedded(t *testing.T) {
	disk, err := os.ReadFile("headers.lock")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(HeadersLock, disk) {
		t.Errorf("the embedded headers.lock (%d bytes) differs from headers.lock (%d bytes)", len(HeadersLock), len(disk))
	}
	files, err := filepath.Glob("cuda/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("cuda/*.go: %v, %v", files, err)
	}
	subs, err := filepath.Glob("cuda/*/*.go")
	if err != nil || len(subs) == 0 {
		t.Fatalf("cuda/*/*.go: %v, %v", subs, err)
	}
	files = append(files, subs...)
	embedded, _ := fs.Glob(Layer, "cuda/*.go")
	embeddedSubs, _ := fs.Glob(Layer, "cuda/*/*.go")
	embedded = append(embedded, embeddedSubs...)
	if len(embedded) != len(files) {
		t.Errorf("embedded layer files %q, cuda/ has %q", embedded, files)
	}
	for _, f := range files {
		b, err := fs.ReadFile(Layer, filepath.ToSlash(f))
		d, _ := os.ReadFile(f)
		if err != nil || !bytes.Equal(b, d) {
			t.Errorf("embedded %s differs from the file (%v)", f, err)
		}
	}
}
