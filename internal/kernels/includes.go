package kernels

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/cugen/cugen/internal/bounded"
)

// Includes are resolved by cugen, not by NVRTC, so that NVRTC opens no file
// of the user's: a FIFO named by an #include would block its open for good,
// and a device or a huge file would be read without a bound. The rule:
//
//   - every #include (and #include_next, #import, __has_include) of the
//     source and of each header it reaches is read by cugen: a quoted name
//     from the including file's directory, then from each -I directory in
//     order; a name in angle brackets from each -I directory; an absolute
//     name as it stands;
//   - what is found must be a regular file of at most bounded.Header bytes,
//     at most maxIncludeFiles files and maxIncludeBytes in all, reached
//     through at most maxIncludeDepth nested includes;
//   - NVRTC is handed each one as an in-memory header under the name the
//     directive spells (nvrtcCreateProgram's headers), and is passed no -I
//     and --no-source-include, so it searches no directory of its own;
//   - a relative name cugen does not find is left to NVRTC, whose only
//     headers are then its built-in ones (cuda_fp16.h in the NVRTCs that
//     have it); an absolute name that does not exist becomes a header
//     holding an #error, which fails the compile if the include is reached.
//
// One name must mean one file: two files reached under the same name
// (util.h next to two different includers) is an error naming both.
const (
	maxIncludeFiles = 2048
	maxIncludeDepth = 64
	maxIncludeBytes = 64 << 20
)

// errNotDir: a candidate under a path that has a file where a directory
// would be is not there.
var errNotDir = syscall.ENOTDIR

// A Header is an include resolved for NVRTC.
type Header struct {
	Name string // as the directive spells it
	Path string // the file read; "" for a stub
	Text string
}

// includeRef is one #include found in a file.
type includeRef struct {
	name  string
	angle bool
	line  int
}

// resolveIncludes reads every header that src (read from srcPath) reaches,
// by the rule above, in the order first reached.
func resolveIncludes(src []byte, srcPath string, dirs []string) ([]Header, error) {
	type item struct {
		data  []byte
		path  string // the file, as cugen opened it
		shown string // as errors name it
		depth int
	}
	var out []Header
	byName := map[string]int{} // name -> index in out
	seen := map[string]bool{}  // paths read
	total := 0
	queue := []item{{src, srcPath, filepath.Base(srcPath), 0}}
	seen[filepath.Clean(srcPath)] = true
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		refs, err := scanIncludes(it.data, it.shown)
		if err != nil {
			return nil, err
		}
		for _, r := range refs {
			where := fmt.Sprintf("%s:%d", it.shown, r.line)
			path, err := findInclude(r, filepath.Dir(it.path), dirs)
			if err != nil {
				return nil, fmt.Errorf("%s: #include %s: %w", where, r.spelled(), err)
			}
			if path == "" {
				if !filepath.IsAbs(r.name) {
					continue // NVRTC's built-in headers, or its own error
				}
				if _, ok := byName[r.name]; !ok {
					byName[r.name] = len(out)
					out = append(out, Header{Name: r.name, Text: fmt.Sprintf("#error cugen kernels: %s: no such file\n", r.name)})
				}
				continue
			}
			if i, ok := byName[r.name]; ok {
				if out[i].Path != path {
					return nil, fmt.Errorf("%s: #include %s is %s here but %s elsewhere: one include name must mean one file to NVRTC; rename one", where, r.spelled(), path, out[i].Path)
				}
				continue
			}
			if it.depth+1 > maxIncludeDepth {
				return nil, fmt.Errorf("%s: #include %s: includes nested more than %d deep", where, r.spelled(), maxIncludeDepth)
			}
			if len(out) >= maxIncludeFiles {
				return nil, fmt.Errorf("%s: #include %s: more than %d headers included", where, r.spelled(), maxIncludeFiles)
			}
			data, err := bounded.ReadFile(path, bounded.Options{Limit: bounded.Header, What: "a header"})
			if err != nil {
				return nil, fmt.Errorf("%s: #include %s (%s): %w", where, r.spelled(), path, err)
			}
			if total += len(data); total > maxIncludeBytes {
				return nil, fmt.Errorf("%s: #include %s: the headers included are more than %s in all", where, r.spelled(), bounded.Size(maxIncludeBytes))
			}
			byName[r.name] = len(out)
			out = append(out, Header{Name: r.name, Path: path, Text: string(data)})
			if !seen[path] {
				seen[path] = true
				queue = append(queue, item{data, path, r.name, it.depth + 1})
			}
		}
	}
	return out, nil
}

func (r includeRef) spelled() string {
	if r.angle {
		return "<" + r.name + ">"
	}
	return `"` + r.name + `"`
}

