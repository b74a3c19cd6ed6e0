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
	"errors"
	"fmt"
	"slices"
	"strings"

	cugen "github.com/cugen/cugen"
	"github.com/cugen/cugen/internal/lock"
	"github.com/cugen/cugen/library"
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
}

// All are the carried IRs. Sets 12.4 and 13.0 are those generated/cuda12
// and generated/cuda13 are generated from; the wheels' libraries (cuDNN,
// cuSPARSELt) have IRs of their own, parsed with only their libraries;
// 11.8 and 12.5 are the other sets of the lock.
var All = []IR{
	{Set: "11.8", File: "generated/ir/11.8.json.gz"},
	{Set: "12.4", File: "generated/cuda12/ir.json.gz"},
	{Set: "12.5", File: "generated/ir/12.5.json.gz"},
	{Set: "13.0", File: "generated/cuda13/ir.json.gz"},
	{Set: "12.4+cudnn9", File: "generated/cuda12/ir-cudnn.json.gz", Libs: []string{"cudnn"}},
	{Set: "13.0+cudnn9", File: "generated/cuda13/ir-cudnn.json.gz", Libs: []string{"cudnn"}},
	{Set: "12.4+cusparselt0", File: "generated/cuda12/ir-cusparselt.json.gz", Libs: []string{"cusparse", "cusparselt"}},
	{Set: "13.0+cusparselt0", File: "generated/cuda13/ir-cusparselt.json.gz", Libs: []string{"cusparse", "cusparselt"}},
}

// Find is the carried IR of the set, nil if cugen carries none.
func Find(set string) *IR {
	for i := range All {
		if All[i].Set == set {
			return &All[i]
		}
	}
	return nil
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
