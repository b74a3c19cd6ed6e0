package emit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// testPkg is a small generated package; version changes every file's text.
func testPkg(version string, names ...string) *Package {
	p := &Package{Name: "cu", Files: map[string][]byte{}}
	for _, n := range names {
		hdr := "// " + Marker + " from test " + version + ". DO NOT EDIT.\n"
		if strings.HasSuffix(n, ".txt") {
			hdr = "# " + Marker + " from test " + version + ". DO NOT EDIT.\n"
		}
		p.Files[n] = []byte(hdr + "\npackage cu\n\n// " + n + " " + version + "\n")
	}
	return p
}

// tree reads every entry under dir as path -> content ("<dir>" for
// directories, "-> target" for links).
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case rel == ".":
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out[rel] = "-> " + target
		case d.IsDir():
			out[rel] = "<dir>"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// want is the tree of pkg plus extra entries.
func want(pkg *Package, extra map[string]string) map[string]string {
	out := map[string]string{}
	for n, b := range pkg.Files {
		out[n] = string(b)
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

func diffTree(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		g, gok := got[k]
		w, wok := want[k]
		switch {
		case !gok:
			t.Errorf("%s: %s missing", what, k)
		case !wok:
			t.Errorf("%s: %s unexpected", what, k)
		case g != w:
			t.Errorf("%s: %s = %q, want %q", what, k, g, w)
		}
	}
}

// userFiles are a hand-written file, a directory with a file, and a link.
var userFiles = map[string]string{
	"helpers.go":         "package cu\n\n// Mine.\n",
	"testdata":           "<dir>",
	"testdata/input.bin": "data",
	"link.go":            "-> helpers.go",
}

func addUserFiles(t *testing.T, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "helpers.go"), []byte(userFiles["helpers.go"]), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "testdata"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "testdata", "input.bin"), []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("helpers.go", filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
}

// noLeftovers checks that the parent of dir holds nothing but dir.
func noLeftovers(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != filepath.Base(dir) {
			t.Errorf("left beside the package: %s", e.Name())
		}
	}
}

func TestWriteNew(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out", "cu")
	pkg := testPkg("v1", "doc.go", "funcs.go", "audit.txt")
	if err := Write(dir, pkg); err != nil {
		t.Fatal(err)
	}
	diffTree(t, "first write", tree(t, dir), want(pkg, nil))
	noLeftovers(t, dir)
	st, err := os.Stat(dir)
	if err != nil || st.Mode().Perm()&0o755 != 0o755 {
		t.Errorf("package directory mode %v (%v), want at least 0755", st.Mode(), err)
	}
}

// TestWriteKeepsUserFiles: user entries survive regeneration, stale
// generated files go, kept ones are replaced.
func TestWriteKeepsUserFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cu")
	if err := Write(dir, testPkg("v1", "doc.go", "funcs.go", "old.go")); err != nil {
		t.Fatal(err)
	}
	addUserFiles(t, dir)
	v2 := testPkg("v2", "doc.go", "funcs.go", "new.go")
	if err := Write(dir, v2); err != nil {
		t.Fatal(err)
	}
	diffTree(t, "after regeneration", tree(t, dir), want(v2, userFiles))
	noLeftovers(t, dir)
}

// TestWriteRefusesUserFileWithGeneratedName: nothing changes on disk.
func TestWriteRefusesUserFileWithGeneratedName(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cu")
	v1 := testPkg("v1", "doc.go", "funcs.go")
	if err := Write(dir, v1); err != nil {
		t.Fatal(err)
	}
	addUserFiles(t, dir)
	mine := "package cu\n\n// My own funcs.go.\n"
	if err := os.WriteFile(filepath.Join(dir, "funcs.go"), []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	before := tree(t, dir)
	err := Write(dir, testPkg("v2", "doc.go", "funcs.go"))
	if err == nil || !strings.Contains(err.Error(), "funcs.go") || !strings.Contains(err.Error(), "refusing") {
		t.Fatalf("Write over a user's funcs.go: err = %v, want a refusal naming it", err)
	}
	diffTree(t, "after the refusal", tree(t, dir), before)
	noLeftovers(t, dir)

	// A link or a directory with a generated name is the user's too.
	dir2 := filepath.Join(t.TempDir(), "cu")
	os.MkdirAll(filepath.Join(dir2, "doc.go"), 0o755)
	if err := Write(dir2, testPkg("v1", "doc.go")); err == nil {
		t.Error("Write over a directory named doc.go succeeded")
	}
}

func TestWriteRejectsBadNames(t *testing.T) {
	for _, n := range []string{"", ".", "..", "../escape.go", "sub/x.go", "/abs.go", `a\b.go`, "nul\x00.go"} {
		dir := filepath.Join(t.TempDir(), "cu")
		pkg := testPkg("v1", "doc.go")
		pkg.Files[n] = pkg.Files["doc.go"]
		if err := Write(dir, pkg); err == nil {
			t.Errorf("Write with file name %q succeeded", n)
		}
		if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("file name %q: output directory created before the check", n)
		}
		if _, err := os.Lstat(filepath.Join(filepath.Dir(dir), "escape.go")); err == nil {
			t.Errorf("file name %q escaped the output directory", n)
		}
	}
	// A generated file without the marker could never be replaced.
	dir := filepath.Join(t.TempDir(), "cu")
	pkg := testPkg("v1", "doc.go")
	pkg.Files["plain.go"] = []byte("package cu\n")
	if err := Write(dir, pkg); err == nil {
		t.Error("Write of a file without the marker succeeded")
	}
}

