package parser

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cugen/cugen/internal/bounded"
	"github.com/cugen/cugen/parser/ir"
)

// Bounds on what the C front end is given. Every input either parses within
// them or fails with an *Error naming the file (and line where there is
// one): the parser never runs out of memory, never hangs and never crashes
// on a header, and a bound that trips fails the run instead of dropping
// declarations. The real CUDA 11.8-13.0 headers need a small part of each
// (see docs/reliability.md for the measured values).
const (
	// maxFileSize bounds one header file (the largest CUDA header,
	// cuda.h of 13.0, is about 1 MB).
	maxFileSize = bounded.Header
	// maxTotalSize bounds the bytes of all headers a parse reads, the
	// system's included (CUDA 12.4 with libc: 5.7 MB; with NPP's
	// headers, 7 MB of them: 12.8 MB).
	maxTotalSize = 32 << 20
	// maxOutput bounds the preprocessed translation unit, which is what
	// the C parser holds in memory (CUDA 12.4 with CUPTI and cuFile: about
	// 1.1 MB; with NPP's, 3.3 MB). An #include nested without end (a
	// header including itself without a guard) stops here.
	maxOutput = 16 << 20
	// maxNesting bounds how deeply (, [ and { nest, in a header's text and
	// in the preprocessed translation unit, macros expanded: clang's
	// default -fbracket-depth. The C front end parses nesting by
	// recursion, and Go cannot recover from a stack overflow.
	maxNesting = 256
	// maxTokens bounds the tokens of all headers read (counted roughly:
	// an operator of two characters counts two), skipped #if branches
	// included, since the preprocessor tokenizes those too (CUDA 12.4:
	// 261,000; with NPP's headers, 614,000).
	maxTokens = 2_000_000
	// maxMacros bounds the number of object-like macros: the C front end
	// evaluates each after the parse, at about 0.1 ms apiece (CUDA 13.0
	// with libc: about 1,500).
	maxMacros = 16384
	// maxIncludeDepth bounds how deeply #include nests, as gcc's 200.
	maxIncludeDepth = 200
)

// A budgetError is a bound or rule of the source file system that a parse
// broke. The first one is kept; cc only sees "not found" for the file and
// its own error, if any, gives the #include line.
type budgetError struct {
	err *Error
}

// sourceFS serves the files the C front end opens: regular files only,
// read once into memory within the size bounds, checked (no NUL bytes, no
// nesting beyond maxNesting, no #include leaving the header directory) and
// remembered, so that both passes of a parse read the same bytes and
// headers.lock can pin exactly those.
type sourceFS struct {
	p     *parse
	first bool // the first pass's: files between include markers
}

// servedFile is one file as the parse read it.
type servedFile struct {
	data   []byte
	shown  string // its name in messages: header-relative or <sys.h>
	marked []byte // data between include markers, for the first pass
}

// Include markers: the first pass reads every file between two string
// literals (no macro can change a string literal), so outputBound sees
// each inclusion begin and end and can bound how deeply includes nest.
// cc's own include depth check does not work (cc/v4 v4.34.0 decrements its
// counter as soon as the included file is pushed), and a header including
// itself without a guard otherwise recurses until memory runs out.
const (
	beginMarker = `"__cugen_begin__`
	endMarker   = `"__cugen_end__"`
)

func (f *servedFile) markedData(index int) []byte {
	if f.marked == nil {
		begin := fmt.Sprintf("%s %d\"\n", beginMarker, index)
		const end = "\n" + endMarker + "\n"
		b := make([]byte, 0, len(begin)+len(f.data)+len(end))
		b = append(append(append(b, begin...), f.data...), end...)
		f.marked = b
	}
	return f.marked
}

// contents returns what the preprocessor of pass s is to read of f.
func (s sourceFS) contents(f *servedFile) []byte {
	if !s.first {
		return f.data
	}
	return f.markedData(slices.Index(s.p.files, f))
}

