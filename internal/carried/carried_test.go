package carried

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	cugen "github.com/cugen/cugen"
	"github.com/cugen/cugen/internal/lock"
	"github.com/cugen/cugen/internal/testset"
	"github.com/cugen/cugen/library"
)

// TestCarriedMatchesHeaders: each carried IR is, byte for byte, what its
// set's pinned headers parse into today (cugen ir -set SET), so a change
// of the parser or of the lock that changes an IR fails here until
// cugen ir -carried (make ir) rewrites it. A Debian set not in the cache
// skips, or fails under CUGEN_REQUIRE_HEADERS=1 (make test); a toolkit's
// or wheel's set skips where its headers are not.
func TestCarriedMatchesHeaders(t *testing.T) {
	l := testset.Lock(t)
	for _, c := range All {
		t.Run(c.Set, func(t *testing.T) {
			e, err := l.Entry(c.Set)
			if err != nil {
				t.Fatal(err)
			}
			var fs *lock.FetchedSet
			if Debian(l, e) {
				fs = testset.Set(t, c.Set)
			} else {
				var skip string
				if fs, skip, err = testset.Find(c.Set); err != nil || skip != "" {
					t.Skipf("headers of set %s are not here (%v%s)", c.Set, err, skip)
				}
			}
			want, err := c.Encode(fs)
			if err != nil {
				t.Fatal(err)
			}
			got, err := cugen.IRs.ReadFile(c.File)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s (%d bytes) is not what set %s's headers parse into (%d bytes): run cugen ir -carried (make ir)", c.File, len(got), c.Set, len(want))
			}
		})
	}
}

// TestCarriedRead: every carried IR decodes, is of its lock entry's
// digest and holds only the libraries it says; a lock whose entry pins
// other headers is refused with ErrOtherHeaders.
func TestCarriedRead(t *testing.T) {
	l, err := lock.Parse(bytes.NewReader(cugen.HeadersLock), "headers.lock")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range All {
		e, err := l.Entry(c.Set)
		if err != nil {
			t.Fatal(err)
		}
		api, err := c.Read(l, e)
		if err != nil {
			t.Errorf("%s: %v", c.File, err)
			continue
		}
		parsed, err := c.Parsed()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range api.Functions {
			if !slices.ContainsFunc(parsed, func(d *library.Desc) bool { return d.Key == f.Library }) {
				t.Errorf("%s: function %s of library %s, which it does not say it holds", c.File, f.Name, f.Library)
				break
			}
		}
	}
	moved := bytes.Replace(cugen.HeadersLock, []byte("\tcuda 12.4.1\n"), []byte("\tcuda 12.4.2\n"), 1)
	l2, err := lock.Parse(bytes.NewReader(moved), "moved.lock")
	if err != nil {
		t.Fatal(err)
	}
	e, err := l2.Entry("12.4")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Find("12.4").Read(l2, e); !errors.Is(err, ErrOtherHeaders) {
		t.Errorf("set 12.4 of a lock pinning other headers: %v, want ErrOtherHeaders", err)
	}
	// Lookup: another lock's entry is parsed (nil), the carried lock's is
	// an error; an IR without a library asked for is nil.
	if api, err := Lookup(l2, "12.4", nil, true); api != nil || err != nil {
		t.Errorf("Lookup of another lock's 12.4: %v, %v; want nil, nil", api != nil, err)
	}
	if _, err := Lookup(l2, "12.4", nil, false); !errors.Is(err, ErrOtherHeaders) {
		t.Errorf("Lookup of the carried lock's 12.4, moved: %v; want ErrOtherHeaders", err)
	}
	if api, err := Lookup(l, "12.4+cudnn9", []*library.Desc{library.CuBLAS}, false); api != nil || err != nil {
		t.Errorf("Lookup of 12.4+cudnn9 for cublas: %v, %v; want nil, nil (its IR holds cudnn only)", api != nil, err)
	}
	// A wheel's IR is Partial: its cudart is not the set's.
	if api, err := Lookup(l, "12.4+cudnn9", []*library.Desc{library.CuDNN, library.Runtime}, false); api != nil || err != nil {
		t.Errorf("Lookup of 12.4+cudnn9 for cudnn: %v, %v; want nil, nil (Partial)", api != nil, err)
	}
	if api, err := Lookup(l, "13.0", []*library.Desc{library.Driver, library.Runtime, library.NVRTC}, false); api == nil || err != nil {
		t.Errorf("Lookup of 13.0 for cu, cudart, nvrtc: %v, %v; want the IR", api != nil, err)
	}
}