// TestWriteRefusesSymlinkDir: the output directory itself must be real.
func TestWriteRefusesSymlinkDir(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	if err := Write(real, testPkg("v1", "doc.go")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "cu")
	if err := os.Symlink("real", link); err != nil {
		t.Fatal(err)
	}
	err := Write(link, testPkg("v2", "doc.go"))
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("Write through a symlinked output directory: err = %v", err)
	}
	diffTree(t, "real directory", tree(t, real), want(testPkg("v1", "doc.go"), nil))
	// A regular file is not a directory either.
	file := filepath.Join(root, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	if err := Write(file, testPkg("v1", "doc.go")); err == nil {
		t.Error("Write onto a regular file succeeded")
	}
}

// TestWriteReadOnlyParent: a real failure (no permission to create the work
// directory) leaves the previous package as it was.
func TestWriteReadOnlyParent(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: permissions are not enforced")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "cu")
	v1 := testPkg("v1", "doc.go", "funcs.go")
	if err := Write(dir, v1); err != nil {
		t.Fatal(err)
	}
	addUserFiles(t, dir)
	if err := os.Chmod(root, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(root, 0o755)
	if err := Write(dir, testPkg("v2", "doc.go")); err == nil {
		t.Fatal("Write into a read-only parent succeeded")
	}
	diffTree(t, "after the failure", tree(t, dir), want(v1, userFiles))
}

// writeSteps are the steps of a Write over an existing package with user
// entries, in order, as the hook sees them.
func writeSteps(pkg *Package) []string {
	steps := []string{"mkdir"}
	names := make([]string, 0, len(pkg.Files))
	for n := range pkg.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		steps = append(steps, "write "+n)
	}
	for _, u := range []string{"helpers.go", "link.go", "testdata"} {
		steps = append(steps, "move "+u)
	}
	return append(steps, "aside", "swap", "cleanup")
}

// TestWriteFailureAtEachStep injects an error before every step: the
// previous package and every user entry stay as they were (a failure in the
// last step, removing the old package, leaves the new one in place and the
// next run tidies up).
func TestWriteFailureAtEachStep(t *testing.T) {
	v1 := testPkg("v1", "doc.go", "funcs.go", "old.go")
	v2 := testPkg("v2", "doc.go", "funcs.go", "new.go")
	for _, step := range writeSteps(v2) {
		t.Run(strings.ReplaceAll(step, " ", "_"), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "cu")
			if err := Write(dir, v1); err != nil {
				t.Fatal(err)
			}
			addUserFiles(t, dir)
			injected := errors.New("injected failure")
			writeHook = func(s string) error {
				if s == step {
					return injected
				}
				return nil
			}
			err := Write(dir, v2)
			writeHook = nil
			if !errors.Is(err, injected) {
				t.Fatalf("Write = %v, want the injected failure", err)
			}
			if step == "cleanup" {
				diffTree(t, "after a failed cleanup", tree(t, dir), want(v2, userFiles))
			} else {
				diffTree(t, "after the failure", tree(t, dir), want(v1, userFiles))
				noLeftovers(t, dir)
			}
			// The next run succeeds and leaves nothing behind.
			if err := Write(dir, v2); err != nil {
				t.Fatal(err)
			}
			diffTree(t, "after the next run", tree(t, dir), want(v2, userFiles))
			noLeftovers(t, dir)
		})
	}
}

