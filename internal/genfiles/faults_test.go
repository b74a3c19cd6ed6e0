//go:build linux

package genfiles

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// workEntries lists what an interrupted run leaves in out: its work
// directories, journal and temporary files.
func workEntries(t *testing.T, out string) []string {
	t.Helper()
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var work []string
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, ".") && n != LockFile {
			work = append(work, n)
		}
	}
	return work
}

// killSet is a set of two packages whose file names change between
// versions (each has a file of its own, only_VERSION.go), one file of
// several pages: what a run writes is new names and old ones.
func killSet(version string) []*testPackage {
	cu := testPkg(version, "doc.go", "funcs.go", "api.txt", "only_"+version+".go")
	cu.Files["funcs.go"] = append(cu.Files["funcs.go"], strings.Repeat("// padding\n", 1000)...)
	cudart := testPkg(version, "doc.go", "errors.go", "only_"+version+".go")
	cudart.Name = "cudart"
	return []*testPackage{cu, cudart}
}

// killSetVersion returns the version of killSet out holds, failing the
// test if it is not one whole set with users in cu.
func killSetVersion(t *testing.T, out string, users map[string]string) string {
	t.Helper()
	for _, v := range []string{"v1", "v2"} {
		set := killSet(v)
		if reflect.DeepEqual(tree(t, filepath.Join(out, "cu")), want(set[0], users)) &&
			reflect.DeepEqual(tree(t, filepath.Join(out, "cudart")), want(set[1], nil)) {
			return v
		}
	}
	var got []string
	for _, n := range []string{"cu", "cudart"} {
		for k := range tree(t, filepath.Join(out, n)) {
			got = append(got, n+"/"+k)
		}
	}
	sort.Strings(got)
	t.Errorf("%s holds neither the whole old set nor the whole new one: %v", out, got)
	return ""
}

// TestWriteSetRandomKill: a child process (this test binary) writes killSet
// v1 and v2 in turn into out, and is killed with SIGKILL at a random moment,
// 200 times. After each kill the next run (Recover, or a WriteSet of v1 or
// v2, in turn) succeeds and out holds one whole set with every user entry,
// nothing else. The delay is drawn from 0 to 1.5 times the length of one
// WriteSet, measured first, so the kills fall anywhere in a run: in its
// recovery, while a file is written, between the renames. A kill between
// the creation of a staged file and its first write left an empty file in
// .cu.cugen-new that every later run took for the user's (see
// TestWriteSetCrashAtEachStep, "fill" steps).
func TestWriteSetRandomKill(t *testing.T) {
	if out := os.Getenv("CUGEN_TEST_KILL_LOOP_OUT"); out != "" {
		fmt.Println("ready")
		for i := 0; ; i++ {
			if err := writeSet(out, killSet([]string{"v1", "v2"}[i%2]), nil); err != nil {
				fmt.Fprintln(os.Stderr, "child:", err)
				os.Exit(3)
			}
		}
	}
	if testing.Short() {
		t.Skip("-short: 200 child processes")
	}
	if os.Getenv("CUGEN_EMULATED") != "" {
		t.Skip("emulated: child processes may deadlock")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	// One run's length, the median of five.
	var runs []time.Duration
	for i := range 5 {
		start := time.Now()
		if err := writeSet(out, killSet([]string{"v1", "v2"}[i%2]), nil); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, time.Since(start))
	}
	slices.Sort(runs)
	maxDelay := 3 * runs[2] / 2
	addUserFiles(t, filepath.Join(out, "cu"))

	const kills = 200
	interrupted := 0
	for i := range kills {
		cmd := exec.Command(exe, "-test.run=^TestWriteSetRandomKill$")
		cmd.Env = append(os.Environ(), "CUGEN_TEST_KILL_LOOP_OUT="+out)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if err != nil || line != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("kill %d: child said %q, %v\n%s", i, line, err, stderr.String())
		}
		time.Sleep(rand.N(maxDelay))
		cmd.Process.Signal(syscall.SIGKILL)
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("kill %d: child: %v, want killed by SIGKILL\n%s", i, err, stderr.String())
		}
		if len(workEntries(t, out)) > 0 {
			interrupted++
		}
		wantV := ""
		switch i % 3 {
		case 0:
			err = Recover(out)
		case 1:
			wantV = "v1"
			err = writeSet(out, killSet(wantV), nil)
		case 2:
			wantV = "v2"
			err = writeSet(out, killSet(wantV), nil)
		}
		if err != nil {
			t.Fatalf("kill %d: the next run: %v", i, err)
		}
		if v := killSetVersion(t, out, userFiles); v == "" || wantV != "" && v != wantV {
			t.Fatalf("kill %d: after the next run: set %q, want %q", i, v, wantV)
		}
		if work := workEntries(t, out); len(work) > 0 {
			t.Fatalf("kill %d: left after the next run: %v", i, work)
		}
	}
	t.Logf("%d kills, %d of them left an interrupted run (delays up to %v)", kills, interrupted, maxDelay)
	if interrupted < kills/10 {
		t.Errorf("only %d of %d kills interrupted a run: the test no longer tests recovery", interrupted, kills)
	}
}

