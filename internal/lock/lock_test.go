package lock

import (
	"bytes"
	"github.com/cugen/cugen/library"
	"os"
	"strings"
	"testing"
)

const h1 = "1111111111111111111111111111111111111111111111111111111111111111"
const h2 = "2222222222222222222222222222222222222222222222222222222222222222"

// canonical is a lock in canonical form, with every kind of line.
var canonical = Preamble + `
set 9.0
	cuda 9.0.176
	deb nvidia-cuda-dev 9.0.176-1 amd64 stretch ` + h1 + `
	root usr/include
	sha256 ` + h2 + ` cuda.h

set 12.4
	cuda 12.4.1
	deb nvidia-cuda-dev 12.4.127~12.4.1-2 amd64 trixie ` + h1 + `
	root usr/include
	with libnccl-dev
	note the set cugen commits bindings for
	sha256 ` + h2 + ` crt/host_defines.h
	sha256 ` + h1 + ` cuda.h

set 13.0
	cuda 13.0.0
	toolkit
	with cuda-nvvm-13.0
	note from the GPU machine's toolkit
	sha256 ` + h1 + ` cuda.h

headers cuda-nvvm-13.0
	toolkit
	root nvvm/include
	sha256 ` + h2 + ` nvvm.h

headers libnccl-dev
	deb libnccl-dev 2.22.3-1-1 amd64 trixie ` + h2 + `
	root usr/include
	sha256 ` + h1 + ` nccl.h

lib libcuda1
	deb libcuda1 550.163.01-2 amd64 trixie ` + h2 + `
	root usr/lib/x86_64-linux-gnu/nvidia/current
	sha256 ` + h1 + ` libcuda.so.1
`

func TestRoundTrip(t *testing.T) {
	l, err := Parse(strings.NewReader(canonical), "test.lock")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(l.Format()); got != canonical {
		t.Errorf("Format(Parse(canonical)) differs:\n%s\nwant:\n%s", got, canonical)
	}
	var buf bytes.Buffer
	if err := l.Write(&buf); err != nil || buf.String() != canonical {
		t.Errorf("Write = %v, text equal %v", err, buf.String() == canonical)
	}
	e, err := l.Entry("12.4")
	if err != nil {
		t.Fatal(err)
	}
	if e.Deb.Suite != "trixie" || e.Root != "usr/include" || len(e.Files) != 2 || e.Files[0].Path != "crt/host_defines.h" ||
		e.Line != strings.Count(canonical[:strings.Index(canonical, "set 12.4")], "\n")+1 || e.Lock != "test.lock" {
		t.Errorf("set 12.4 = %#v", e)
	}
	if tk, _ := l.Entry("13.0"); tk == nil || !tk.Toolkit() {
		t.Errorf("set 13.0 not a toolkit set: %+v", tk)
	} else if w, err := l.With(tk); err != nil || len(w) != 1 || !w[0].Toolkit() || w[0].Root != "nvvm/include" {
		t.Errorf("With(set 13.0) = %v, %v; want the toolkit headers entry of nvvm/include", w, err)
	}
	if _, err := l.Lib("libcuda1"); err != nil {
		t.Error(err)
	}
	// set 12.4 reads libnccl-dev's headers too: its digest covers them.
	with, err := l.With(e)
	if err != nil || len(with) != 1 || with[0].Kind != KindHeaders || with[0].Files[0].Path != "nccl.h" {
		t.Errorf("With(set 12.4) = %v, %v", with, err)
	}
	d, err := l.SetDigest(e)
	if err != nil || d == e.Digest() {
		t.Errorf("SetDigest(set 12.4) = %s, %v: want other than the set's own digest %s", d, err, e.Digest())
	}
	with[0].Files[0].SHA256 = h2
	if d2, _ := l.SetDigest(e); d2 == d {
		t.Errorf("SetDigest(set 12.4) did not change with a file of its headers entry")
	}
	old, _ := l.Entry("9.0")
	if d, err := l.SetDigest(old); err != nil || d != old.Digest() {
		t.Errorf("SetDigest(set 9.0) = %s, %v; want its Digest %s (no with lines)", d, err, old.Digest())
	}
	if _, err := l.Entry("libcuda1"); err == nil || !strings.Contains(err.Error(), `no set "libcuda1" (it has: 9.0, 12.4, 13.0)`) {
		t.Errorf("Entry(libcuda1) error = %v", err)
	}
}