// TestWriteCrashAtEachStep: the process dies before a step (the hook
// panics, so no undo runs). dir holds the complete old or new package, or
// (between the two renames) nothing; no user entry is lost: each is in dir
// or in a work directory beside it, and Recover (or the next Write) puts
// every one back.
func TestWriteCrashAtEachStep(t *testing.T) {
	v1 := testPkg("v1", "doc.go", "funcs.go", "old.go")
	v2 := testPkg("v2", "doc.go", "funcs.go", "new.go")
	for _, step := range writeSteps(v2) {
		for _, next := range []string{"Recover", "Write"} {
			t.Run(strings.ReplaceAll(step, " ", "_")+"/"+next, func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "cu")
				if err := Write(dir, v1); err != nil {
					t.Fatal(err)
				}
				addUserFiles(t, dir)
				crash(t, dir, v2, step)

				// What a reader sees right after the crash.
				got := map[string]string{}
				if _, err := os.Lstat(dir); err == nil {
					got = tree(t, dir)
				} else if step != "swap" {
					t.Fatalf("crash before %s: %s is missing", step, dir)
				}
				gen := map[string]string{}
				for k, v := range got {
					if IsGenerated([]byte(v)) {
						gen[k] = v
					}
				}
				if step != "swap" && !reflect.DeepEqual(gen, want(v1, nil)) && !reflect.DeepEqual(gen, want(v2, nil)) {
					t.Errorf("crash before %s: generated files are neither the old nor the new package: %v", step, keys(gen))
				}
				// Every user entry is somewhere.
				all := map[string]string{}
				for _, d := range []string{dir, filepath.Join(filepath.Dir(dir), ".cu.cugen-new"), filepath.Join(filepath.Dir(dir), ".cu.cugen-old")} {
					if _, err := os.Lstat(d); err == nil {
						for k, v := range tree(t, d) {
							all[k] = v
						}
					}
				}
				for k, v := range userFiles {
					if all[k] != v {
						t.Errorf("crash before %s: user entry %s lost (%q)", step, k, all[k])
					}
				}

				if next == "Recover" {
					if err := Recover(dir); err != nil {
						t.Fatal(err)
					}
					after := tree(t, dir)
					if !reflect.DeepEqual(after, want(v1, userFiles)) && !reflect.DeepEqual(after, want(v2, userFiles)) {
						t.Errorf("after Recover: %v", keys(after))
					}
					noLeftovers(t, dir)
				}
				if err := Write(dir, v2); err != nil {
					t.Fatal(err)
				}
				diffTree(t, "after the next run", tree(t, dir), want(v2, userFiles))
				noLeftovers(t, dir)
			})
		}
	}
}

// crash runs Write with the hook panicking before step, standing for the
// process dying there.
func crash(t *testing.T, dir string, pkg *Package, step string) {
	t.Helper()
	type died struct{}
	defer func() {
		writeHook = nil
		if r := recover(); r != (died{}) {
			t.Fatalf("Write did not reach step %s (recover: %v)", step, r)
		}
	}()
	writeHook = func(s string) error {
		if s == step {
			panic(died{})
		}
		return nil
	}
	err := Write(dir, pkg)
	t.Fatalf("Write returned %v without reaching step %s", err, step)
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestWriteDeterministic: two writes of one package give identical trees,
// file modes included, whatever the map order.
func TestWriteDeterministic(t *testing.T) {
	names := make([]string, 40)
	for i := range names {
		names[i] = fmt.Sprintf("f%02d.go", i)
	}
	a, b := filepath.Join(t.TempDir(), "cu"), filepath.Join(t.TempDir(), "cu")
	if err := Write(a, testPkg("v1", names...)); err != nil {
		t.Fatal(err)
	}
	if err := Write(b, testPkg("v1", names...)); err != nil {
		t.Fatal(err)
	}
	if err := Write(b, testPkg("v1", names...)); err != nil { // a rewrite, too
		t.Fatal(err)
	}
	diffTree(t, "second tree", tree(t, b), tree(t, a))
	for _, n := range names {
		sa, _ := os.Stat(filepath.Join(a, n))
		sb, _ := os.Stat(filepath.Join(b, n))
		if sa.Mode() != sb.Mode() {
			t.Errorf("%s: mode %v vs %v", n, sa.Mode(), sb.Mode())
		}
	}
}
