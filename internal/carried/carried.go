// Package carried is the IR of each header set of headers.lock that
// cugen carries (package cugen embeds the files): gen -set of such a set
// emits from it, with no download and no parse. Each IR is what `cugen
// ir -set NAME [-lib ...]` writes from the pinned headers; its Origin
// names the lock entry and the entry's digest, so an IR the lock has
// moved away from is never used, and TestCarriedMatchesHeaders re-parses
// each set whose headers are cached and compares the bytes (make ir
// rewrites them: cugen ir -carried).
package carried

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	cugen "github.com/cugen/cugen"
	"github.com/cugen/cugen/internal/lock"
	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser"
	"github.com/cugen/cugen/parser/ir"
)

// IR is one carried IR.
type IR struct {
	// Set is the headers.lock entry it is parsed from: "12.4",
	// "12.4+cudnn9".
	Set string
	// File is its path in the module, the same in cugen.IRs.
	File string
	// Libs are the libraries it was parsed with (ir -lib, with the
	// driver's and the runtime's); nil: every library of package library.
	Libs []string
	// Partial: Libs leave out libraries whose headers the set has. Such
	// an IR is not the set's: it lacks their declarations (and, parsed
	// before library.Desc.Shared, the runtime's types that their headers
	// include, cuComplex.h's and cuda_fp16.h's). Only its own library's
	// package comes from it (make's wheels-from-ir, gen -ir); gen -set
	// parses the set instead.
	Partial bool
}

// All are the carried IRs. Sets 12.4 and 13.0 are those generated/cuda12
// and generated/cuda13 are generated from; the wheels' libraries (cuDNN,
// cuSPARSELt) have IRs of their own, parsed with only their libraries;
// 11.8 and 12.5 are the other sets of the lock.
var All = []IR{
	{Set: "11.8", File: "generated/ir/11.8.json.gz"},
	{Set: "12.4", File: "generated/cuda12/ir.json.gz"},
	{Set: "12.5", File: "generated/ir/12.5.json.gz"},
	{Set: "13.0", File: "generated/cuda13/ir.json.gz", Libs: libs13},
	{Set: "12.4+cudnn9", File: "generated/cuda12/ir-cudnn.json.gz", Libs: []string{"cudnn"}, Partial: true},
	{Set: "13.0+cudnn9", File: "generated/cuda13/ir-cudnn.json.gz", Libs: []string{"cudnn"}, Partial: true},
	{Set: "12.4+cusparselt0", File: "generated/cuda12/ir-cusparselt.json.gz", Libs: []string{"cusparse", "cusparselt"}, Partial: true},
	{Set: "13.0+cusparselt0", File: "generated/cuda13/ir-cusparselt.json.gz", Libs: []string{"cusparse", "cusparselt"}, Partial: true},
}

// libs13 are the libraries of set 13.0's IR (make generate13's LIBS13):
// every library but NVTX (CUDA 13 has no nvToolsExt.h to pin) and the
// wheels' (cuDNN, cuSPARSELt), which have IRs of their own: every
// library whose headers the set has, so the IR is the set's (not Partial).
var libs13 = []string{"nvrtc", "nvjitlink", "cublas", "cublaslt", "curand", "cufft", "cusparse", "cusolver", "nvml", "nccl", "nvvm", "nvfatbin", "cupti", "cufile", "nvjpeg", "cublasxt", "cufftxt", "cusolvermg", "nppc", "nppial", "nppicc", "nppidei", "nppif", "nppig", "nppim", "nppist", "nppisu", "nppitc", "npps"}

// Find is the carried IR of the set, nil if cugen carries none.
func Find(set string) *IR {
	for i := range All {
		if All[i].Set == set {
			return &All[i]
		}
	}
	return nil
}

// Lookup is the carried IR of set of l, read and checked (Read), when it
// holds the libraries want (nil: every library); nil when cugen carries
// none that does. With another lock than the one cugen carries (other),
// an entry of the name that pins other headers is nil too: they are
// parsed.
func Lookup(l *lock.Lock, set string, want []*library.Desc, other bool) (*ir.API, error) {
	e, err := l.Entry(set)
	if err != nil {
		return nil, err
	}
	c := Find(e.Name)
	if want == nil {
		want = library.All
	}
	if c == nil || c.Partial || !c.Covers(want) {
		return nil, nil
	}
	api, err := c.Read(l, e)
	if errors.Is(err, ErrOtherHeaders) && other {
		return nil, nil
	}
	return api, err
}

// Parsed are the libraries the IR was parsed with: ParseLibs of Libs.
func (c *IR) Parsed() ([]*library.Desc, error) {
	if c.Libs == nil {
		return library.All, nil
	}
	return ParseLibs(c.Libs)
}

// ParseLibs are the libraries `ir -lib names` parses: the named ones, the
// libraries their packages import (library.Select) and the driver's and
// the runtime's, whose headers every parse reads, in the order of
// library.All.
func ParseLibs(names []string) ([]*library.Desc, error) {
	sel, err := library.Select(library.All, append([]string{library.Driver.Package, library.Runtime.Package}, names...))
	if err != nil {
		return nil, err
	}
	return sel, nil
}

