package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestGenConcurrentKilled: 50 rounds, each of three cugen processes
// generating into one fresh -out at once, one of them killed (SIGKILL on
// Unix) after a random delay of up to 300 ms. The two others exit 0; a
// run after them completes what a kill interrupted; then OUT holds exactly
// a single run's files, byte for byte, and nothing else but the lock. This
// is issue 37's promise for gen at the process level (internal/genfiles'
// TestWriteNestedConcurrent holds it for the writer of nested sets).
func TestGenConcurrentKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("50 rounds of three processes")
	}
	dir := tinyHeaders(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	gen := func(out string) *exec.Cmd {
		c := exec.Command(exe, "gen", "-headers", dir, "-out", out, "-importpath", "example.com/out")
		c.Env = append(os.Environ(), "CUGEN_TEST_AS_CUGEN=1")
		return c
	}
	ref := filepath.Join(t.TempDir(), "ref")
	if b, err := gen(ref).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	want := tree(t, ref)
	const rounds, writers = 50, 3
	rng := rand.New(rand.NewPCG(37, 50))
	interrupted := 0
	for round := range rounds {
		out := filepath.Join(t.TempDir(), "out")
		victim := rng.IntN(writers)
		delay := time.Duration(rng.IntN(300)) * time.Millisecond
		cmds := make([]*exec.Cmd, writers)
		logs := make([]*bytes.Buffer, writers)
		for i := range cmds {
			cmds[i], logs[i] = gen(out), new(bytes.Buffer)
			cmds[i].Stdout, cmds[i].Stderr = logs[i], logs[i]
			if err := cmds[i].Start(); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(delay)
		cmds[victim].Process.Kill()
		for i, c := range cmds {
			err := c.Wait()
			switch {
			case i == victim:
				if !c.ProcessState.Exited() {
					interrupted++
				}
			case err != nil:
				t.Errorf("round %d, writer %d: %v\n%s", round, i, err, logs[i])
			}
		}
		if b, err := gen(out).CombinedOutput(); err != nil {
			t.Fatalf("round %d: the run after the kill: %v\n%s", round, err, b)
		}
		got := tree(t, out)
		for name, text := range want {
			if g, ok := got[name]; !ok {
				t.Errorf("round %d: %s missing", round, name)
			} else if g != text {
				t.Errorf("round %d: %s differs from a single run's", round, name)
			}
		}
		for name := range got {
			if _, ok := want[name]; !ok {
				t.Errorf("round %d: %s left in -out", round, name)
			}
		}
	}
	t.Logf("%d rounds of %d writers, %d kills interrupted a run", rounds, writers, interrupted)
	if interrupted < rounds/10 {
		t.Errorf("only %d of %d kills interrupted a run: the test no longer tests recovery", interrupted, rounds)
	}
}

// tree reads every regular file under dir, by slash path, but the lock
// file a run leaves.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if slices.Contains([]string{".cugen.lock"}, rel) {
			return nil
		}
		b, err := os.ReadFile(p)
		m[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
