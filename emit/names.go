package emit

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"
	"unicode"

	"github.com/cugen/cugen/library"
)

// Tag words and suffixes that carry no meaning in Go.
var dropSuffixes = []string{"_enum", "_union", "_st", "_t"}

// goName is goNameDropping with the library's prefixes (Desc.Prefixes):
// the package name already says "CUDA" or "NVRTC".
func (m *model) goName(c string) string { return goNameDropping(c, m.desc.Prefixes) }

// goNameDropping turns a C identifier into an exported Go identifier,
// dropping the first of prefixes (longest first, so CUDART_ wins over
// CUDA_ and CU) it starts with at a word boundary: cuCtxGetCurrent ->
// CtxGetCurrent, CUDA_ERROR_NOT_INITIALIZED -> ErrorNotInitialized, struct
// cudaDeviceProp -> DeviceProp, CUdeviceptr_v2 -> DeviceptrV2.
func goNameDropping(c string, prefixes []string) string {
	c = stripKeyword(c)
	base := c
	for _, s := range dropSuffixes {
		if strings.HasSuffix(base, s) && len(base) > len(s) {
			base = strings.TrimSuffix(base, s)
			break
		}
	}
	for _, p := range prefixes {
		if strings.HasPrefix(base, p) && len(base) > len(p) {
			rest := strings.TrimPrefix(base, p)
			// Only drop a prefix at a word boundary: cudaMalloc, CUcontext,
			// CU_CTX_..., but not "cube" or "current".
			r := rune(rest[0])
			if strings.HasSuffix(p, "_") || unicode.IsUpper(r) || p == "CU" && unicode.IsLower(r) {
				if t := strings.TrimLeft(rest, "_"); t != "" && unicode.IsLetter(rune(t[0])) {
					base = rest
				}
				break
			}
		}
	}
	return camel(base)
}

// fullGoName is the collision fallback: the C name in CamelCase with its
// prefix kept (cudaErrorX -> CudaErrorX, CU_LAUNCH_PARAM_END -> CuLaunchParamEnd).
func fullGoName(c string) string {
	return camel(stripKeyword(c))
}

func stripKeyword(c string) string {
	for _, k := range []string{"struct ", "union ", "enum "} {
		c = strings.TrimPrefix(c, k)
	}
	return c
}

// camel joins the '_'-separated words of s, each capitalised; a word written
// in capitals (MEMCPY2D, ERROR) is lowered after its first letter, except
// for a letter right after a digit (2D, 3D stay as written).
func camel(s string) string {
	var b strings.Builder
	for _, w := range strings.Split(s, "_") {
		if w == "" {
			continue
		}
		if isUpperWord(w) {
			rs := []rune(w)
			for i := 1; i < len(rs); i++ {
				if !unicode.IsDigit(rs[i-1]) {
					rs[i] = unicode.ToLower(rs[i])
				}
			}
			w = string(rs)
		}
		rs := []rune(w)
		rs[0] = unicode.ToUpper(rs[0])
		b.WriteString(string(rs))
	}
	out := b.String()
	if out == "" || !unicode.IsLetter(rune(out[0])) {
		out = "X" + out
	}
	return out
}

func isUpperWord(w string) bool {
	hasUpper := false
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsUpper(r) {
			hasUpper = true
		}
	}
	return hasUpper
}

// goParamName is goParamNames for one parameter.
func goParamName(c string) string { return goParamNames([]string{c})[0] }

// goParamNames makes the C parameter names of one function (or callback
// signature) Go parameter names, by one rule:
//
//   - the first letter is lowered (Flags -> flags), an unnamed parameter
//     is arg;
//   - the _out marker of an output is dropped (captureStatus_out ->
//     captureStatus), or spelled Out if another parameter has the plain
//     name;
//   - C's Hungarian pointer prefix p, ph or pp before an upper-case letter
//     is dropped and the rest lowered as Go spells it (phStream -> stream,
//     pMilliseconds -> milliseconds, ppData -> data, pUUID -> uuid),
//     or, where that is reserved (below), its rename (pType -> typ,
//     pFunc -> fn); where those are taken or there is none, the name
//     keeps its prefix (pCopy stays pCopy);
//   - a Go keyword, a predeclared identifier or a name the generated body
//     uses (bodyNames) is replaced by its entry in paramRenames (error ->
//     errorCode, type -> typ, func -> fn, len -> length), the first one no
//     other parameter has, else gets Arg appended (string -> stringArg).
func goParamNames(cs []string) []string {
	lowered := make([]string, len(cs))
	plain := map[string]bool{}
	for i, c := range cs {
		n := "arg"
		if c != "" {
			rs := []rune(c)
			rs[0] = unicode.ToLower(rs[0])
			n = string(rs)
		}
		lowered[i] = n
		plain[n] = true
	}
	out := make([]string, len(cs))
	used := map[string]bool{}
	for i, n := range lowered {
		var cands []string
		if s := unhungarian(strings.TrimSuffix(cs[i], "_out")); s != "" {
			cands = append(append(cands, s), paramRenames[s]...) // pType -> typ
		}
		switch base, ok := strings.CutSuffix(n, "_out"); {
		case ok && base != "":
			cands = append(cands, base, base+"Out")
		case reservedParam(n):
			cands = append(append(cands, paramRenames[n]...), n+"Arg")
		default:
			cands = append(cands, n)
		}
		for _, c := range cands {
			if !reservedParam(c) && !used[c] && (c == n || !plain[c]) {
				out[i] = c
				break
			}
		}
		if out[i] == "" { // every candidate taken: number it
			out[i] = fmt.Sprintf("%sArg%d", n, i)
		}
		used[out[i]] = true
	}
	return out
}