// TestFormatSorts: any valid input comes out in canonical order, comments
// and spacing dropped.
func TestFormatSorts(t *testing.T) {
	messy := `# my comment
headers libnccl-dev
	sha256 ` + h1 + ` nccl.h
	root usr/include
	deb libnccl-dev 2.22.3-1-1 amd64 trixie ` + h2 + `
lib libcuda1
  sha256 ` + h1 + ` libcuda.so.1
  root usr/lib/x86_64-linux-gnu/nvidia/current
  deb libcuda1 550.163.01-2 amd64 trixie ` + h2 + `
set 13.0
toolkit
sha256 ` + h1 + ` cuda.h
note   from the GPU machine's    toolkit
with cuda-nvvm-13.0
cuda 13.0.0
headers cuda-nvvm-13.0
	sha256 ` + h2 + ` nvvm.h
	root nvvm/include
	toolkit

set 12.4
	sha256 ` + h1 + ` cuda.h   # not a comment: an error, see TestParseErrors
`
	messy = strings.Replace(messy, "   # not a comment: an error, see TestParseErrors", "", 1) + `	sha256 ` + h2 + ` crt/host_defines.h
	note the set cugen commits bindings for
	with libnccl-dev
	root usr/include
	deb nvidia-cuda-dev 12.4.127~12.4.1-2 amd64 trixie ` + h1 + `
	cuda 12.4.1
set 9.0
	cuda 9.0.176
	deb nvidia-cuda-dev 9.0.176-1 amd64 stretch ` + h1 + `
	root usr/include
	sha256 ` + h2 + ` cuda.h
`
	l, err := Parse(strings.NewReader(messy), "messy.lock")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(l.Format()); got != canonical {
		t.Errorf("Format(Parse(messy)):\n%s\nwant:\n%s", got, canonical)
	}
}

// TestCommittedLock: headers.lock at the repository root is canonical and
// has the sets and libs the project relies on.
func TestCommittedLock(t *testing.T) {
	data, err := os.ReadFile("../../headers.lock")
	if err != nil {
		t.Fatal(err)
	}
	l, err := Parse(bytes.NewReader(data), "headers.lock")
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Format(); !bytes.Equal(got, data) {
		t.Errorf("headers.lock is not in canonical form; rewrite it with Lock.WriteFile")
	}
	for _, set := range []string{"11.8", "12.4", "12.5", "13.0"} {
		e, err := l.Entry(set)
		if err != nil {
			t.Error(err)
			continue
		}
		if (e.Deb == nil || e.Deb.Package != "nvidia-cuda-dev") && set != "13.0" || !strings.HasPrefix(e.CUDA, set) {
			t.Errorf("set %s = %+v", set, e)
		}
		// The headers of the libraries every set must have; the others
		// are optional (nvJitLink came with CUDA 12.0, Debian packages
		// nvml.h apart).
		var required []*library.Desc
		for _, d := range library.All {
			if d.Required {
				required = append(required, d)
			}
		}
		for _, h := range library.Headers(required) {
			if !has(e, h) {
				t.Errorf("set %s does not lock %s", set, h)
			}
		}
		if set != "11.8" && !has(e, "nvJitLink.h") {
			t.Errorf("set %s does not lock nvJitLink.h", set)
		}
		// nccl.h, in no toolkit package, comes from libnccl-dev.
		with, err := l.With(e)
		if err != nil {
			t.Error(err)
		}
		nccl := false
		for _, h := range with {
			nccl = nccl || has(h, "nccl.h")
		}
		if want := set == "12.4" || set == "13.0"; nccl != want {
			t.Errorf("set %s reads nccl.h through its with lines: %v, want %v", set, nccl, want)
		}
	}
	// Every library's test libraries (Desc.LockLibs) are locked.
	for _, d := range library.All {
		if len(d.LockLibs) == 0 {
			t.Errorf("library %s names no headers.lock entry for its tests", d.Key)
		}
		for _, lib := range d.LockLibs {
			if _, err := l.Lib(lib); err != nil {
				t.Errorf("library %s: %v", d.Key, err)
			}
		}
	}
}

func has(e *Entry, path string) bool {
	for _, f := range e.Files {
		if f.Path == path {
			return true
		}
	}
	return false
}

