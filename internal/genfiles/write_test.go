//go:build unix

package genfiles

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testPackage is a package for the tests: file name -> content.
type testPackage struct {
	Name  string
	Files map[string][]byte
}

// dir is p for the writer, its files in map order (the writer sorts them).
func (p *testPackage) dir() Dir {
	d := Dir{Name: p.Name}
	for n, b := range p.Files {
		d.Files = append(d.Files, File{n, b})
	}
	return d
}

// write is Write of p into dir.
func write(dir string, p *testPackage) error { return Write(dir, p.dir().Files) }

// writeSet is WriteSet of ps into out.
func writeSet(out string, ps []*testPackage, logw io.Writer) error {
	var dirs []Dir
	for _, p := range ps {
		dirs = append(dirs, p.dir())
	}
	return WriteSet(out, dirs, logw)
}

// testPkg is a small generated package; version changes every file's text.
func testPkg(version string, names ...string) *testPackage {
	p := &testPackage{Name: "cu", Files: map[string][]byte{}}
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
func want(pkg *testPackage, extra map[string]string) map[string]string {
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

// noLeftovers checks that the parent of dir holds nothing but dir, other
// package directories named in others, and the lock file.
func noLeftovers(t *testing.T, dir string, others ...string) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != filepath.Base(dir) && e.Name() != LockFile && !slices.Contains(others, e.Name()) {
			t.Errorf("left beside the package: %s", e.Name())
		}
	}
}

