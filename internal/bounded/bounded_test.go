package bounded

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cugen/cugen/internal/namedpipe"
)

// TestRules: each rule, on a file that would otherwise hang or read
// without end, returns at once with its kind of error and no path in the
// text (callers name the file).
func TestRules(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := namedpipe.Make(fifo); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	sparse := filepath.Join(dir, "sparse")
	if err := os.WriteFile(sparse, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 1<<30); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	o := Options{Limit: Header, What: "a header"}
	in := Options{Limit: Header, What: "a header", Root: dir}
	type rule struct {
		path string
		o    Options
		kind error
	}
	cases := []rule{
		{fifo, o, ErrNotRegular},
		{"/dev/zero", o, ErrNotRegular},
		{dir, o, ErrNotRegular},
		{sparse, o, ErrTooLarge},
		{link, in, ErrOutside},
		{small, Options{Limit: 2}, ErrTooLarge},
	}
	if _, err := os.Stat("/proc/self/pagemap"); err == nil {
		cases = append(cases, rule{"/proc/self/pagemap", o, ErrTooLarge}) // size 0, reads without end
	}
	for _, c := range cases {
		done := make(chan [2]error, 1)
		go func() {
			_, e1 := ReadFile(c.path, c.o)
			_, e2 := HashFile(c.path, c.o)
			done <- [2]error{e1, e2}
		}()
		select {
		case errs := <-done:
			for _, err := range errs {
				var be *Error
				if !errors.As(err, &be) || !errors.Is(err, c.kind) {
					t.Errorf("%s: %v, want %v", c.path, err, c.kind)
				}
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: no answer within 30 s", c.path)
		}
	}
	if b, err := ReadFile(small, in); err != nil || string(b) != "abc" {
		t.Errorf("ReadFile(small) = %q, %v", b, err)
	}
	if s, err := HashFile(small, in); err != nil || s != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("HashFile(small) = %s, %v", s, err)
	}
}

// TestReadPastSizeNamesWhat: a file that reads past the limit its size
// said it kept within (/proc/self/pagemap reports 0) is refused by
// ReadFile and HashFile alike, naming what it was read as. Was: HashFile
// said "a file" whatever Options.What was.
func TestReadPastSizeNamesWhat(t *testing.T) {
	if _, err := os.Stat("/proc/self/pagemap"); err != nil {
		t.Skip(err)
	}
	o := Options{Limit: 1 << 20, What: "a header"}
	want := "more than the 1 MiB a header may have"
	if _, err := ReadFile("/proc/self/pagemap", o); err == nil || err.Error() != want {
		t.Errorf("ReadFile: %v, want %q", err, want)
	}
	if _, err := HashFile("/proc/self/pagemap", o); err == nil || err.Error() != want {
		t.Errorf("HashFile: %v, want %q", err, want)
	}
}
