package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLayerBadOutput: cugen layer into a module whose copy holds a
// hand-written file at a generated name exits 1 naming it and changes
// nothing (it was overwritten, exit 0); a link planted as a temporary
// name beside a generated file is never written through (the copy went to
// the link's target and the file became a link). The layer goes through
// the writer of cugen gen (internal/genfiles).
func TestLayerBadOutput(t *testing.T) {
	scratch := func(t *testing.T) string {
		root := t.TempDir()
		src := filepath.Join(root, "layer")
		os.MkdirAll(src, 0o755)
		if err := os.WriteFile(filepath.Join(src, "memory.go"), []byte("package cuda\n\nvar M = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := cugen(t, "layer", "-root", root); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		os.WriteFile(filepath.Join(src, "memory.go"), []byte("package cuda\n\nvar M = 2\n"), 0o644)
		return root
	}
	t.Run("hand-written", func(t *testing.T) {
		root := scratch(t)
		p := filepath.Join(root, "generated", "cuda12", "cuda", "memory.go")
		mine := "package cuda\n\n// Mine.\nvar M = 3\n"
		os.WriteFile(p, []byte(mine), 0o644)
		code, _, stderr := cugen(t, "layer", "-root", root)
		if code != 1 || !strings.Contains(stderr, p) {
			t.Errorf("exit %d, stderr %q; want 1 and %s", code, stderr, p)
		}
		if b, err := os.ReadFile(p); err != nil || string(b) != mine {
			t.Errorf("%s: %q, %v; want it untouched", p, b, err)
		}
	})
	t.Run("planted-link", func(t *testing.T) {
		root := scratch(t)
		victim := filepath.Join(t.TempDir(), "victim")
		os.WriteFile(victim, []byte("precious\n"), 0o644)
		dir := filepath.Join(root, "generated", "cuda12", "cuda")
		if err := os.Symlink(victim, filepath.Join(dir, "memory.go.tmp")); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := cugen(t, "layer", "-root", root); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if b, err := os.ReadFile(victim); err != nil || string(b) != "precious\n" {
			t.Errorf("the link's target: %q, %v; want it untouched", b, err)
		}
		if st, err := os.Lstat(filepath.Join(dir, "memory.go")); err != nil || !st.Mode().IsRegular() {
			t.Errorf("memory.go: %v, %v; want a regular file", st, err)
		}
		if code, stdout, stderr := cugen(t, "layer", "-root", root, "-check"); code != 0 {
			t.Errorf("layer -check: exit %d: %s%s", code, stdout, stderr)
		}
	})
}
