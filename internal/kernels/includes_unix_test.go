//go:build unix

package kernels

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An #include of a FIFO, by -I or by absolute path, is refused by name
// before NVRTC runs (before: NVRTC's open of the FIFO blocked for good).
// NVRTC is needed only to show the old hang: the refusal comes first.
func TestIncludeFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "inc", "fifo.h")
	if err := os.MkdirAll(filepath.Dir(fifo), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	for _, inc := range []string{`"fifo.h"`, `"` + fifo + `"`, `<fifo.h>`} {
		src := filepath.Join(dir, "k.cu")
		text := "#include " + inc + "\nextern \"C\" __global__ void k(int x) {}\n"
		if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := Generate(Options{Src: src, Archs: []int{90}, Includes: []string{filepath.Join(dir, "inc")}, Out: filepath.Join(dir, "out")})
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil && strings.Contains(err.Error(), "NVRTC not found") {
				t.Skip(err)
			}
			want := "k.cu:1: #include " + inc + " (" + fifo + "): not a regular file"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("#include %s: err = %v\nwant %q", inc, err, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("#include %s of a FIFO: still waiting after 30s", inc)
		}
	}
}
