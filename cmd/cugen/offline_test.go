package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cugen/cugen/internal/testset"
)

// TestGenSetOffline: the README's go:generate line, gen -set 12.4 -lib
// cu,cudart,nvrtc -out cuda in a module of its own, runs with no network
// (unshare -n) and an empty cache (HOME, XDG_CACHE_HOME and CUGEN_CACHE
// in an empty directory), in at most 5 s of CPU (and of wall clock where
// the machine is not busy with other work), writes nothing outside the
// module, and emits cu, cudart and nvrtc byte for byte as the committed
// generated/cuda12 has them (but for the command line each file records).
// Where set 12.4's headers are cached it also emits exactly what fetching
// and parsing them emits (gen -parse). Before: it fetched 1.15 GB of
// Debian packages and parsed every header (1 min 32 s cold).
func TestGenSetOffline(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("unshare -n is Linux's")
	}
	if out, err := exec.Command("unshare", "-n", "true").CombinedOutput(); err != nil {
		t.Skipf("unshare -n true: %v %s: this machine cannot run a command without network (unshare needs root or user namespaces)", err, out)
	}
	checkout, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	offline := func(t *testing.T, mod, module string, args ...string) (stdout string, cpu, wall time.Duration) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module "+module+"\n\ngo 1.26\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		home := t.TempDir()
		cmd := exec.Command("unshare", append([]string{"-n", os.Args[0]}, args...)...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "CUGEN_TEST_AS_CUGEN=1", "HOME="+home, "XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "CUGEN_CACHE="+filepath.Join(home, "cugen"))
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		start := time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatalf("unshare -n cugen %s: %v\n%s%s", strings.Join(args, " "), err, o.String(), e.String())
		}
		wall = time.Since(start)
		cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				t.Errorf("cugen %s wrote %s in the empty cache", strings.Join(args, " "), p)
			}
			return nil
		})
		return o.String(), cpu, wall
	}

	mod := t.TempDir()
	_, cpu, wall := offline(t, mod, "example.com/m", "gen", "-set", "12.4", "-lib", "cu,cudart,nvrtc", "-out", "cuda")
	t.Logf("gen -set 12.4 -lib cu,cudart,nvrtc offline: %.2f s wall, %.2f s CPU", wall.Seconds(), cpu.Seconds())
	if cpu > 5*time.Second {
		t.Errorf("gen -set 12.4 -lib cu,cudart,nvrtc offline took %.2f s of CPU, want at most 5", cpu.Seconds())
	}
	if wall > 5*time.Second && !busy() {
		t.Errorf("gen -set 12.4 -lib cu,cudart,nvrtc offline took %.2f s, want at most 5", wall.Seconds())
	}
	for _, p := range []string{"cu", "cudart", "nvrtc", "cuda"} {
		if _, err := os.Stat(filepath.Join(mod, "cuda", p, "doc.go")); err != nil {
			t.Errorf("no package %s: %v", p, err)
		}
	}

	// As committed: generated/cuda12's packages, from the same IR.
	self := t.TempDir()
	out := filepath.Join("generated", "cuda12")
	offline(t, self, "github.com/cugen/cugen", "gen", "-set", "12.4", "-lib", "cu,cudart,nvrtc", "-layer=false", "-out", out)
	for _, p := range []string{"cu", "cudart", "nvrtc"} {
		sameFiles(t, filepath.Join(checkout, out, p), filepath.Join(self, out, p), func(b []byte) []byte {
			return bytes.ReplaceAll(b, []byte("cugen gen -set 12.4 -lib cu,cudart,nvrtc -out generated/cuda12"), []byte("cugen gen -set 12.4 -out generated/cuda12"))
		})
	}

	// As fetching and parsing the headers writes them.
	testset.Set(t, "12.4")
	parsed := t.TempDir()
	os.WriteFile(filepath.Join(parsed, "go.mod"), []byte("module example.com/m\n\ngo 1.26\n"), 0o644)
	t.Chdir(parsed)
	if code, stdout, stderr := cugen(t, "gen", "-parse", "-set", "12.4", "-lib", "cu,cudart,nvrtc", "-out", "cuda"); code != 0 {
		t.Fatalf("gen -parse: exit %d\n%s%s", code, stdout, stderr)
	}
	sameFiles(t, filepath.Join(parsed, "cuda"), filepath.Join(mod, "cuda"), nil)
}

// sameFiles fails unless the trees want and got hold the same files with
// the same bytes (edit, if not nil, applied to got's).
func sameFiles(t *testing.T, want, got string, edit func([]byte) []byte) {
	t.Helper()
	files := func(root string) map[string][]byte {
		m := map[string][]byte{}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				t.Error(err)
				return nil
			}
			if r, _ := filepath.Rel(root, p); !d.IsDir() && r != ".cugen.lock" {
				m[r], _ = os.ReadFile(p)
			}
			return nil
		})
		return m
	}
	w, g := files(want), files(got)
	for name, b := range w {
		gb, ok := g[name]
		if edit != nil {
			gb = edit(gb)
		}
		switch {
		case !ok:
			t.Errorf("%s: no %s", got, name)
		case !bytes.Equal(b, gb):
			t.Errorf("%s: %s differs from %s's", got, name, want)
		}
	}
	for name := range g {
		if _, ok := w[name]; !ok {
			t.Errorf("%s: extra %s", got, name)
		}
	}
}

// busy says whether the machine runs more than it has CPUs for (the load
// average of the last minute), when a wall-clock bound measures the
// other work.
func busy() bool {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return false
	}
	load, err := strconv.ParseFloat(f[0], 64)
	return err == nil && load >= float64(runtime.NumCPU())
}