// TestWriteSetDiskFull: a write fails part of the way with ENOSPC (the
// k-th file written, half its bytes written, for every k: each file of the
// set and the journal). WriteSet returns the error, the old set and every
// user entry are as they were and nothing is left beside them; the next
// run, with space, succeeds. Before: the partial file stayed in
// .cu.cugen-new and every later run failed ("your doc.go is in
// o/.cu.cugen-new, left by an interrupted run, and o/cu/doc.go exists").
func TestWriteSetDiskFull(t *testing.T) {
	defer func() { writeData = (*os.File).Write }()
	for k := 1; ; k++ {
		out := filepath.Join(t.TempDir(), "out")
		if err := writeSet(out, testSet("v1"), nil); err != nil {
			t.Fatal(err)
		}
		addUserFiles(t, filepath.Join(out, "cu"))
		calls := 0
		writeData = func(f *os.File, b []byte) (int, error) {
			if calls++; calls == k {
				n, _ := f.Write(b[:len(b)/2])
				return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
			}
			return f.Write(b)
		}
		err := writeSet(out, testSet("v2"), nil)
		writeData = (*os.File).Write
		if calls < k { // every write done: the set is in
			if err != nil {
				t.Fatal(err)
			}
			if k < 7 {
				t.Fatalf("only %d writes: the set has 6 files and a journal", calls)
			}
			break
		}
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("write %d failing: WriteSet = %v, want ENOSPC", k, err)
		}
		if v := setVersion(t, out, userFiles); v != "v1" {
			t.Errorf("write %d failing: set %s", k, v)
		}
		noLeftovers(t, filepath.Join(out, "cu"), "cudart")
		if err := writeSet(out, testSet("v2"), nil); err != nil {
			t.Fatalf("write %d failed; the next run: %v", k, err)
		}
		if v := setVersion(t, out, userFiles); v != "v2" {
			t.Errorf("write %d failed; after the next run: set %s", k, v)
		}
	}
}

// TestWriteSetDiskFullTmpfs: the same on a real full file system, a 4 MB
// tmpfs mounted in a user namespace (unshare -Urm) for a child process
// (this test binary). The tmpfs is filled, then k pages freed, for k from
// 0 up until the new set fits: each write that fails with ENOSPC leaves the
// old set and nothing else; the next run succeeds once there is space.
func TestWriteSetDiskFullTmpfs(t *testing.T) {
	if dir := os.Getenv("CUGEN_TEST_TMPFS"); dir != "" {
		diskFullChild(t, dir)
		return
	}
	if testing.Short() {
		t.Skip("-short: a child process")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare command: cannot mount a small tmpfs")
	}
	if b, err := exec.Command(unshare, "-Urm", "true").CombinedOutput(); err != nil {
		t.Skipf("unshare -Urm fails here (%v: %s): cannot mount a small tmpfs", err, strings.TrimSpace(string(b)))
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd := exec.Command(unshare, "-Urm", "sh", "-c", `mount -t tmpfs -o size=4m cugen-test "$1" || exit 99; shift; exec "$@"`,
		"sh", dir, exe, "-test.run=^TestWriteSetDiskFullTmpfs$", "-test.v")
	cmd.Env = append(os.Environ(), "CUGEN_TEST_TMPFS="+dir)
	b, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 99 {
		t.Skipf("cannot mount a tmpfs in a user namespace: %s", strings.TrimSpace(string(b)))
	}
	if err != nil {
		t.Fatalf("child: %v\n%s", err, b)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if i := strings.Index(l, "disk full:"); i >= 0 {
			t.Log(l[i:])
		}
	}
}

func diskFullChild(t *testing.T, dir string) {
	var fs syscall.Statfs_t
	if err := syscall.Statfs(dir, &fs); err != nil || fs.Blocks*uint64(fs.Bsize) > 8<<20 {
		t.Fatalf("%s is not the small tmpfs (%v, %d blocks)", dir, err, fs.Blocks)
	}
	out := filepath.Join(dir, "out")
	if err := writeSet(out, testSet("v1"), nil); err != nil {
		t.Fatal(err)
	}
	addUserFiles(t, filepath.Join(out, "cu"))
	v2 := testSet("v2")
	v2[0].Files["funcs.go"] = append(v2[0].Files["funcs.go"], strings.Repeat("// padding\n", 1000)...) // 3 pages
	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	var full int64
	for {
		n, err := f.Write(chunk)
		full += int64(n)
		if errors.Is(err, syscall.ENOSPC) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	var failed []string
	for k := int64(0); ; k++ {
		if k > 64 {
			t.Fatal("the set does not fit in 64 free pages")
		}
		if err := os.Truncate(filler, full-k*4096); err != nil {
			t.Fatal(err)
		}
		err := writeSet(out, v2, nil)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("%d pages free: %v, want ENOSPC", k, err)
		}
		failed = append(failed, strconv.FormatInt(k, 10))
		if v := setVersion(t, out, userFiles); v != "v1" {
			t.Fatalf("%d pages free: set %s after %v", k, v, err)
		}
		noLeftovers(t, filepath.Join(out, "cu"), "cudart")
	}
	if len(failed) < 2 {
		t.Errorf("failed with ENOSPC at %v free pages only", failed)
	}
	if !reflect.DeepEqual(tree(t, filepath.Join(out, "cu")), want(v2[0], userFiles)) ||
		!reflect.DeepEqual(tree(t, filepath.Join(out, "cudart")), want(v2[1], nil)) {
		t.Errorf("after the run with space: cu %v, cudart %v", keys(tree(t, filepath.Join(out, "cu"))), keys(tree(t, filepath.Join(out, "cudart"))))
	}
	noLeftovers(t, filepath.Join(out, "cu"), "cudart")
	t.Logf("disk full: WriteSet failed with ENOSPC at %s free pages, old set kept, nothing left; then succeeded", strings.Join(failed, ", "))
}
