package lock

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Kind says what an entry pins.
type Kind string

const (
	// KindSet is a header set, parsed by cugen.
	KindSet Kind = "set"
	// KindLib is a library package, loaded by tests.
	KindLib Kind = "lib"
	// KindHeaders is a package of more headers that sets add to their own
	// with a with line (nccl.h, which no toolkit package holds).
	KindHeaders Kind = "headers"
)

// A Lock is a parsed headers.lock.
type Lock struct {
	// Path names the file in error messages; Parse sets it from its name argument.
	Path    string
	Entries []*Entry
}

// An Entry pins one header set or one library package.
type Entry struct {
	Kind  Kind
	Name  string   // "12.4", "libcudart12"
	CUDA  string   // CUDA toolkit version, "12.4.1"; sets only
	Deb   *Deb     // Debian origin; nil for toolkit or wheel origin
	Wheel *Wheel   // wheel origin; headers entries only
	Root  string   // directory inside the .deb that is extracted; toolkit origin: the toolkit's ("": include)
	With  []string // headers entries whose directories the set's parse also reads; sets only
	Notes []string // free text
	Files []File   // sorted by Path

	// Lock and Line say where the entry was read from; zero if built in memory.
	Lock string
	Line int

	base *Entry // the set a "SET+NAME" entry derives from (Lock.Entry)
}

// A Deb names one Debian binary package exactly.
type Deb struct {
	Package string // "nvidia-cuda-dev"
	Version string // "12.4.127~12.4.1-2"
	Arch    string // "amd64"
	Suite   string // "trixie"
	SHA256  string // of the .deb, lower-case hex
}

// A Wheel names the Python wheel of NVIDIA's a headers entry's files come
// from (cuDNN's headers are in no Debian package). Nothing is downloaded:
// the files are verified in place, in the include directory of the
// directory the environment variable Home names (CUDNN_HOME, the wheel's
// nvidia/cudnn directory under site-packages).
type Wheel struct {
	Package string // "nvidia-cudnn-cu13"
	Version string // "9.19.0.56"
	Home    string // "CUDNN_HOME"
}

// A File is one locked file: its path relative to the entry's root and its sha256.
type File struct {
	Path   string
	SHA256 string
}

// Toolkit reports whether the entry's files come from an installed CUDA
// toolkit rather than a Debian package.
func (e *Entry) Toolkit() bool { return e.Deb == nil && e.Wheel == nil }

// String names the entry as it is written in headers.lock: "set 12.4".
func (e *Entry) String() string { return string(e.Kind) + " " + e.Name }

// Digest returns the sha256 of the entry's canonical text, a short stable
// identity for the exact files an entry pins (for generated file headers).
func (e *Entry) Digest() string {
	var b bytes.Buffer
	e.format(&b)
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:])
}

// Entry returns the header set called set.
// A name "SET+NAME..." is set SET reading, beside its own with entries,
// the headers entries NAME... (12.4+cudnn9: CUDA 12.4's headers and
// cuDNN's, whose wheel not every machine that parses 12.4 has): a new
// entry, named so, whose digest covers them all. It is never written to
// the lock; its files are the set's.
func (l *Lock) Entry(set string) (*Entry, error) {
	base, adds, plus := strings.Cut(set, "+")
	if !plus {
		return l.find(KindSet, set)
	}
	e, err := l.find(KindSet, base)
	if err != nil {
		return nil, err
	}
	d := *e
	d.Name = set
	d.With = slices.Clone(e.With)
	for _, a := range strings.Split(adds, "+") {
		if _, err := l.find(KindHeaders, a); err != nil {
			return nil, fmt.Errorf("set %s: %w", set, err)
		}
		if slices.Contains(d.With, a) {
			return nil, fmt.Errorf("set %s: set %s already reads %s", set, base, a)
		}
		d.With = append(d.With, a)
	}
	d.base = e
	return &d, nil
}

// Base is the set a derived entry ("12.4+cudnn9") adds headers to, or e.
func (e *Entry) Base() *Entry {
	if e.base != nil {
		return e.base
	}
	return e
}

// Headers returns the headers entry called name.
func (l *Lock) Headers(name string) (*Entry, error) { return l.find(KindHeaders, name) }

// Lib returns the library package entry called name.
func (l *Lock) Lib(name string) (*Entry, error) { return l.find(KindLib, name) }