func TestWriteNew(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out", "cu")
	pkg := testPkg("v1", "doc.go", "funcs.go", "audit.txt")
	if err := write(dir, pkg); err != nil {
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
	if err := write(dir, testPkg("v1", "doc.go", "funcs.go", "old.go")); err != nil {
		t.Fatal(err)
	}
	addUserFiles(t, dir)
	v2 := testPkg("v2", "doc.go", "funcs.go", "new.go")
	if err := write(dir, v2); err != nil {
		t.Fatal(err)
	}
	diffTree(t, "after regeneration", tree(t, dir), want(v2, userFiles))
	noLeftovers(t, dir)
}

// TestWriteRefusesUserFileWithGeneratedName: nothing changes on disk.
func TestWriteRefusesUserFileWithGeneratedName(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cu")
	v1 := testPkg("v1", "doc.go", "funcs.go")
	if err := write(dir, v1); err != nil {
		t.Fatal(err)
	}
	addUserFiles(t, dir)
	mine := "package cu\n\n// My own funcs.go.\n"
	if err := os.WriteFile(filepath.Join(dir, "funcs.go"), []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	before := tree(t, dir)
	err := write(dir, testPkg("v2", "doc.go", "funcs.go"))
	if err == nil || !strings.Contains(err.Error(), "funcs.go") || !strings.Contains(err.Error(), "refusing") {
		t.Fatalf("Write over a user's funcs.go: err = %v, want a refusal naming it", err)
	}
	diffTree(t, "after the refusal", tree(t, dir), before)
	noLeftovers(t, dir)

	// A link or a directory with a generated name is the user's too.
	dir2 := filepath.Join(t.TempDir(), "cu")
	os.MkdirAll(filepath.Join(dir2, "doc.go"), 0o755)
	if err := write(dir2, testPkg("v1", "doc.go")); err == nil {
		t.Error("Write over a directory named doc.go succeeded")
	}
}

func TestWriteRejectsBadNames(t *testing.T) {
	for _, n := range []string{"", ".", "..", "../escape.go", "sub/x.go", "/abs.go", `a\b.go`, "nul\x00.go"} {
		dir := filepath.Join(t.TempDir(), "cu")
		pkg := testPkg("v1", "doc.go")
		pkg.Files[n] = pkg.Files["doc.go"]
		if err := write(dir, pkg); err == nil {
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
	if err := write(dir, pkg); err == nil {
		t.Error("Write of a file without the marker succeeded")
	}
}

// TestWriteRefusesSymlinkDir: the output directory itself must be real.
func TestWriteRefusesSymlinkDir(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	if err := write(real, testPkg("v1", "doc.go")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "cu")
	if err := os.Symlink("real", link); err != nil {
		t.Fatal(err)
	}
	err := write(link, testPkg("v2", "doc.go"))
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("Write through a symlinked output directory: err = %v", err)
	}
	diffTree(t, "real directory", tree(t, real), want(testPkg("v1", "doc.go"), nil))
	// A regular file is not a directory either.
	file := filepath.Join(root, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	if err := write(file, testPkg("v1", "doc.go")); err == nil {
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
	if err := write(dir, v1); err != nil {
		t.Fatal(err)
	}
	addUserFiles(t, dir)
	if err := os.Chmod(root, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(root, 0o755)
	if err := write(dir, testPkg("v2", "doc.go")); err == nil {
		t.Fatal("Write into a read-only parent succeeded")
	}
	diffTree(t, "after the failure", tree(t, dir), want(v1, userFiles))
}

// writeSteps are the steps of a Write over an existing package with user
// entries, in order, as the hook sees them.
func writeSteps(pkg *testPackage) []string {
	steps := []string{"mkdir cu"}
	names := make([]string, 0, len(pkg.Files))
	for n := range pkg.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		steps = append(steps, fileSteps("cu/"+n)...)
	}
	for _, u := range []string{"helpers.go", "link.go", "testdata"} {
		steps = append(steps, "move cu/"+u)
	}
	steps = append(steps, "journal", "fill journal", "place journal")
	return append(steps, "aside cu", "swap cu", "cleanup cu", "done")
}

// fileSteps are the steps of writing one file into a staging directory:
// before its temporary file is created, after it is created and before
// anything is written to it, and before it is renamed into place.
func fileSteps(label string) []string {
	return []string{"write " + label, "fill " + label, "place " + label}
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
			if err := write(dir, v1); err != nil {
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
			err := write(dir, v2)
			writeHook = nil
			if !errors.Is(err, injected) {
				t.Fatalf("Write = %v, want the injected failure", err)
			}
			if step == "cleanup cu" || step == "done" {
				diffTree(t, "after a failed cleanup", tree(t, dir), want(v2, userFiles))
			} else {
				diffTree(t, "after the failure", tree(t, dir), want(v1, userFiles))
				noLeftovers(t, dir)
			}
			// The next run succeeds and leaves nothing behind.
			if err := write(dir, v2); err != nil {
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
				if err := write(dir, v1); err != nil {
					t.Fatal(err)
				}
				addUserFiles(t, dir)
				crash(t, dir, v2, step)

				// What a reader sees right after the crash.
				got := map[string]string{}
				if _, err := os.Lstat(dir); err == nil {
					got = tree(t, dir)
				} else if step != "swap cu" {
					t.Fatalf("crash before %s: %s is missing", step, dir)
				}
				gen := map[string]string{}
				for k, v := range got {
					if IsGenerated([]byte(v)) {
						gen[k] = v
					}
				}
				if step != "swap cu" && !reflect.DeepEqual(gen, want(v1, nil)) && !reflect.DeepEqual(gen, want(v2, nil)) {
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
					if err := Recover(filepath.Dir(dir)); err != nil {
						t.Fatal(err)
					}
					after := tree(t, dir)
					if !reflect.DeepEqual(after, want(v1, userFiles)) && !reflect.DeepEqual(after, want(v2, userFiles)) {
						t.Errorf("after Recover: %v", keys(after))
					}
					noLeftovers(t, dir)
				}
				if err := write(dir, v2); err != nil {
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
func crash(t *testing.T, dir string, pkg *testPackage, step string) {
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
	err := write(dir, pkg)
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
	if err := write(a, testPkg("v1", names...)); err != nil {
		t.Fatal(err)
	}
	if err := write(b, testPkg("v1", names...)); err != nil {
		t.Fatal(err)
	}
	if err := write(b, testPkg("v1", names...)); err != nil { // a rewrite, too
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

// TestIsGenerated: the marker is the whole first line, Go's convention
// (^// Code generated .* DO NOT EDIT\.$) with cugen as the generator; a
// prefix is not enough.
func TestIsGenerated(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"// Code generated by cugen from CUDA 12.4 headers. DO NOT EDIT.\npackage cu\n", true},
		{"# Code generated by cugen from CUDA 12.4 headers. DO NOT EDIT.\n", true},
		{"// Code generated by cugen from x. DO NOT EDIT.\r\n", true},
		{"// Code generated by cugen from x. DO NOT EDIT.", true},
		{"// Code generated by cugenext from x. DO NOT EDIT.\n", false},
		{"// Code generated by cugen-ng from x. DO NOT EDIT.\n", false},
		{"// Code generated by cugen from x.\n", false},
		{"// Code generated by cugen from x. DO NOT EDIT. (edited)\n", false},
		{"//Code generated by cugen from x. DO NOT EDIT.\n", false},
		{"/// Code generated by cugen from x. DO NOT EDIT.\n", false},
		{"package cu // Code generated by cugen from x. DO NOT EDIT.\n", false},
		{"\n// Code generated by cugen from x. DO NOT EDIT.\n", false},
		{"", false},
	} {
		if got := IsGenerated([]byte(c.text)); got != c.want {
			t.Errorf("IsGenerated(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestWriteKeepsOtherGeneratorsFiles: a file generated by another tool
// whose name starts with cugen's ("cugenext") is the user's: kept.
func TestWriteKeepsOtherGeneratorsFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cu")
	if err := write(dir, testPkg("v1", "doc.go")); err != nil {
		t.Fatal(err)
	}
	other := "// Code generated by cugenext from my.yaml. DO NOT EDIT.\n\npackage cu\n"
	if err := os.WriteFile(filepath.Join(dir, "ext.go"), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	v2 := testPkg("v2", "doc.go")
	if err := write(dir, v2); err != nil {
		t.Fatal(err)
	}
	diffTree(t, "after regeneration", tree(t, dir), want(v2, map[string]string{"ext.go": other}))
}

// TestWriteRefusesPlantedLinks: a symbolic link (or a file) where cugen
// expects one of its work directories, its journal or a temporary file is
// an error naming it; nothing is moved out of or deleted in the link's
// target, and the package is unchanged. A regular file at a temporary
// file's name is a partial one of cugen's: removed.
func TestWriteRefusesPlantedLinks(t *testing.T) {
	for _, planted := range []string{".cu.cugen-new", ".cu.cugen-old", ".cugen-swap", ".cugen-swap.tmp", ".cugen-file.tmp", ".cugen.lock"} {
		for _, kind := range []string{"link", "file"} {
			t.Run(planted+"/"+kind, func(t *testing.T) {
				root := t.TempDir()
				out := filepath.Join(root, "out")
				dir := filepath.Join(out, "cu")
				v1 := testPkg("v1", "doc.go", "funcs.go")
				if err := write(dir, v1); err != nil {
					t.Fatal(err)
				}
				elsewhere := filepath.Join(root, "elsewhere")
				theirs := map[string]string{
					"notes.txt": "mine\n",
					"gen.go":    string(testPkg("v0", "gen.go").Files["gen.go"]),
				}
				for n, v := range theirs {
					if err := os.MkdirAll(elsewhere, 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(elsewhere, n), []byte(v), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				p := filepath.Join(out, planted)
				os.Remove(p)
				target := elsewhere
				if planted == ".cugen.lock" {
					target = filepath.Join(elsewhere, "notes.txt")
				}
				if kind == "link" {
					if err := os.Symlink(target, p); err != nil {
						t.Fatal(err)
					}
				} else if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				err := write(dir, testPkg("v2", "doc.go", "funcs.go"))
				if kind == "file" && (planted == ".cugen.lock" || strings.HasSuffix(planted, ".tmp")) {
					// A lock file is any regular file; a temporary file
					// is a partial one of cugen's, removed.
					if err != nil {
						t.Fatal(err)
					}
					return
				}
				if err == nil || !strings.Contains(err.Error(), p) {
					t.Fatalf("Write with a planted %s %s: %v, want an error naming it", kind, p, err)
				}
				diffTree(t, "target of the planted link", tree(t, elsewhere), theirs)
				diffTree(t, "package", tree(t, dir), want(v1, nil))
				if err := Recover(out); err == nil || !strings.Contains(err.Error(), p) {
					t.Errorf("Recover with a planted %s %s: %v, want an error naming it", kind, p, err)
				}
				diffTree(t, "target of the planted link after Recover", tree(t, elsewhere), theirs)
			})
		}
	}
}

// TestWriteRefusesRoot: the file system's root is no output directory.
// (checkOut is what WriteSet, Write and Recover call first; calling them
// with "/" here would write /cu if the check ever broke.)
func TestWriteRefusesRoot(t *testing.T) {
	for _, out := range []string{"/", "/..", "//", "/./", "/tmp/../.."} {
		if _, err := checkOut(out); err == nil || !strings.Contains(err.Error(), "root") {
			t.Errorf("checkOut(%q) = %v, want a refusal", out, err)
		}
	}
	for _, out := range []string{"out", "/tmp/out", "./x/.."} {
		if _, err := checkOut(out); err != nil {
			t.Errorf("checkOut(%q) = %v", out, err)
		}
	}
	if _, err := checkOut(""); err == nil {
		t.Error("checkOut(\"\") = nil")
	}
}

// TestWriteRefusesFIFO: a FIFO with a generated name is the user's entry,
// refused without opening it (opening a FIFO blocks until a writer comes).
// (emit's TestReadManifestFIFO holds the same for the old api.txt.)
func TestWriteRefusesFIFO(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cu")
	v1 := testPkg("v1", "doc.go", "api.txt")
	if err := write(dir, v1); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "api.txt")
	os.Remove(fifo)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() { done <- write(dir, testPkg("v2", "doc.go", "api.txt")) }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), fifo) {
			t.Errorf("Write over a FIFO: %v, want an error naming it", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Write over a FIFO hangs")
	}
}

// testSet is a generated set of two packages, cu and cudart.
func testSet(version string) []*testPackage {
	cu := testPkg(version, "doc.go", "funcs.go", "api.txt")
	cudart := testPkg(version, "doc.go", "errors.go", "api.txt")
	cudart.Name = "cudart"
	return []*testPackage{cu, cudart}
}

// setSteps are the steps of a WriteSet of testSet over an existing one,
// with userFiles in cu, in order, as the hook sees them.
func setSteps() []string {
	steps := []string{"mkdir cu"}
	for _, n := range []string{"api.txt", "doc.go", "funcs.go"} {
		steps = append(steps, fileSteps("cu/"+n)...)
	}
	steps = append(steps, "move cu/helpers.go", "move cu/link.go", "move cu/testdata", "mkdir cudart")
	for _, n := range []string{"api.txt", "doc.go", "errors.go"} {
		steps = append(steps, fileSteps("cudart/"+n)...)
	}
	return append(steps, "journal", "fill journal", "place journal",
		"aside cu", "swap cu", "aside cudart", "swap cudart",
		"cleanup cu", "cleanup cudart", "done")
}

// commitStep is the last step before the new set is committed: the
// journal renamed into place.
const commitStep = "place journal"

// setVersion returns the version both packages of out were generated
// from, failing the test if they differ or either is incomplete.
func setVersion(t *testing.T, out string, users map[string]string) string {
	t.Helper()
	for _, v := range []string{"v1", "v2"} {
		set := testSet(v)
		cu, cudart := want(set[0], users), want(set[1], nil)
		got := map[string]map[string]string{}
		for _, n := range []string{"cu", "cudart"} {
			if _, err := os.Lstat(filepath.Join(out, n)); err == nil {
				got[n] = tree(t, filepath.Join(out, n))
			}
		}
		if reflect.DeepEqual(got["cu"], cu) && reflect.DeepEqual(got["cudart"], cudart) {
			return v
		}
	}
	got := map[string][]string{}
	for _, n := range []string{"cu", "cudart"} {
		if _, err := os.Lstat(filepath.Join(out, n)); err == nil {
			for k, v := range tree(t, filepath.Join(out, n)) {
				got[n] = append(got[n], k+"="+strings.TrimSpace(v[strings.LastIndex(v, " ")+1:]))
			}
			sort.Strings(got[n])
		}
	}
	t.Errorf("%s holds neither the whole old set nor the whole new one: %v", out, got)
	return ""
}

// TestWriteSetFailureAtEachStep: an error at any step leaves the whole old
// set with every user entry (or, in the cleanup steps, the whole new set),
// and the next run succeeds.
func TestWriteSetFailureAtEachStep(t *testing.T) {
	for _, step := range setSteps() {
		t.Run(strings.ReplaceAll(step, " ", "_"), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			if err := writeSet(out, testSet("v1"), nil); err != nil {
				t.Fatal(err)
			}
			addUserFiles(t, filepath.Join(out, "cu"))
			injected := errors.New("injected failure")
			reached := false
			writeHook = func(s string) error {
				if s == step {
					reached = true
					return injected
				}
				return nil
			}
			err := writeSet(out, testSet("v2"), nil)
			writeHook = nil
			if !reached || !errors.Is(err, injected) {
				t.Fatalf("WriteSet = %v, want the injected failure", err)
			}
			v := setVersion(t, out, userFiles)
			if late := strings.HasPrefix(step, "cleanup") || step == "done"; late && v != "v2" || !late && v != "v1" {
				t.Errorf("after a failure before %s: set %s", step, v)
			}
			if !strings.HasPrefix(step, "cleanup") && step != "done" {
				noLeftovers(t, filepath.Join(out, "cu"), "cudart")
			}
			if err := writeSet(out, testSet("v2"), nil); err != nil {
				t.Fatal(err)
			}
			if v := setVersion(t, out, userFiles); v != "v2" {
				t.Errorf("after the next run: set %s", v)
			}
			noLeftovers(t, filepath.Join(out, "cu"), "cudart")
		})
	}
}

// TestWriteSetCrashAtEachStep: the process dies before a step (the hook
// panics: no undo runs, the lock is released as by a dead process). After
// Recover, or the next WriteSet's own recovery, out holds the whole old set
// (died before the journal) or the whole new set (after it), never cu from
// one run and cudart from another, with every user entry. Before the
// journal, cugen wrote cu and then cudart: dying at "swap cudart" left cu
// new and cudart old for good.
func TestWriteSetCrashAtEachStep(t *testing.T) {
	for i, step := range setSteps() {
		committed := i > slices.Index(setSteps(), commitStep)
		for _, next := range []string{"Recover", "WriteSet v1"} {
			t.Run(strings.ReplaceAll(step, " ", "_")+"/"+next, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "out")
				if err := writeSet(out, testSet("v1"), nil); err != nil {
					t.Fatal(err)
				}
				addUserFiles(t, filepath.Join(out, "cu"))
				crashSet(t, out, testSet("v2"), step)
				if next == "Recover" {
					if err := Recover(out); err != nil {
						t.Fatal(err)
					}
					wantV := "v1"
					if committed {
						wantV = "v2"
					}
					if v := setVersion(t, out, userFiles); v != wantV {
						t.Errorf("died before %s, recovered: set %s, want %s", step, v, wantV)
					}
					noLeftovers(t, filepath.Join(out, "cu"), "cudart")
					return
				}
				// The next run writes another set; it must not mix
				// with the interrupted one either.
				if err := writeSet(out, testSet("v1"), nil); err != nil {
					t.Fatal(err)
				}
				if v := setVersion(t, out, userFiles); v != "v1" {
					t.Errorf("after the next run: set %s", v)
				}
				noLeftovers(t, filepath.Join(out, "cu"), "cudart")
			})
		}
	}
}

// crashSet runs WriteSet with the hook panicking before step.
func crashSet(t *testing.T, out string, pkgs []*testPackage, step string) {
	t.Helper()
	type died struct{}
	defer func() {
		writeHook = nil
		if r := recover(); r != (died{}) {
			t.Fatalf("WriteSet did not reach step %s (recover: %v)", step, r)
		}
	}()
	writeHook = func(s string) error {
		if s == step {
			panic(died{})
		}
		return nil
	}
	err := writeSet(out, pkgs, nil)
	t.Fatalf("WriteSet returned %v without reaching step %s", err, step)
}

// TestWriteSetConcurrent: writers of one output directory take turns (the
// lock file): every run succeeds and the directory always ends with one
// whole set. Without the lock, two runs left 14-22 of 24 files.
func TestWriteSetConcurrent(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	big := func(v string) []*testPackage {
		var names []string
		for i := range 12 {
			names = append(names, fmt.Sprintf("f%02d.go", i))
		}
		cu, cudart := testPkg(v, names...), testPkg(v, names...)
		cudart.Name = "cudart"
		return []*testPackage{cu, cudart}
	}
	for round := range 10 {
		errs := make(chan error, 2)
		for _, v := range []string{"v1", "v2"} {
			go func() { errs <- writeSet(out, big(v), nil) }()
		}
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		a, b := tree(t, filepath.Join(out, "cu")), tree(t, filepath.Join(out, "cudart"))
		if !(reflect.DeepEqual(a, want(big("v1")[0], nil)) && reflect.DeepEqual(b, want(big("v1")[1], nil))) &&
			!(reflect.DeepEqual(a, want(big("v2")[0], nil)) && reflect.DeepEqual(b, want(big("v2")[1], nil))) {
			t.Fatalf("round %d: not one whole set: cu %d files, cudart %d files", round, len(a), len(b))
		}
		noLeftovers(t, filepath.Join(out, "cu"), "cudart")
	}
}

// TestWriteSetKilled: a child process (this test binary) is killed with
// SIGKILL before each step of a WriteSet: no deferred function runs, the
// kernel releases the lock. The next WriteSet's recovery leaves the whole
// old set (killed before the journal) or the whole new one (after), and
// then the set it writes.
func TestWriteSetKilled(t *testing.T) {
	if step := os.Getenv("CUGEN_TEST_KILL_STEP"); step != "" {
		writeHook = func(s string) error {
			if s == step {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			}
			return nil
		}
		err := writeSet(os.Getenv("CUGEN_TEST_KILL_OUT"), testSet("v2"), nil)
		fmt.Fprintf(os.Stderr, "WriteSet returned %v without reaching %s\n", err, step)
		os.Exit(3)
	}
	if testing.Short() {
		t.Skip("-short: one child process per step")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for i, step := range setSteps() {
		committed := i > slices.Index(setSteps(), commitStep)
		t.Run(strings.ReplaceAll(step, " ", "_"), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			if err := writeSet(out, testSet("v1"), nil); err != nil {
				t.Fatal(err)
			}
			addUserFiles(t, filepath.Join(out, "cu"))
			cmd := exec.Command(exe, "-test.run=^TestWriteSetKilled$")
			cmd.Env = append(os.Environ(), "CUGEN_TEST_KILL_STEP="+step, "CUGEN_TEST_KILL_OUT="+out)
			b, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("child: %v, want killed by SIGKILL\n%s", err, b)
			}
			if err := Recover(out); err != nil {
				t.Fatal(err)
			}
			wantV := "v1"
			if committed {
				wantV = "v2"
			}
			if v := setVersion(t, out, userFiles); v != wantV {
				t.Errorf("killed before %s, recovered: set %s, want %s", step, v, wantV)
			}
			noLeftovers(t, filepath.Join(out, "cu"), "cudart")
		})
	}
}

// TestRecoverIgnoresOtherNames: entries that only look like work
// directories (hidden or empty package names) are not cugen's: recovery
// leaves them and everything else alone.
func TestRecoverIgnoresOtherNames(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if err := writeSet(out, testSet("v1"), nil); err != nil {
		t.Fatal(err)
	}
	gen := string(testPkg("v0", "gen.go").Files["gen.go"])
	var planted []string
	for _, n := range []string{"...cugen-new", "...cugen-old", "..x.cugen-new", ".cugen-new", "..cugen-old"} {
		p := filepath.Join(out, n)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "gen.go"), []byte(gen), 0o644); err != nil {
			t.Fatal(err)
		}
		planted = append(planted, n)
	}
	before := tree(t, out)
	if err := Recover(out); err != nil {
		t.Fatal(err)
	}
	diffTree(t, "after Recover", tree(t, out), before)
	if err := writeSet(out, testSet("v2"), nil); err != nil {
		t.Fatal(err)
	}
	if v := setVersion(t, out, nil); v != "v2" {
		t.Errorf("set %s", v)
	}
	for _, n := range planted {
		if b, err := os.ReadFile(filepath.Join(out, n, "gen.go")); err != nil || string(b) != gen {
			t.Errorf("%s/gen.go: %q, %v", n, b, err)
		}
	}
}

// TestRecoverLegacyWorkDirs: work directories left by a cugen from before
// the journal (one package at a time, no .cugen-swap) are finished or
// undone as that version promised.
func TestRecoverLegacyWorkDirs(t *testing.T) {
	v1, v2 := testPkg("v1", "doc.go"), testPkg("v2", "doc.go")
	write := func(d string, p *testPackage) {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for n, b := range p.Files {
			if err := os.WriteFile(filepath.Join(d, n), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		name           string
		dir, old, new_ *testPackage
		want           *testPackage
	}{
		{"died between the renames", nil, v1, v2, v2},
		{"died after the renames", v2, v1, nil, v2},
		{"died before the renames", v1, nil, v2, v1},
		{"only the old one", nil, v1, nil, v1},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			os.MkdirAll(out, 0o755)
			for d, p := range map[string]*testPackage{"cu": c.dir, ".cu.cugen-old": c.old, ".cu.cugen-new": c.new_} {
				if p != nil {
					write(filepath.Join(out, d), p)
				}
			}
			if err := Recover(out); err != nil {
				t.Fatal(err)
			}
			diffTree(t, "cu", tree(t, filepath.Join(out, "cu")), want(c.want, nil))
			noLeftovers(t, filepath.Join(out, "cu"))
		})
	}
}
