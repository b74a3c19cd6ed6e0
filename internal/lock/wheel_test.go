package lock

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// wheelLock is a toolkit set and a headers entry from a wheel, verified in
// place in $FAKE_HOME/include.
func wheelLock(t *testing.T, cuda, home string) *Lock {
	t.Helper()
	writeTree(t, filepath.Join(cuda, "include"), headers)
	writeTree(t, filepath.Join(home, "include"), map[string]string{"dnn.h": "int dnnCreate(void);\n"})
	set := &Entry{Kind: KindSet, Name: "13.0", CUDA: "13.0.0"}
	if err := Update(set, filepath.Join(cuda, "include"), []string{"cuda.h"}); err != nil {
		t.Fatal(err)
	}
	h := &Entry{Kind: KindHeaders, Name: "dnn9", Wheel: &Wheel{Package: "nvidia-dnn-cu13", Version: "9.1.0", Home: "FAKE_HOME"}}
	if err := Update(h, filepath.Join(home, "include"), []string{"dnn.h"}); err != nil {
		t.Fatal(err)
	}
	l, err := Parse(strings.NewReader(string((&Lock{Entries: []*Entry{set, h}}).Format())), "test.lock")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestWheelOrigin: a headers entry of a wheel round-trips through the
// lock's text, is read from $HOME/include and verified there, and is
// never fetched; its directory unset or tampered is an error naming the
// variable or the file.
func TestWheelOrigin(t *testing.T) {
	cuda, home := t.TempDir(), t.TempDir()
	l := wheelLock(t, cuda, home)
	if !strings.Contains(string(l.Format()), "\twheel nvidia-dnn-cu13 9.1.0 FAKE_HOME\n") {
		t.Fatalf("Format lost the wheel line:\n%s", l.Format())
	}
	h, err := l.find(KindHeaders, "dnn9")
	if err != nil || h.Wheel == nil || h.Toolkit() {
		t.Fatalf("dnn9 = %+v, %v", h, err)
	}
	t.Setenv("CUDA_HOME", cuda)
	t.Setenv("CUDA_PATH", "")
	t.Setenv("FAKE_HOME", "")
	if _, err := WheelDir(h); err == nil || !strings.Contains(err.Error(), "set FAKE_HOME") {
		t.Errorf("WheelDir with FAKE_HOME unset = %v", err)
	}
	t.Setenv("FAKE_HOME", home)
	if d, err := WheelDir(h); err != nil || d != filepath.Join(home, "include") {
		t.Errorf("WheelDir = %s, %v", d, err)
	}
	if _, err := Fetch(context.Background(), h, t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "wheel origin") {
		t.Errorf("Fetch(wheel entry) = %v", err)
	}
	if _, err := Cached(h, t.TempDir()); err == nil || !strings.Contains(err.Error(), "wheel origin") {
		t.Errorf("Cached(wheel entry) = %v", err)
	}
	writeTree(t, filepath.Join(home, "include"), map[string]string{"dnn.h": "int dnnCreate(int);\n"})
	if _, err := WheelDir(h); err == nil || !strings.Contains(err.Error(), "dnn.h") {
		t.Errorf("WheelDir(tampered) = %v", err)
	}
}

// TestDerivedSet: "13.0+dnn9" is set 13.0 reading the wheel's headers
// too: both directories, both pinned, a digest of its own; the set alone
// does not read them, and a name that is no headers entry is an error.
func TestDerivedSet(t *testing.T) {
	cuda, home := t.TempDir(), t.TempDir()
	l := wheelLock(t, cuda, home)
	t.Setenv("CUDA_HOME", cuda)
	t.Setenv("CUDA_PATH", "")
	t.Setenv("FAKE_HOME", home)
	base, err := l.Entry("13.0")
	if err != nil {
		t.Fatal(err)
	}
	d, err := l.Entry("13.0+dnn9")
	if err != nil {
		t.Fatal(err)
	}
	if d.Base() != base || len(base.With) != 0 || strings.Join(d.With, ",") != "dnn9" {
		t.Fatalf("derived %+v from %+v", d, base)
	}
	fs, err := l.FetchSetEntry(context.Background(), d, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if fs.Dir != filepath.Join(cuda, "include") || len(fs.WithDirs) != 1 || fs.WithDirs[0] != filepath.Join(home, "include") {
		t.Errorf("Dir %s, WithDirs %v", fs.Dir, fs.WithDirs)
	}
	if len(fs.Pinned) != 2 || fs.Pinned["dnn.h"] == "" || fs.Pinned["cuda.h"] == "" {
		t.Errorf("Pinned = %v", fs.Pinned)
	}
	bd, _ := l.SetDigest(base)
	if fs.Digest == bd {
		t.Error("13.0+dnn9 has the digest of 13.0")
	}
	for _, name := range []string{"13.0+nope", "13.0+dnn9+dnn9", "12.4+dnn9"} {
		if _, err := l.Entry(name); err == nil {
			t.Errorf("Entry(%s) = nil error", name)
		}
	}
}

func TestParseWheelErrors(t *testing.T) {
	file := "sha256 " + h1 + " dnn.h\n"
	for _, tc := range []struct{ in, want string }{
		{"headers h\nwheel p 1\n" + file, `x.lock:2: wheel: want 3 fields`},
		{"headers h\nwheel p 1 home\n" + file, `x.lock:2: wheel: "home" is not an environment variable name`},
		{"headers h\nwheel ../p 1 H\n" + file, `x.lock:2: wheel: package "../p"`},
		{"headers h\nwheel p 1 H\ntoolkit\n" + file, "x.lock:3: headers h has two origins"},
		{"headers h\nwheel p 1 H\nroot include\n" + file, "x.lock:1: headers h: root line with wheel origin"},
		{"lib l\nwheel p 1 H\n" + file, "x.lock:1: lib l: wheel origin: only headers entries have one"},
		{"set 1\ncuda 1.0\nwheel p 1 H\n" + file, "x.lock:1: set 1: wheel origin: only headers entries have one"},
	} {
		_, err := Parse(strings.NewReader(tc.in), "x.lock")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q):\n got %v\nwant %s", tc.in, err, tc.want)
		}
	}
}