// With returns the headers entries a set reads beside its own files, in
// the order of its with lines.
func (l *Lock) With(set *Entry) ([]*Entry, error) {
	var out []*Entry
	for _, name := range set.With {
		h, err := l.find(KindHeaders, name)
		if err != nil {
			return nil, fmt.Errorf("%s: with %s: %w", set, name, err)
		}
		if h.Toolkit() && !set.Toolkit() {
			return nil, fmt.Errorf("%s: with %s: a toolkit headers entry is read from the toolkit of a toolkit set, and %s is a Debian set", set, name, set)
		}
		out = append(out, h)
	}
	return out, nil
}

// SetDigest is the Digest of a set and the headers entries it reads: one
// identity for every file its parse may read.
func (l *Lock) SetDigest(set *Entry) (string, error) {
	with, err := l.With(set)
	if err != nil {
		return "", err
	}
	if len(with) == 0 {
		return set.Digest(), nil
	}
	var b bytes.Buffer
	for _, e := range append([]*Entry{set}, with...) {
		e.format(&b)
	}
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:]), nil
}

func (l *Lock) find(k Kind, name string) (*Entry, error) {
	var names []string
	for _, e := range l.Entries {
		if e.Kind == k {
			if e.Name == name {
				return e, nil
			}
			names = append(names, e.Name)
		}
	}
	return nil, fmt.Errorf("%s has no %s %q (it has: %s)", l.Path, k, name, strings.Join(names, ", "))
}