func (s sourceFS) Open(name string) (fs.File, error) {
	p := s.p
	name = filepath.Clean(filepath.FromSlash(name))
	if !s.first && p.pipe != nil {
		p.mu.Lock()
		_, ok := p.served[name]
		p.mu.Unlock()
		if !ok {
			// A file the first pass has not read (yet): the second
			// reads nothing of its own before the first has ended
			// (pipeline.go).
			p.pipe.wait(-1)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if f, ok := p.served[name]; ok {
		if f == nil {
			return nil, notFound(name)
		}
		return newMemFile(name, s.contents(f)), nil
	}
	if p.fail != nil {
		// A bound already tripped: stop the preprocessor as soon as it
		// opens anything more.
		return nil, notFound(name)
	}
	if rel, ok := strings.CutPrefix(filepath.ToSlash(name), stubDir+"/"); ok {
		text, ok := stubHeaders[rel]
		if !ok {
			p.served[name] = nil
			return nil, notFound(name)
		}
		f := &servedFile{data: []byte(text), shown: "<" + rel + ">"}
		p.served[name] = f
		return newMemFile(name, s.contents(f)), nil
	}
	data, err := p.read(name)
	if err != nil {
		p.served[name] = nil
		var ee *Error
		if errors.As(err, &ee) {
			p.fail = ee
		}
		return nil, notFound(name)
	}
	f := &servedFile{data: data, shown: p.shownName(name)}
	p.served[name] = f
	p.files = append(p.files, f)
	return newMemFile(name, s.contents(f)), nil
}

// stubDir is the include directory, searched after every other, whose
// files are stubHeaders: no file system holds it.
const stubDir = "/cugen-stub-headers"

// stubHeaders are the headers cugen supplies when neither the header set
// nor the system has them, each for a reason C code cannot observe.
var stubHeaders = map[string]string{
	// libcu++'s <nv/target> selects C++ device code by target
	// architecture. cuda_fp16.h and cuda_bf16.h (which cuBLAS's and
	// cuSPARSE's headers include) include it also when compiled as C, which
	// uses none of it; Debian's nvidia-cuda-dev does not ship libcu++.
	"nv/target": "/* <nv/target> supplied by cugen: empty, as C code needs nothing of it. */\n",
	// cuSPARSELt's cusparseLt.h includes C++'s <cstddef> for size_t,
	// also when compiled as C, which has it from <stddef.h>.
	"cstddef": "/* <cstddef> supplied by cugen: C's <stddef.h>, for a header that includes it as C. */\n#include <stddef.h>\n",
}

// WriteStubHeaders writes the headers the parser supplies where neither
// a header set nor the system has them (<nv/target>, which cuda_fp16.h
// includes and Debian does not ship) into dir, for a C compiler given the
// same headers: pass it with -idirafter, searched last as the parser
// searches them.
func WriteStubHeaders(dir string) error {
	for name, text := range stubHeaders {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func notFound(name string) error {
	return &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// read reads and checks one file the preprocessor asks for. A file that
// does not exist is a plain error (the preprocessor goes on searching);
// every other refusal is an *Error, which fails the parse.
func (p *parse) read(name string) ([]byte, error) {
	rel, inDir := p.rel(name)
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	shown := p.shownName(name)
	if !inDir && !p.inSysDir(name) {
		return nil, &Error{File: p.sysName(name), Msg: "include of a file outside the header directory and the system include directories"}
	}
	if st.IsDir() {
		return nil, err // "#include <dir>": not found, as gcc says
	}
	if !st.Mode().IsRegular() {
		return nil, &Error{File: shown, Msg: fmt.Sprintf("not a regular file (%v): only regular files are read", st.Mode().Type())}
	}
	if st.Size() > maxFileSize {
		return nil, &Error{File: shown, Msg: fmt.Sprintf("%d bytes: larger than the %d MiB a header may have", st.Size(), maxFileSize>>20)}
	}
	if inDir {
		if sys := p.shadowed(rel); sys != "" {
			return nil, &Error{File: rel, Msg: fmt.Sprintf("would replace the system header <%s> (%s): a header directory may not shadow the C library's or compiler's headers", rel, sys)}
		}
	}
	// The reader internal/lock verifies the cache with: regular files
	// only, opened without blocking, the size checked before reading and
	// the reading capped (a "regular file" such as /proc/self/pagemap
	// reports a size it does not have). A pinned parse reads a cache
	// entry, whose links may not leave its directory, as Verify holds it.
	o := bounded.Options{Limit: maxFileSize, What: "a header"}
	if inDir && p.pinnedFile(name) {
		o.Root = p.dirOf(name)
	}
	data, err := bounded.ReadFile(name, o)
	if err != nil {
		var be *bounded.Error
		var pe *fs.PathError
		switch {
		case errors.As(err, &be):
			return nil, &Error{File: shown, Msg: be.Msg}
		case errors.As(err, &pe):
			err = pe.Err // no machine path in the message
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "reading: ") {
			msg = "reading: " + msg
		}
		return nil, &Error{File: shown, Msg: msg}
	}
	if p.total += len(data); p.total > maxTotalSize {
		return nil, &Error{File: shown, Msg: fmt.Sprintf("the headers read exceed %d MiB in all", maxTotalSize>>20)}
	}
	if inDir && p.pinnedFile(name) {
		// Every file the lock does not pin is named: the parse goes on
		// reading (the first pass only) and fails after it.
		want, ok := p.pinned[rel]
		sum := sha256.Sum256(data)
		switch got := hex.EncodeToString(sum[:]); {
		case !ok:
			p.unpinned = append(p.unpinned, rel)
		case got != want:
			p.unpinned = append(p.unpinned, fmt.Sprintf("%s (sha256 %s, pinned %s)", rel, got, want))
		}
	}
	if err := p.scan(shown, inDir, data); err != nil {
		return nil, err
	}
	if inDir {
		p.opened[rel] = true
	}
	return data, nil
}

// shownName names a file in messages: relative to the header directory, or
// <sys.h>.
func (p *parse) shownName(name string) string {
	if rel, ok := p.rel(name); ok {
		return rel
	}
	return p.sysName(name)
}

// inSysDir reports whether name lies in one of the C front end's system
// include directories.
func (p *parse) inSysDir(name string) bool {
	for _, d := range p.sysDirs {
		if r, err := filepath.Rel(d, name); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// shadowed returns the system header that rel, a file of the header
// directory, would replace if it has the name of one, or "". The header
// directory comes first in the search (<cuda.h> must be its own), so a
// stdint.h dropped into it would be read instead of the C library's. A
// system directory that holds a cuda.h itself (Debian's nvidia-cuda-dev
// installs into /usr/include) is a CUDA installation, not the C library,
// and is not compared; nor is a header of the CUDA library family
// (familyHeader) that a system directory also has, as /usr/include has
// nccl.h where NVIDIA's libnccl-dev is installed.
func (p *parse) shadowed(rel string) string {
	if p.familyHeader(rel) {
		return ""
	}
	for _, d := range p.libcDirs {
		f := filepath.Join(d, filepath.FromSlash(rel))
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			return f
		}
	}
	return ""
}

// familyHeader reports whether rel is named like a header of one of the
// parse's libraries: its first path element, up to the first "_" or ".",
// is the stem of a header a description names (nccl.h: nccl.h,
// nccl_device.h, nccl_device/core.h; cuda.h: cuda_runtime.h). The C
// library has no header so named.
func (p *parse) familyHeader(rel string) bool {
	stem := func(name string) string {
		name, _, _ = strings.Cut(name, "/")
		return name[:strings.IndexAny(name+"._", "._")]
	}
	s := stem(rel)
	for _, d := range p.libs {
		for _, h := range slices.Concat(d.Include, d.Declare, []string{d.SymbolVersions}) {
			if h != "" && stem(h) == s {
				return true
			}
		}
	}
	return false
}

// scan checks the text of one header: no NUL byte, (, [ and { nested at
// most maxNesting deep, and, in the header directory, no #include that
// leaves it (an absolute name or one climbing out with ".."). It also
// records the names of object-like macros, which the first pass expands.
func (p *parse) scan(file string, inDir bool, data []byte) error {
	line, depth := 1, 0
	bol := true // at the beginning of a line, blanks skipped
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == 0:
			return &Error{File: file, Line: line, Col: col(data, i), Msg: "NUL byte in a header"}
		case c == '\n':
			line++
			bol = true
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			continue
		case c == '\\' && i+1 < len(data) && data[i+1] == '\n':
			i++
			line++
			continue
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i+1 < len(data) && data[i+1] != '\n' {
				if data[i+1] == 0 {
					return &Error{File: file, Line: line, Col: col(data, i+1), Msg: "NUL byte in a header"}
				}
				i++
			}
			continue
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			i += 2
			for i < len(data) && !(data[i] == '*' && i+1 < len(data) && data[i+1] == '/') {
				switch data[i] {
				case '\n':
					line++
				case 0:
					return &Error{File: file, Line: line, Col: col(data, i), Msg: "NUL byte in a header"}
				}
				i++
			}
			i++
			continue
		case c == '"' || c == '\'':
			// A literal ends at its quote or, unterminated, at the line's end.
			for i+1 < len(data) && data[i+1] != c && data[i+1] != '\n' {
				if data[i+1] == 0 {
					return &Error{File: file, Line: line, Col: col(data, i+1), Msg: "NUL byte in a header"}
				}
				if data[i+1] == '\\' && i+2 < len(data) && data[i+2] != '\n' {
					i++
				}
				i++
			}
			if i+1 < len(data) && data[i+1] == c {
				i++
			}
			p.tokens++
		case isIdent(c):
			// One identifier, keyword or number: a token.
			for i+1 < len(data) && (isIdent(data[i+1]) || data[i+1] == '.') {
				i++
			}
			p.tokens++
		case c == '#' && bol:
			if err := p.directive(file, inDir, line, data, i); err != nil {
				return err
			}
		case c == '(' || c == '[' || c == '{':
			p.tokens++
			if depth++; depth > maxNesting {
				return &Error{File: file, Line: line, Col: col(data, i), Msg: fmt.Sprintf("(, [ and { nested more than %d deep", maxNesting)}
			}
		case c == ')' || c == ']' || c == '}':
			p.tokens++
			if depth > 0 {
				depth--
			}
		default:
			p.tokens++ // punctuation, counted a character at a time
		}
		bol = false
		if p.tokens > maxTokens {
			return &Error{File: file, Line: line, Col: col(data, i), Msg: fmt.Sprintf("the headers read exceed %d tokens in all", maxTokens)}
		}
	}
	return nil
}

func isIdent(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

// col returns the 1-based column of data[i] in its line.
func col(data []byte, i int) int {
	return i - bytes.LastIndexByte(data[:i], '\n')
}

// directive looks at a preprocessing directive that starts at data[i]
// ('#'): an #include in the header directory must stay in it, and a
// #define of an object-like macro records the macro's name.
func (p *parse) directive(file string, inDir bool, line int, data []byte, i int) error {
	end := bytes.IndexByte(data[i:], '\n')
	if end < 0 {
		end = len(data) - i
	}
	text := strings.TrimLeft(string(data[i+1:i+end]), " \t")
	word := text
	if j := strings.IndexAny(text, " \t<\"("); j >= 0 {
		word = text[:j]
	}
	arg := strings.TrimLeft(text[len(word):], " \t")
	switch word {
	case "define":
		n := 0
		for n < len(arg) && (arg[n] == '_' || 'a' <= arg[n] && arg[n] <= 'z' || 'A' <= arg[n] && arg[n] <= 'Z' || n > 0 && '0' <= arg[n] && arg[n] <= '9') {
			n++
		}
		if _, seen := p.objectMacros[arg[:n]]; n > 0 && (n == len(arg) || arg[n] != '(') && !seen {
			if len(p.objectMacros) == maxMacros {
				return &Error{File: file, Line: line, Col: 1, Msg: fmt.Sprintf("more than %d object-like macros", maxMacros)}
			}
			p.objectMacros[arg[:n]] = ir.Pos{File: file, Line: line}
		}
	case "include", "include_next":
		if !inDir || len(arg) < 2 || (arg[0] != '"' && arg[0] != '<') {
			return nil // a macro argument: the file is checked when opened
		}
		closing := byte('"')
		if arg[0] == '<' {
			closing = '>'
		}
		k := strings.IndexByte(arg[1:], closing)
		if k < 0 {
			return nil // cc reports the malformed line
		}
		name := arg[1 : 1+k]
		dir := path.Dir(file)
		switch {
		case strings.HasPrefix(name, "/"):
			return &Error{File: file, Line: line, Col: 1, Msg: fmt.Sprintf("#include of an absolute path %q: a header may only include files of the header directory and the system's", name)}
		case escapes(path.Clean(name)) && arg[0] == '<' || escapes(path.Join(dir, name)) && arg[0] == '"':
			// A quoted name is looked up first beside the including
			// file (gcc's order), so "../x.h" in crt/ is x.h.
			return &Error{File: file, Line: line, Col: 1, Msg: fmt.Sprintf("#include %c%s%c leaves the header directory", arg[0], name, closing)}
		}
	}
	return nil
}

func escapes(p string) bool { return p == ".." || strings.HasPrefix(p, "../") }

// macroTrailer is the last source of the first pass: every object-like
// macro name the headers define, one a line, after a marker line. The
// preprocessor expands each exactly as cc's EvalAllMacros will after the
// parse, so the expansion limit and the nesting bound see that work too,
// deterministically and with the macro's name.
type macroTrailer struct{ p *parse }

const (
	trailerMarker = "__cugen_macro_trailer__"
	trailerSource = "<cugen-macros>"
)

func (t macroTrailer) Open(name string) (fs.File, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "#undef %s\n%s\n", trailerMarker, trailerMarker)
	for _, n := range t.p.trailerNames() {
		b.WriteString(n)
		b.WriteByte('\n')
	}
	return newMemFile(name, []byte(b.String())), nil
}

func (p *parse) trailerNames() []string {
	if p.trailer == nil {
		for n := range p.objectMacros {
			p.trailer = append(p.trailer, n)
		}
		sort.Strings(p.trailer)
	}
	return p.trailer
}

// outputBound receives the preprocessed translation unit of the first pass
// and stops it (Write fails) when it grows beyond maxOutput or nests
// (, [ or { beyond maxNesting. cc writes one token per call.
type outputBound struct {
	p       *parse
	n       int
	depth   int
	files   []int // the include stack, by index in p.files
	trailer bool  // past the marker: each line expands one macro
	line    int   // line of the trailer
	err     *Error
	// unitDone, if not nil, is called at the end of each top-level
	// #include.
	unitDone func()
}

func (w *outputBound) Write(b []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	w.n += len(b)
	if w.n > maxOutput {
		w.err = &Error{File: w.p.dir, Msg: fmt.Sprintf("the preprocessed headers exceed %d MiB (a header included again and again without a guard?)", maxOutput>>20)}
		return 0, w.err
	}
	if s := string(b); strings.HasPrefix(s, beginMarker) {
		var i int
		fmt.Sscan(strings.TrimSuffix(strings.TrimPrefix(s, beginMarker+" "), `"`), &i)
		if len(w.files) >= maxIncludeDepth {
			w.err = w.p.includeDepthError(w.files[len(w.files)-1], i)
			return 0, w.err
		}
		w.files = append(w.files, i)
		return len(b), nil
	}
	switch s := string(b); s {
	case endMarker:
		if len(w.files) > 0 {
			w.files = w.files[:len(w.files)-1]
			if len(w.files) == 0 && w.unitDone != nil {
				w.unitDone() // a top-level #include, for the second pass
			}
		}
	case "(", "[", "{":
		if w.depth++; w.depth > maxNesting {
			msg := fmt.Sprintf("(, [ and { nested more than %d deep once macros are expanded", maxNesting)
			if w.trailer && w.line > 0 && w.line <= len(w.p.trailer) {
				w.err = w.p.macroError(w.p.trailer[w.line-1], msg)
			} else {
				w.err = &Error{File: w.p.dir, Msg: msg}
			}
			return 0, w.err
		}
	case ")", "]", "}":
		if w.depth > 0 {
			w.depth--
		}
	case trailerMarker:
		w.trailer, w.line, w.depth = true, 0, 0
	case "\n":
		if w.trailer {
			w.line++
			w.depth = 0
		}
	}
	return len(b), nil
}

// includeDepthError reports the #include in file from that nests too deep,
// at its line when the line can be found (it includes a file of the same
// base name).
func (p *parse) includeDepthError(from, to int) *Error {
	msg := fmt.Sprintf("#include nested more than %d deep (a header that includes itself without a guard?)", maxIncludeDepth)
	if from < 0 || from >= len(p.files) || to < 0 || to >= len(p.files) {
		return &Error{File: p.dir, Msg: msg}
	}
	f, base := p.files[from], path.Base(strings.Trim(p.files[to].shown, "<>"))
	for n, l := range strings.Split(string(f.data), "\n") {
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "#") && strings.Contains(t, "include") && strings.Contains(t, base) {
			return &Error{File: f.shown, Line: n + 1, Col: 1, Msg: msg}
		}
	}
	return &Error{File: f.shown, Msg: msg}
}

// memFile is an fs.File over bytes already read.
type memFile struct {
	*bytes.Reader
	name string
	size int64
}

func newMemFile(name string, data []byte) *memFile {
	return &memFile{Reader: bytes.NewReader(data), name: name, size: int64(len(data))}
}

func (f *memFile) Stat() (fs.FileInfo, error) { return memInfo{f}, nil }
func (f *memFile) Close() error               { return nil }

type memInfo struct{ f *memFile }

func (i memInfo) Name() string       { return filepath.Base(i.f.name) }
func (i memInfo) Size() int64        { return i.f.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