// findInclude returns the file r names (cleaned), or "" when there is none.
// Only stat looks at candidates: a FIFO is found, and refused when read.
func findInclude(r includeRef, dir string, dirs []string) (string, error) {
	var cands []string
	switch {
	case filepath.IsAbs(r.name):
		cands = []string{r.name}
	case r.angle:
		for _, d := range dirs {
			cands = append(cands, filepath.Join(d, r.name))
		}
	default:
		cands = append(cands, filepath.Join(dir, r.name))
		for _, d := range dirs {
			cands = append(cands, filepath.Join(d, r.name))
		}
	}
	for _, c := range cands {
		c = filepath.Clean(c)
		_, err := os.Stat(c)
		if err == nil {
			return c, nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, errNotDir) {
			return "", fmt.Errorf("%s: %w", c, err)
		}
	}
	return "", nil
}

// scanIncludes finds the includes of one file: each #include, #include_next
// and #import directive, and each __has_include. It sees no conditionals
// (an include under #if 0 is read too) and no comments (an #include line in
// a block comment is read too): reading one header too many is safe, leaving
// one to NVRTC is not. A computed include (#include MACRO) is an error, as
// cugen cannot tell what it names.
func scanIncludes(data []byte, file string) ([]includeRef, error) {
	var refs []includeRef
	line := 0
	for rest := data; len(rest) > 0; {
		line++
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte("\n"))
		first := line
		// a directive's continuation lines
		for bytes.HasSuffix(bytes.TrimRight(l, "\r"), []byte(`\`)) && len(rest) > 0 {
			var next []byte
			next, rest, _ = bytes.Cut(rest, []byte("\n"))
			l = append(bytes.TrimSuffix(bytes.TrimRight(slices.Clip(l), "\r"), []byte(`\`)), next...)
			line++
		}
		if t := bytes.TrimLeft(l, " \t"); bytes.HasPrefix(t, []byte("#")) {
			t = bytes.TrimLeft(t[1:], " \t")
			for _, d := range []string{"include_next", "include", "import"} {
				if arg, ok := bytes.CutPrefix(t, []byte(d)); ok && (len(arg) == 0 || arg[0] == ' ' || arg[0] == '\t' || arg[0] == '"' || arg[0] == '<') {
					r, ok := includeName(bytes.TrimLeft(arg, " \t"))
					if !ok {
						return nil, fmt.Errorf("%s:%d: #%s %s: a computed include (or none): cugen resolves includes itself, so spell the name as \"name\" or <name>", file, first, d, bytes.TrimSpace(arg))
					}
					r.line = first
					refs = append(refs, r)
					break
				}
			}
		}
		// a macro's definition names it without using it:
		// #define __has_include(...) 0 (libcu++'s fallback) reaches nothing
		scan := l
		if t := bytes.TrimLeft(l, " \t"); bytes.HasPrefix(t, []byte("#")) {
			if arg, ok := bytes.CutPrefix(bytes.TrimLeft(t[1:], " \t"), []byte("define")); ok && len(arg) > 0 && (arg[0] == ' ' || arg[0] == '\t') {
				arg = bytes.TrimLeft(arg, " \t")
				end := bytes.IndexFunc(arg, func(r rune) bool {
					return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
				})
				if end < 0 {
					end = len(arg)
				}
				scan = arg[end:]
			}
		}
		for _, kw := range [][]byte{[]byte("__has_include_next"), []byte("__has_include")} {
			for s := scan; ; {
				i := bytes.Index(s, kw)
				if i < 0 {
					break
				}
				s = s[i+len(kw):]
				if kw[len(kw)-1] == 'e' && bytes.HasPrefix(s, []byte("_next")) {
					continue // __has_include_next, read by its own keyword
				}
				arg := bytes.TrimLeft(s, " \t")
				if !bytes.HasPrefix(arg, []byte("(")) {
					continue // the macro's name alone (#ifdef __has_include)
				}
				r, ok := includeName(bytes.TrimLeft(arg[1:], " \t"))
				if !ok {
					return nil, fmt.Errorf("%s:%d: %s with a computed name: spell it as \"name\" or <name>", file, first, kw)
				}
				r.line = first
				refs = append(refs, r)
			}
		}
	}
	return refs, nil
}

// includeName reads "name" or <name> at the start of s.
func includeName(s []byte) (includeRef, bool) {
	if len(s) < 2 {
		return includeRef{}, false
	}
	closer := byte('"')
	if s[0] == '<' {
		closer = '>'
	} else if s[0] != '"' {
		return includeRef{}, false
	}
	end := bytes.IndexByte(s[1:], closer)
	if end <= 0 {
		return includeRef{}, false
	}
	name := string(s[1 : 1+end])
	if bytes.ContainsAny([]byte(name), "\x00\n") {
		return includeRef{}, false
	}
	return includeRef{name: name, angle: closer == '>'}, true
}