// ReadFile parses the lock file at path.
func ReadFile(path string) (*Lock, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse parses a lock file; name is used in error messages, which have the
// form "name:line: message".
func Parse(r io.Reader, name string) (*Lock, error) {
	l := &Lock{Path: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	var e *Entry
	seen := map[string]int{}       // entry keywords seen in e, to line
	files := map[string]int{}      // file paths in e, to line
	entries := map[string]*Entry{} // "set 12.4" -> entry
	lineNo := 0
	errf := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, lineNo, fmt.Sprintf(format, args...))
	}
	finish := func() error {
		if e == nil {
			return nil
		}
		at := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s: %s", name, e.Line, e, fmt.Sprintf(format, args...))
		}
		switch {
		case e.Kind == KindSet && e.CUDA == "":
			return at("missing cuda line")
		case e.Deb == nil && e.Wheel == nil && seen["toolkit"] == 0:
			return at("missing origin: a deb, toolkit or wheel line")
		case e.Deb != nil && e.Root == "":
			return at("missing root line")
		case e.Wheel != nil && e.Root != "":
			return at("root line with wheel origin (its files are in the wheel's include directory)")
		case e.Wheel != nil && e.Kind != KindHeaders:
			return at("wheel origin: only headers entries have one")
		case e.Toolkit() && e.Kind == KindSet && e.Root != "":
			return at("root line in a toolkit set (its files are in the toolkit's include directory; a headers entry names another)")
		case e.Toolkit() && e.Kind == KindLib:
			return at("toolkit origin: %s entries need a deb line", e.Kind)
		case len(e.Files) == 0:
			return at("no sha256 lines")
		}
		slices.SortFunc(e.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
		l.Entries = append(l.Entries, e)
		return nil
	}
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		key, args := f[0], f[1:]
		nargs := func(n int) error {
			if len(args) != n {
				return errf("%s: want %d fields after %q, have %d", key, n, key, len(args))
			}
			return nil
		}
		if key == string(KindSet) || key == string(KindLib) || key == string(KindHeaders) {
			if err := finish(); err != nil {
				return nil, err
			}
			if err := nargs(1); err != nil {
				return nil, err
			}
			if err := CheckName(args[0]); err != nil {
				return nil, errf("%s: %v", key, err)
			}
			e = &Entry{Kind: Kind(key), Name: args[0], Lock: name, Line: lineNo}
			if prev := entries[e.String()]; prev != nil {
				return nil, errf("%s already defined at line %d", e, prev.Line)
			}
			entries[e.String()] = e
			seen = map[string]int{}
			files = map[string]int{}
			continue
		}
		if e == nil {
			return nil, errf("%q line before the first entry (set, headers or lib line)", key)
		}
		if key != "sha256" && key != "note" && key != "with" {
			if prev := seen[key]; prev != 0 {
				return nil, errf("second %s line in %s (first at line %d)", key, e, prev)
			}
			seen[key] = lineNo
		}
		switch key {
		case "cuda":
			if e.Kind != KindSet {
				return nil, errf("cuda line in %s: only sets have one", e)
			}
			if err := nargs(1); err != nil {
				return nil, err
			}
			e.CUDA = args[0]
		case "deb":
			if err := nargs(5); err != nil {
				return nil, err
			}
			if seen["toolkit"] != 0 || e.Wheel != nil {
				return nil, errf("%s has two origins (deb and toolkit or wheel)", e)
			}
			if !isHash(args[4]) {
				return nil, errf("deb: %q is not a sha256 (64 lower-case hex digits)", args[4])
			}
			for i, what := range []string{"package", "version", "architecture", "suite"} {
				if !debField(args[i]) {
					return nil, errf("deb: %s %q: only letters, digits and \".+~:_-\" (not first) are allowed", what, args[i])
				}
			}
			e.Deb = &Deb{Package: args[0], Version: args[1], Arch: args[2], Suite: args[3], SHA256: args[4]}
		case "toolkit":
			if err := nargs(0); err != nil {
				return nil, err
			}
			if e.Deb != nil || e.Wheel != nil {
				return nil, errf("%s has two origins (toolkit and deb or wheel)", e)
			}
		case "wheel":
			if err := nargs(3); err != nil {
				return nil, err
			}
			if e.Deb != nil || seen["toolkit"] != 0 {
				return nil, errf("%s has two origins (wheel and deb or toolkit)", e)
			}
			for i, what := range []string{"package", "version"} {
				if !debField(args[i]) {
					return nil, errf("wheel: %s %q: only letters, digits and \".+~:_-\" (not first) are allowed", what, args[i])
				}
			}
			if !envName(args[2]) {
				return nil, errf("wheel: %q is not an environment variable name (A-Z, 0-9, _)", args[2])
			}
			e.Wheel = &Wheel{Package: args[0], Version: args[1], Home: args[2]}
		case "root":
			if err := nargs(1); err != nil {
				return nil, err
			}
			if !fs.ValidPath(args[0]) || args[0] == "." {
				return nil, errf("root: %q is not a relative slash-separated path", args[0])
			}
			e.Root = args[0]
		case "with":
			if e.Kind != KindSet {
				return nil, errf("with line in %s: only sets have one", e)
			}
			if err := nargs(1); err != nil {
				return nil, err
			}
			if err := CheckName(args[0]); err != nil {
				return nil, errf("with: %v", err)
			}
			if slices.Contains(e.With, args[0]) {
				return nil, errf("with %s twice in %s", args[0], e)
			}
			e.With = append(e.With, args[0])
		case "note":
			if len(args) == 0 {
				return nil, errf("empty note")
			}
			e.Notes = append(e.Notes, strings.Join(args, " "))
		case "sha256":
			if err := nargs(2); err != nil {
				return nil, err
			}
			if !isHash(args[0]) {
				return nil, errf("sha256: %q is not a sha256 (64 lower-case hex digits)", args[0])
			}
			if !fs.ValidPath(args[1]) || args[1] == "." {
				return nil, errf("sha256: %q is not a relative slash-separated path", args[1])
			}
			if prev := files[args[1]]; prev != 0 {
				return nil, errf("%s listed twice in %s (first at line %d)", args[1], e, prev)
			}
			files[args[1]] = lineNo
			e.Files = append(e.Files, File{Path: args[1], SHA256: args[0]})
		default:
			return nil, errf("unknown keyword %q", key)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := finish(); err != nil {
		return nil, err
	}
	if len(l.Entries) == 0 {
		return nil, fmt.Errorf("%s: no entries", name)
	}
	for _, e := range l.Entries {
		if _, err := l.With(e); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, e.Line, err)
		}
	}
	return l, nil
}

// CheckName reports whether name can name an entry. The name is a
// directory name in the cache (CACHE/headers/NAME, CACHE/libs/NAME), so it
// is one path element made of letters, digits and "._+-", starting with a
// letter or digit: never ".", "..", a separator or a hidden name.
func CheckName(name string) error {
	if name == "" || len(name) > 100 {
		return fmt.Errorf("entry name %q: want 1 to 100 characters", name)
	}
	for i, c := range []byte(name) {
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !alnum && (i == 0 || !strings.ContainsRune("._+-", rune(c))) {
			return fmt.Errorf("entry name %q: only letters, digits and \"._+-\" (not first) are allowed", name)
		}
	}
	return nil
}

