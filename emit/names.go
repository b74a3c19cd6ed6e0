package emit

import (
	"strings"
	"unicode"
)

// C prefixes dropped from every name, longest first so CUDART_ wins over
// CUDA_ and CU. The package name already says "CUDA".
var dropPrefixes = []string{"CUDART_", "CUDA_", "CU_", "cuda", "CU", "cu"}

// Tag words and suffixes that carry no meaning in Go.
var dropSuffixes = []string{"_enum", "_union", "_st", "_t"}

// goName turns a C identifier into an exported Go identifier:
// cuCtxGetCurrent -> CtxGetCurrent, CUDA_ERROR_NOT_INITIALIZED ->
// ErrorNotInitialized, struct cudaDeviceProp -> DeviceProp,
// CUdeviceptr_v2 -> DeviceptrV2.
func goName(c string) string {
	c = stripKeyword(c)
	base := c
	for _, s := range dropSuffixes {
		if strings.HasSuffix(base, s) && len(base) > len(s) {
			base = strings.TrimSuffix(base, s)
			break
		}
	}
	for _, p := range dropPrefixes {
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

// goParamName makes a C parameter name a valid, unexported Go identifier.
func goParamName(c string) string {
	if c == "" {
		return "arg"
	}
	rs := []rune(c)
	rs[0] = unicode.ToLower(rs[0])
	n := string(rs)
	if goKeywords[n] || predeclared[n] {
		n += "_"
	}
	return n
}

var goKeywords = map[string]bool{
	"break": true, "case": true, "chan": true, "const": true, "continue": true, "default": true,
	"defer": true, "else": true, "fallthrough": true, "for": true, "func": true, "go": true,
	"goto": true, "if": true, "import": true, "interface": true, "map": true, "package": true,
	"range": true, "return": true, "select": true, "struct": true, "switch": true, "type": true, "var": true,
}

// predeclared names a parameter must not shadow in generated bodies.
var predeclared = map[string]bool{
	"len": true, "cap": true, "string": true, "int": true, "byte": true, "error": true,
	"err": true, "unsafe": true, "ffi": true, "runtime": true, "fnPtr": true, "frame": true, "rc": true,
	"hdl": true, "cbAddr": true, "cbScope": true, "cbGraph": true, "ownerGraph": true, "fnC": true, "lerr": true, "ferr": true, "ret": true, "raw": true,
	"copy": true, "new": true, "make": true, "nil": true, "true": true, "false": true,
	"uintptr": true, "any": true, "append": true, "delete": true, "close": true, "min": true, "max": true,
	"print": true, "panic": true, "real": true, "imag": true, "clear": true,
}