// unhungarian is c without its Hungarian pointer prefix (p, ph or pp
// before an upper-case letter), lowered as a Go name: phStream -> stream,
// pUUID -> uuid, pCUBINSize -> cubinSize; "" when c has no such prefix.
func unhungarian(c string) string {
	for _, pre := range []string{"pp", "ph", "p"} {
		rest, ok := strings.CutPrefix(c, pre)
		if !ok || rest == "" || !unicode.IsUpper(rune(rest[0])) {
			continue
		}
		if !isIdent(rest) {
			return ""
		}
		return lowerInitial(rest)
	}
	return ""
}

// lowerInitial lowers the leading upper-case run of an identifier as Go
// spells an initialism at the start of a name: Count -> count, UUID ->
// uuid, CUBINSize -> cubinSize (the last capital starts the next word).
func lowerInitial(s string) string {
	rs := []rune(s)
	n := 0
	for n < len(rs) && unicode.IsUpper(rs[n]) {
		n++
	}
	if n > 1 && n < len(rs) && unicode.IsLower(rs[n]) {
		n-- // the capital of the next word
	}
	for i := 0; i < n; i++ {
		rs[i] = unicode.ToLower(rs[i])
	}
	return string(rs)
}

func isIdent(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			return false
		}
	}
	return s != ""
}

// paramRenames are the Go names of C parameter names that Go or the
// generated body already uses, in order of preference.
var paramRenames = map[string][]string{
	"error": {"errorCode"}, // err is the wrapper's error result
	"err":   {"errorCode"},
	"type":  {"typ"},
	"func":  {"fn", "kernel"},
	"len":   {"length", "n"},
	"map":   {"m"},
}

// reservedParam reports whether a parameter named n would clash with Go
// (a keyword, or a predeclared identifier such as len, string or uintptr,
// which a body or a parameter type may use) or with bodyNames.
func reservedParam(n string) bool {
	return n == "_" || token.IsKeyword(n) || types.Universe.Lookup(n) != nil || bodyNames[n] || libraryPackage(n)
}

// libraryPackage reports the name of a generated package, which a wrapper
// of a later package imports (cudart.Stream in cublas).
func libraryPackage(n string) bool {
	for _, d := range library.All {
		if d.Package == n {
			return true
		}
	}
	return false
}

// bodyNames are the identifiers a generated wrapper declares or refers to
// besides its parameters: its locals, the packages it imports and the
// package-level helpers it calls. (Temporaries are named after the
// parameter they serve: nameC, nameBuf, nameP.)
var bodyNames = map[string]bool{
	// locals
	"sym": true, "err": true, "r": true, "rc": true, "ret": true, "frame": true,
	"hdl": true, "cbAddr": true, "cbScope": true, "cbGraph": true, "ownerGraph": true,
	// packages
	"ffi": true, "ffiimpl": true, "unsafe": true, "runtime": true, "sync": true,
	// package-level helpers
	"captureGraph": true, "retainHandle": true, "callbackRegistry": true,
}

// goNames is one scope of the Go names cugen generates: a package's top
// level, a type's fields and methods, or one struct's fields. It is the
// one collision rule of kernels packages (kernel methods, struct types,
// struct fields) and of the records of every generated package (fields
// and accessors), and assignNames' for a package's top level:
// a name is refused if it is not an identifier, is a Go keyword or a
// predeclared identifier, is one cugen generates itself in the scope, or
// is already another C name's. Names are claimed before any file is
// rendered, and the error names both claimants and the Go name.
type goNames struct {
	scope string            // "package saxpy", "type Kernels"
	by    map[string]string // Go name -> what claimed it
}

func newGoNames(scope string) *goNames {
	return &goNames{scope: scope, by: map[string]string{}}
}

// reserve claims names for cugen's own code, owner saying whose they are
// ("(cugen)"); reserveEach names each "cugen's method Close".
func (ns *goNames) reserve(owner string, names ...string) {
	for _, n := range names {
		ns.by[n] = owner
	}
}

func (ns *goNames) reserveEach(kind string, names ...string) {
	for _, n := range names {
		ns.by[n] = kind + " " + n
	}
}

// owner is what claimed the Go name n, if anything.
func (ns *goNames) owner(n string) (string, bool) {
	w, ok := ns.by[n]
	return w, ok
}

// add claims the Go name n for what ("kernel close", "field x of struct
// S"). The blank identifier may be claimed any number of times.
func (ns *goNames) add(what, n string) error {
	switch {
	case n == "_":
		return nil
	case !isIdent(n) || unicode.IsDigit([]rune(n)[0]):
		return fmt.Errorf("%s: %q is not a Go identifier", what, n)
	case token.IsKeyword(n):
		return fmt.Errorf("%s becomes %s in %s: a Go keyword", what, n, ns.scope)
	case types.Universe.Lookup(n) != nil:
		return fmt.Errorf("%s becomes %s in %s: Go's predeclared %s", what, n, ns.scope, n)
	}
	if prev, ok := ns.by[n]; ok {
		return fmt.Errorf("%s and %s both become the Go name %s in %s", prev, what, n, ns.scope)
	}
	ns.by[n] = what
	return nil
}