// debField reports whether s is a plausible Debian package name, version,
// architecture or suite: they become parts of file names in the cache.
func debField(s string) bool {
	for i, c := range []byte(s) {
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !alnum && (i == 0 || !strings.ContainsRune(".+~:_-", rune(c))) {
			return false
		}
	}
	return s != ""
}

// envName reports whether s is an upper-case environment variable name.
func envName(s string) bool {
	for i, c := range []byte(s) {
		if !('A' <= c && c <= 'Z' || c == '_' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

func isHash(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Preamble is the comment Format writes at the top of every lock file.
const Preamble = `# headers.lock: the NVIDIA files cugen reads, pinned by sha256.
# NVIDIA's files are never committed: "make headers CUDA=12.4" fetches a set
# into the cache and verifies it against this file. Format and cache: see
# the package doc of github.com/cugen/cugen/internal/lock. Written by cugen;
# comments other than this one are not kept.
#
#	set NAME | lib NAME | headers NAME        starts an entry
#	cuda VERSION                              CUDA toolkit version (sets)
#	deb PACKAGE VERSION ARCH SUITE SHA256     Debian origin
#	toolkit                                   toolkit origin: verified in place
#	wheel PACKAGE VERSION HOMEVAR             wheel origin: verified in $HOMEVAR/include
#	root PATH                                 directory extracted from the .deb
#	with NAME                                 a headers entry the set also reads
#	note TEXT                                 free text
#	sha256 HASH PATH                          a file, relative to root
`

// Format returns the canonical text of l: the preamble, then sets in
// version order and libs in name order, each in canonical form.
func (l *Lock) Format() []byte {
	var b bytes.Buffer
	b.WriteString(Preamble)
	es := slices.Clone(l.Entries)
	rank := map[Kind]int{KindSet: 0, KindHeaders: 1, KindLib: 2}
	slices.SortStableFunc(es, func(a, b *Entry) int {
		if a.Kind != b.Kind {
			return rank[a.Kind] - rank[b.Kind]
		}
		return compareNames(a.Name, b.Name)
	})
	for _, e := range es {
		b.WriteByte('\n')
		e.format(&b)
	}
	return b.Bytes()
}

// Write writes l's canonical text to w.
func (l *Lock) Write(w io.Writer) error {
	_, err := w.Write(l.Format())
	return err
}

// WriteFile writes l's canonical text to path, through a temporary file
// renamed into place.
func (l *Lock) WriteFile(path string) error {
	return WriteFileAtomic(path, l.Format(), 0o644)
}

func (e *Entry) format(b *bytes.Buffer) {
	fmt.Fprintf(b, "%s %s\n", e.Kind, e.Name)
	if e.CUDA != "" {
		fmt.Fprintf(b, "\tcuda %s\n", e.CUDA)
	}
	if d := e.Deb; d != nil {
		fmt.Fprintf(b, "\tdeb %s %s %s %s %s\n", d.Package, d.Version, d.Arch, d.Suite, d.SHA256)
	} else if w := e.Wheel; w != nil {
		fmt.Fprintf(b, "\twheel %s %s %s\n", w.Package, w.Version, w.Home)
	} else {
		b.WriteString("\ttoolkit\n")
	}
	if e.Root != "" {
		fmt.Fprintf(b, "\troot %s\n", e.Root)
	}
	for _, w := range e.With {
		fmt.Fprintf(b, "\twith %s\n", w)
	}
	for _, n := range e.Notes {
		fmt.Fprintf(b, "\tnote %s\n", strings.Join(strings.Fields(n), " "))
	}
	fs := slices.Clone(e.Files)
	slices.SortFunc(fs, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	for _, f := range fs {
		fmt.Fprintf(b, "\tsha256 %s %s\n", f.SHA256, f.Path)
	}
}

// compareNames orders dotted names by their numeric parts where both are
// numbers: 9.0 < 11.8 < 12.4 < 12.10.
func compareNames(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, errx := strconv.Atoi(as[i])
		y, erry := strconv.Atoi(bs[i])
		var c int
		if errx == nil && erry == nil {
			c = x - y
		} else {
			c = strings.Compare(as[i], bs[i])
		}
		if c != 0 {
			return c
		}
	}
	if c := len(as) - len(bs); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}