// Covers says whether the IR holds every library of want.
func (c *IR) Covers(want []*library.Desc) bool {
	have, err := c.Parsed()
	if err != nil {
		return false
	}
	for _, d := range want {
		if !slices.Contains(have, d) {
			return false
		}
	}
	return true
}

// Origin is how an IR parsed from the lock entry set, of digest
// (Lock.SetDigest), names its headers (ir.API.Origin).
func Origin(set, digest string) string {
	d := strings.TrimPrefix(digest, "sha256:")
	if len(d) > 12 {
		d = d[:12]
	}
	return fmt.Sprintf("headers.lock set %s (sha256 %s)", set, d)
}

// ErrOtherHeaders is Read's error for an IR of other headers than the
// lock entry pins.
var ErrOtherHeaders = errors.New("the lock pins other headers than the IR was parsed from")

// Read decodes the carried IR and checks that it is of entry e of l: its
// Origin names the entry and its digest. An IR of another digest (the
// lock pins other headers than those it was parsed from) is an error.
func (c *IR) Read(l *lock.Lock, e *lock.Entry) (*ir.API, error) {
	b, err := cugen.IRs.ReadFile(c.File)
	if err != nil {
		return nil, fmt.Errorf("cugen: carried IR of set %s: %w", c.Set, err)
	}
	api, err := ir.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("cugen: carried IR %s: %w", c.File, err)
	}
	digest, err := l.SetDigest(e)
	if err != nil {
		return nil, err
	}
	if want := Origin(e.Name, digest); api.Origin != want {
		return nil, fmt.Errorf("cugen: carried IR %s is of %q, not of %s of %s (%s): %w", c.File, api.Origin, e, l.Path, want, ErrOtherHeaders)
	}
	return api, nil
}

// Encode parses the headers of fs, the fetched (or cached) set of the IR,
// as `cugen ir -set SET [-lib ...]` does, and returns the bytes the
// carried file holds: deterministic, so a file that differs from them
// has drifted from the pinned headers or from the parser.
func (c *IR) Encode(fs *lock.FetchedSet) ([]byte, error) {
	libs, err := c.Parsed()
	if err != nil {
		return nil, err
	}
	api, err := parser.ParseWith(fs.Dir, parser.Options{
		Libraries: libs,
		Extra:     fs.WithDirs,
		Pinned:    fs.Pinned,
		PinnedBy:  fmt.Sprintf("%s (cugen lock -set %s pins a header added to the parser's list)", fs.Set, fs.Set.Name),
	})
	if err != nil {
		return nil, err
	}
	api.Origin = Origin(fs.Set.Name, fs.Digest)
	var b bytes.Buffer
	if err := ir.Encode(&b, api, true); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Debian says whether the set's headers all come from Debian's packages
// (fetched anywhere); a toolkit's or a wheel's are verified in place,
// where the machine has them.
func Debian(l *lock.Lock, e *lock.Entry) bool {
	with, err := l.With(e) // a derived set's: its base's and its own
	if err != nil || e.Base().Deb == nil {
		return false
	}
	for _, w := range with {
		if w.Deb == nil {
			return false
		}
	}
	return true
}

// Regenerate writes each carried IR (File, relative to root, the module's
// directory) from its pinned headers, fetched as gen -set fetches them;
// with check it writes nothing and fails naming each file that differs.
// A set whose headers are not Debian's (a toolkit's, a wheel's) is parsed
// where they are (CUDA_HOME, the wheel's variable), and skipped with a
// note where they are not.
func Regenerate(ctx context.Context, l *lock.Lock, root string, check bool, w io.Writer) error {
	var stale []string
	for _, c := range All {
		e, err := l.Entry(c.Set)
		if err != nil {
			return err
		}
		fetch := l.FetchSetEntry
		if !Debian(l, e) {
			fetch = func(_ context.Context, e *lock.Entry, dir string, _ io.Writer) (*lock.FetchedSet, error) {
				return l.CachedSetEntry(e, dir)
			}
		}
		fs, err := fetch(ctx, e, "", w)
		if err != nil {
			if Debian(l, e) {
				return err
			}
			first, _, _ := strings.Cut(err.Error(), "\n")
			fmt.Fprintf(w, "cugen: %s: not checked, its headers are not here: %s\n", c.File, first)
			continue
		}
		b, err := c.Encode(fs)
		if err != nil {
			return err
		}
		file := filepath.Join(root, filepath.FromSlash(c.File))
		if check {
			old, err := os.ReadFile(file)
			if err != nil || !bytes.Equal(old, b) {
				stale = append(stale, c.File)
				fmt.Fprintf(w, "cugen: %s differs from what set %s's headers parse into\n", c.File, c.Set)
				continue
			}
			fmt.Fprintf(w, "cugen: %s is up to date\n", c.File)
			continue
		}
		if err := lock.WriteFileAtomic(file, b, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(w, "cugen: %s: set %s, %d bytes\n", c.File, c.Set, len(b))
	}
	if len(stale) > 0 {
		return fmt.Errorf("cugen ir -carried -check: %d carried IR(s) stale (%s): run cugen ir -carried (make ir)", len(stale), strings.Join(stale, ", "))
	}
	return nil
}