func TestParseErrors(t *testing.T) {
	deb := "deb p 1 amd64 trixie " + h1 + "\n"
	file := "sha256 " + h1 + " cuda.h\n"
	for _, tc := range []struct{ in, want string }{
		{"", "x.lock: no entries"},
		{"# only\n", "x.lock: no entries"},
		{"cuda 12.4\n", `x.lock:1: "cuda" line before the first entry (set, headers or lib line)`},
		{"set\n", `x.lock:1: set: want 1 fields after "set", have 0`},
		{"set 1\ncuda 1.0\n" + deb + "root usr/include\n" + file + "bogus 1\n", `x.lock:6: unknown keyword "bogus"`},
		{"set 1\ncuda 1.0\n" + deb + "root usr/include\n" + file + "set 1\n", "x.lock:6: set 1 already defined at line 1"},
		{"set 1\ncuda 1.0\ncuda 1.1\n", "x.lock:3: second cuda line in set 1 (first at line 2)"},
		{"set 1\ncuda 1.0\ndeb p 1 amd64 trixie\n", `x.lock:3: deb: want 5 fields after "deb", have 4`},
		{"set 1\ncuda 1.0\ndeb p 1 amd64 trixie ABC\n", `x.lock:3: deb: "ABC" is not a sha256`},
		{"set 1\ncuda 1.0\n" + deb + "toolkit\n", "x.lock:4: set 1 has both deb and toolkit origins"},
		{"set 1\ncuda 1.0\nroot /usr/include\n", `x.lock:3: root: "/usr/include" is not a relative`},
		{"set 1\ncuda 1.0\n" + deb + "root usr/include\nsha256 " + h1 + " ../cuda.h\n", `x.lock:5: sha256: "../cuda.h" is not a relative`},
		{"set 1\ncuda 1.0\n" + deb + "root usr/include\nsha256 " + h1[:63] + " cuda.h\n", "x.lock:5: sha256: \"" + h1[:63] + "\" is not a sha256"},
		{"set 1\ncuda 1.0\n" + deb + "root usr/include\n" + file + "\n" + file, "x.lock:7: cuda.h listed twice in set 1 (first at line 5)"},
		{"set 1\ncuda 1.0\n" + deb + "root usr/include\n" + "sha256 " + h1 + " my file.h\n", `x.lock:5: sha256: want 2 fields`},
		{"set 1\n" + deb + "root usr/include\n" + file, "x.lock:1: set 1: missing cuda line"},
		{"set 1\ncuda 1.0\nroot usr/include\n" + file, "x.lock:1: set 1: missing origin"},
		{"set 1\ncuda 1.0\n" + deb + file, "x.lock:1: set 1: missing root line"},
		{"set 1\ncuda 1.0\ntoolkit\nroot usr/include\n" + file, "x.lock:1: set 1: root line in a toolkit set"},
		{"set 1\ncuda 1.0\n" + deb + "root usr/include\n", "x.lock:1: set 1: no sha256 lines"},
		{"lib l\ncuda 1.0\n", "x.lock:2: cuda line in lib l: only sets have one"},
		{"lib l\ntoolkit\n" + file, "x.lock:1: lib l: toolkit origin: lib entries need a deb line"},
		{"set 1\ncuda 1.0\n" + deb + "root usr/include\n" + file + "note\n", "x.lock:6: empty note"},
		// Entry names are cache directory names: never a path.
		{"lib ..\n" + deb + "root usr/lib\n" + file, `x.lock:1: lib: entry name ".."`},
		{"lib .\n" + deb + "root usr/lib\n" + file, `x.lock:1: lib: entry name "."`},
		{"set ../../x\n", `x.lock:1: set: entry name "../../x"`},
		{"set a/b\n", `x.lock:1: set: entry name "a/b"`},
		{"lib a\\b\n", `x.lock:1: lib: entry name "a\\b"`},
		{"lib .hidden\n", `x.lock:1: lib: entry name ".hidden"`},
		{"lib -x\n", `x.lock:1: lib: entry name "-x"`},
		{"lib l\ndeb ../../p 1 amd64 trixie " + h1 + "\n", `x.lock:2: deb: package "../../p"`},
		{"lib l\ndeb p 1/2 amd64 trixie " + h1 + "\n", `x.lock:2: deb: version "1/2"`},
		// with names a headers entry, once, and only sets have it.
		{"set 1\ncuda 1.0\n" + deb + "root usr/include\nwith nccl\n" + file, `x.lock:1: set 1: with nccl: x.lock has no headers "nccl"`},
		{"set 1\ncuda 1.0\n" + deb + "root usr/include\nwith l\n" + file + "lib l\n" + deb + "root usr/lib\n" + file, `x.lock:1: set 1: with l: x.lock has no headers "l"`},
		{"set 1\ncuda 1.0\nwith h\nwith h\n", "x.lock:4: with h twice in set 1"},
		{"set 1\ncuda 1.0\nwith ../h\n", `x.lock:3: with: entry name "../h"`},
		{"lib l\nwith h\n", "x.lock:2: with line in lib l: only sets have one"},
		// A toolkit headers entry (nvvm.h, in the toolkit's nvvm/include)
		// is read from a toolkit set's toolkit: a Debian set has none.
		{"set 1\ncuda 1.0\n" + deb + "root usr/include\nwith h\n" + file + "headers h\ntoolkit\nroot nvvm/include\n" + file,
			"x.lock:1: set 1: with h: a toolkit headers entry is read from the toolkit of a toolkit set, and set 1 is a Debian set"},
		{"headers h\ntoolkit\nroot ../nvvm\n" + file, `x.lock:3: root: "../nvvm" is not a relative`},
	} {
		_, err := Parse(strings.NewReader(tc.in), "x.lock")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q):\n got %v\nwant %s", tc.in, err, tc.want)
		}
	}
}

func TestCompareNames(t *testing.T) {
	order := []string{"9.0", "11.8", "12", "12.4", "12.4.1", "12.10", "13.0", "13.0-rc", "x"}
	for i := range order {
		for j := range order {
			c := compareNames(order[i], order[j])
			if (i < j) != (c < 0) || (i == j) != (c == 0) {
				t.Errorf("compareNames(%s, %s) = %d", order[i], order[j], c)
			}
		}
	}
}

func TestDigest(t *testing.T) {
	l, err := Parse(strings.NewReader(canonical), "test.lock")
	if err != nil {
		t.Fatal(err)
	}
	e, _ := l.Entry("12.4")
	d := e.Digest()
	if len(d) != 64 || d != e.Digest() {
		t.Fatalf("Digest = %q, not stable", d)
	}
	e.Files[0].SHA256 = h1
	if e.Digest() == d {
		t.Error("Digest did not change with a file hash")
	}
}
