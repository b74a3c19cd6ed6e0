//go:build linux

package genfiles

import (
	"bufio"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// nestedSet is what cugen gen writes with the layer: packages cu and cuda
// in out, and the subpackages blas and fft nested in cuda, a set of their
// own. File names change between versions, so a run writes new names and
// removes old ones at both levels.
func nestedSet(version string) (outer, inner []Dir) {
	pkg := func(name string, files ...string) Dir {
		p := testPkg(version, append(files, "only_"+version+".go")...)
		p.Name = name
		return p.dir()
	}
	outer = []Dir{pkg("cu", "doc.go", "funcs.go"), pkg("cuda", "doc.go", "buffer.go")}
	inner = []Dir{pkg("blas", "blas.go"), pkg("fft", "fft.go")}
	return outer, inner
}

// writeNested writes nestedSet(version) into out as cugen gen does: the
// outer set, then the nested one, under out's lock.
func writeNested(out, version string) error {
	outer, inner := nestedSet(version)
	l, err := Lock(out, nil)
	if err != nil {
		return err
	}
	defer l.Unlock()
	if err := l.WriteSet("", outer); err != nil {
		return err
	}
	return l.WriteSet("cuda", inner)
}

// nestedUsers are the user's entries kept at both levels.
var nestedUsers = map[string]string{
	"cuda/mine.go":         "package cuda\n",
	"cuda/blas/helpers.go": "package blas\n",
}

// nestedVersion returns the version of nestedSet that out holds, or ""
// after reporting what is wrong: every package of one version (outer and
// nested), the user's entries, no work directory at either level.
func nestedVersion(t *testing.T, out string) string {
	t.Helper()
	got := tree(t, out)
	for k := range got {
		if filepath.Base(k) == LockFile {
			delete(got, k)
		}
	}
	for _, dir := range []string{out, filepath.Join(out, "cuda"), filepath.Join(out, "cuda", "blas")} {
		if work := workEntries(t, dir); len(work) > 0 {
			t.Errorf("%s: work entries left: %v", dir, work)
			return ""
		}
	}
	for _, v := range []string{"v1", "v2"} {
		w := maps.Clone(nestedUsers)
		outer, inner := nestedSet(v)
		for _, set := range []struct {
			prefix string
			dirs   []Dir
		}{{"", outer}, {"cuda/", inner}} {
			for _, d := range set.dirs {
				w[set.prefix+d.Name] = "<dir>"
				for _, f := range d.Files {
					w[set.prefix+d.Name+"/"+f.Name] = string(f.Bytes)
				}
			}
		}
		if reflect.DeepEqual(got, w) {
			return v
		}
	}
	t.Errorf("%s holds no whole set (outer and nested of one version): %v", out, slices.Sorted(maps.Keys(got)))
	return ""
}

// TestWriteNestedConcurrent: 50 rounds, each with a writer of nested sets
// killed with SIGKILL at a random moment (a child process: the test binary
// looping writeNested), then five writers at once: four goroutines of this
// process and a child process, of both versions. Every writer succeeds and
// out ends with one whole set, outer and nested of one version, with the
// user's entries and no work directory. Was (issue 37): the nested set
// written under its own directory's lock alone, while a writer of the
// outer set staged that directory, moving the nested staging directory
// away: `rename o/cuda/.blas.cugen-new o/.cuda.cugen-new/.blas.cugen-new:
// no such file or directory`, for cugen layer (3-7 rounds of 8, after a
// killed run) and cugen gen -lib cu,cudart,nvrtc,cublas (1-4 of 10).
func TestWriteNestedConcurrent(t *testing.T) {
	// What is tested is the locks and the staging; fsync, for a power
	// loss, took 90% of the time.
	fsync = func(*os.File) error { return nil }
	defer func() { fsync = (*os.File).Sync }()
	if out := os.Getenv("CUGEN_TEST_NESTED_OUT"); out != "" {
		fmt.Println("ready")
		for i := 0; ; i++ {
			if err := writeNested(out, []string{"v1", "v2"}[i%2]); err != nil {
				fmt.Fprintln(os.Stderr, "child:", err)
				os.Exit(3)
			}
			if os.Getenv("CUGEN_TEST_NESTED_ONCE") != "" {
				os.Exit(0)
			}
		}
	}
	if os.Getenv("CUGEN_EMULATED") != "" {
		t.Skip("emulated: child processes may deadlock")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	child := func(out string, once bool) (*exec.Cmd, *strings.Builder) {
		cmd := exec.Command(exe, "-test.run=^TestWriteNestedConcurrent$")
		cmd.Env = append(os.Environ(), "CUGEN_TEST_NESTED_OUT="+out)
		if once {
			cmd.Env = append(cmd.Env, "CUGEN_TEST_NESTED_ONCE=1")
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child said %q, %v\n%s", line, err, stderr.String())
		}
		return cmd, &stderr
	}

	out := filepath.Join(t.TempDir(), "out")
	var runs []time.Duration
	for i := range 5 {
		start := time.Now()
		if err := writeNested(out, []string{"v1", "v2"}[i%2]); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, time.Since(start))
	}
	slices.Sort(runs)
	maxDelay := 3 * runs[2] / 2
	for name, text := range nestedUsers {
		if err := os.WriteFile(filepath.Join(out, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	const rounds, writers = 50, 4
	interrupted := 0
	for round := range rounds {
		killed, stderr := child(out, false)
		time.Sleep(rand.N(maxDelay))
		killed.Process.Signal(syscall.SIGKILL)
		err := killed.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("round %d: killed child: %v, want killed by SIGKILL\n%s", round, err, stderr)
		}
		if len(workEntries(t, out)) > 0 || len(workEntries(t, filepath.Join(out, "cuda"))) > 0 {
			interrupted++
		}

		other, otherErr := child(out, true)
		errs := make(chan error, writers)
		for w := range writers {
			go func() { errs <- writeNested(out, []string{"v1", "v2"}[w%2]) }()
		}
		for range writers {
			if err := <-errs; err != nil {
				t.Errorf("round %d: a writer: %v", round, err)
			}
		}
		if err := other.Wait(); err != nil {
			t.Errorf("round %d: the child writer: %v\n%s", round, err, otherErr)
		}
		if nestedVersion(t, out) == "" || t.Failed() {
			t.Fatalf("round %d: see above", round)
		}
	}
	t.Logf("%d rounds of %d writers and a child after a killed one (delays up to %v); %d kills left an interrupted run", rounds, writers+1, maxDelay, interrupted)
	if interrupted < rounds/10 {
		t.Errorf("only %d of %d kills interrupted a run: the test no longer tests recovery", interrupted, rounds)
	}
}

// TestWriteInsideAnotherOutput: a set written into a package of another
// writer's output by a writer of its own (cugen kernels -out
// OUT/cuda/kern, while cugen gen writes OUT and the sets nested in
// OUT/cuda) takes turns with that writer: 50 rounds of both at once, every
// write succeeds and OUT ends with whole sets and the kernels' package
// kept. Before WriteSet took the locks of the outputs around its own, the
// inner writer held OUT/cuda's lock alone and failed when gen staged
// OUT/cuda as a whole (the rename of its staging directory: "no such file
// or directory").
func TestWriteInsideAnotherOutput(t *testing.T) {
	fsync = func(*os.File) error { return nil }
	defer func() { fsync = (*os.File).Sync }()
	out := filepath.Join(t.TempDir(), "out")
	if err := writeNested(out, "v1"); err != nil {
		t.Fatal(err)
	}
	kern := func(version string) []Dir {
		p := testPkg(version, "kernels.go")
		p.Name = "kern"
		return []Dir{p.dir()}
	}
	const rounds = 50
	for round := range rounds {
		errs := make(chan error, 2)
		go func() {
			for i := range 3 {
				if err := writeNested(out, []string{"v1", "v2"}[i%2]); err != nil {
					errs <- fmt.Errorf("gen: %w", err)
					return
				}
			}
			errs <- nil
		}()
		go func() {
			for i := range 3 {
				if err := WriteSet(filepath.Join(out, "cuda"), kern([]string{"v1", "v2"}[i%2]), nil); err != nil {
					errs <- fmt.Errorf("kernels: %w", err)
					return
				}
			}
			errs <- nil
		}()
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		got := tree(t, filepath.Join(out, "cuda", "kern"))
		want := kern("v1")[0] // the third write, the last
		for _, f := range want.Files {
			if got[f.Name] != string(f.Bytes) {
				t.Fatalf("round %d: cuda/kern/%s is not the kernels' last write: %q", round, f.Name, got[f.Name])
			}
		}
		for _, dir := range []string{out, filepath.Join(out, "cuda"), filepath.Join(out, "cuda", "kern")} {
			if work := workEntries(t, dir); len(work) > 0 {
				t.Fatalf("round %d: %s: work entries left: %v", round, dir, work)
			}
		}
	}
}
