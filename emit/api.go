package emit

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/cugen/cugen/internal/apidiff"
	"github.com/cugen/cugen/parser/ir"
)

// The API manifest (api.txt in every generated package) is the package's C
// API without documentation, one declaration a line in header order, in the
// spirit of Go's own api/go1.N.txt:
//
//	version cuda 12040 runtime 12040
//	func cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) CUresult // symbol cuMemAlloc_v2
//	struct CUDA_MEMCPY2D_v2, tag CUDA_MEMCPY2D_st, size 128, align 8
//	struct CUDA_MEMCPY2D_v2.srcXInBytes size_t, offset 0
//	enum CUresult, size 4, signed
//	enum CUresult.CUDA_SUCCESS = 0
//	typedef CUdeviceptr = CUdeviceptr_v2
//	#define CU_IPC_HANDLE_SIZE 64 // int
//
// Every line starts with its key: the kind and the name (a record's member
// is RECORD.member, an enumerator ENUM.VALUE, an anonymous struct or union
// PARENT.member as apidiff names it, so a declaration that only moved in the
// header changes no line). A review of a regeneration shows each API change
// as one changed line, and cugen gen reads the previous manifest back to
// print what a new header set changed (DiffManifests), since the old
// headers may no longer be at hand.

const manifestFile = "api.txt"

// manifestAPI is the package's part of the IR, without documentation or
// header positions: what api.txt records.
func (m *model) manifestAPI() *ir.API {
	api := &ir.API{CUDAVersion: m.api.CUDAVersion, RuntimeVersion: m.api.RuntimeVersion}
	for _, f := range m.funcs {
		c := *f
		c.Doc, c.Pos = nil, ir.Pos{}
		c.Params = append([]ir.Param(nil), f.Params...)
		for i := range c.Params {
			c.Params[i].Doc, c.Params[i].Why = "", ""
		}
		api.Functions = append(api.Functions, &c)
	}
	for _, r := range m.recs {
		c := *r
		c.Doc, c.Pos = nil, ir.Pos{}
		c.Fields = stripFields(r.Fields)
		api.Records = append(api.Records, &c)
	}
	for _, e := range m.ens {
		c := *e
		c.Doc, c.Pos = nil, ir.Pos{}
		c.Values = append([]ir.EnumValue(nil), e.Values...)
		for i := range c.Values {
			c.Values[i].Doc = nil
		}
		api.Enums = append(api.Enums, &c)
	}
	for _, t := range m.tds {
		c := *t
		c.Doc, c.Pos = nil, ir.Pos{}
		api.Typedefs = append(api.Typedefs, &c)
	}
	for _, mc := range m.macros {
		c := *mc
		c.Doc, c.Pos = nil, ir.Pos{}
		api.Macros = append(api.Macros, &c)
	}
	return api
}

func stripFields(fs []ir.Field) []ir.Field {
	out := append([]ir.Field(nil), fs...)
	for i := range out {
		out[i].Doc = nil
		if out[i].Record != nil {
			r := *out[i].Record
			r.Doc, r.Pos = nil, ir.Pos{}
			r.Fields = stripFields(r.Fields)
			out[i].Record = &r
		}
	}
	return out
}

// manifest writes api's declarations, one a line (see the top of this file).
func (m *model) manifest(api *ir.API) []byte {
	var b bytes.Buffer
	for _, l := range m.header() {
		fmt.Fprintf(&b, "# %s\n", l)
	}
	fmt.Fprintf(&b, "# The C API of package %s without documentation, one declaration a line.\n", m.pkg)
	writeManifest(&b, api)
	return b.Bytes()
}

func writeManifest(w *bytes.Buffer, api *ir.API) {
	names := apidiff.NewNames(api)
	var b bytes.Buffer
	fmt.Fprintf(&b, "version cuda %d runtime %d\n", api.CUDAVersion, api.RuntimeVersion)
	for _, f := range api.Functions {
		fmt.Fprintf(&b, "func %s%s %s", f.Name, names.Params(f.Params), names.CType(f.Result))
		var attrs []string
		if f.Symbol != f.Name {
			attrs = append(attrs, "symbol "+f.Symbol)
		}
		if f.PerThreadSymbol != "" {
			attrs = append(attrs, "per-thread "+f.PerThreadSymbol)
		}
		if len(f.Aliases) > 0 {
			attrs = append(attrs, "aliases "+strings.Join(f.Aliases, " "))
		}
		if f.Deprecated {
			attrs = append(attrs, "deprecated")
		}
		if len(attrs) > 0 {
			fmt.Fprintf(&b, " // %s", strings.Join(attrs, ", "))
		}
		b.WriteByte('\n')
	}
	for _, r := range api.Records {
		name := names.Record(r)
		kind := "struct"
		if r.Union {
			kind = "union"
		}
		fmt.Fprintf(&b, "%s %s", kind, name)
		if r.Tag != "" && r.Tag != name {
			fmt.Fprintf(&b, ", tag %s", r.Tag)
		}
		if r.Opaque {
			b.WriteString(", opaque\n")
			continue
		}
		fmt.Fprintf(&b, ", size %d, align %d\n", r.Size, r.Align)
		for _, f := range names.Fields(r) {
			fmt.Fprintf(&b, "%s %s.%s %s, offset %d", kind, name, f.Name, f.Type, f.Offset)
			if f.BitWidth > 0 {
				fmt.Fprintf(&b, ", bits %d:%d", f.BitOffset, f.BitWidth)
			}
			b.WriteByte('\n')
		}
	}
	for _, e := range api.Enums {
		name := e.Name
		if name == "" {
			name = e.Ref
		}
		sign := "unsigned"
		if e.Signed {
			sign = "signed"
		}
		fmt.Fprintf(&b, "enum %s, size %d, %s\n", name, e.Size, sign)
		for _, v := range e.Values {
			fmt.Fprintf(&b, "enum %s.%s = %d\n", name, v.Name, v.Value)
		}
	}
	for _, t := range api.Typedefs {
		fmt.Fprintf(&b, "typedef %s = %s\n", t.Name, names.CType(t.Type))
	}
	for _, mc := range api.Macros {
		fmt.Fprintf(&b, "#define %s %s // %s\n", mc.Name, mc.Value, mc.CType)
	}
	// The IR spells a pointer to a pointer "char * *"; C code writes "char **".
	out := b.Bytes()
	for bytes.Contains(out, []byte("* *")) {
		out = bytes.ReplaceAll(out, []byte("* *"), []byte("**"))
	}
	w.Write(out)
}

// Manifest is a package's api.txt read back: its declaration lines by key.
type Manifest struct {
	lines []string
	byKey map[string]string
	// command is the comment line after the marker: the command that
	// wrote the package.
	command string
}

// Command is the gen command line that wrote the package, as its api.txt
// records it under the marker line (emit.Options.Command, as a comment
// holds it); "" when it records none. Two manifests with the same Command
// were written by the same gen line.
func (m *Manifest) Command() string { return m.command }

// CUDAVersion is the CUDA version of the headers the package was
// generated from (its version line: 12040 for 12.4); 0 when it has none.
func (m *Manifest) CUDAVersion() int {
	f := strings.Fields(m.byKey["version cuda"])
	if len(f) < 3 {
		return 0
	}
	v, err := strconv.Atoi(f[2])
	if err != nil {
		return 0
	}
	return v
}

// ReadManifest reads the api.txt of a generated package directory; it
// returns nil, nil when there is none (a first generation).
func ReadManifest(dir string) (*Manifest, error) {
	p := dir + string(os.PathSeparator) + manifestFile
	// Never open anything but a regular file: a FIFO would block the run.
	st, err := os.Lstat(p)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("cugen: %s is not a regular file (%v): not written by cugen", p, st.Mode().Type())
	}
	// The size is checked before the read, and the read is bounded: a
	// sparse api.txt of gigabytes costs nothing to make.
	if st.Size() > maxManifest {
		return nil, fmt.Errorf("%s: %d bytes, more than an API manifest can be", p, st.Size())
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("cugen: %s is not a regular file: not written by cugen", p)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxManifest+1))
	if err != nil {
		return nil, err
	}
	return ParseManifest(p, data)
}

// maxManifest bounds what ParseManifest accepts: cuda.h's manifest is
// about 0.3 MB.
const maxManifest = 64 << 20

// ParseManifest reads the lines of an api.txt; name labels its errors.
func ParseManifest(name string, data []byte) (*Manifest, error) {
	if len(data) > maxManifest {
		return nil, fmt.Errorf("%s: %d bytes, more than an API manifest can be", name, len(data))
	}
	mf := &Manifest{byKey: map[string]string{}}
	for n, line := range strings.Split(string(data), "\n") {
		if n == 1 && len(mf.lines) == 0 && strings.HasPrefix(line, "# cugen ") {
			mf.command = line[2:]
		}
		if line == "" || strings.HasPrefix(line, "# ") {
			continue
		}
		if strings.HasPrefix(line, "{") {
			return nil, fmt.Errorf("%s:%d: a JSON manifest of an earlier cugen: no API changes to show this time", name, n+1)
		}
		k := manifestKey(line)
		if k == "" {
			return nil, fmt.Errorf("%s:%d: not a declaration: %.80q", name, n+1, line)
		}
		if _, dup := mf.byKey[k]; dup {
			return nil, fmt.Errorf("%s:%d: %s declared twice", name, n+1, k)
		}
		mf.byKey[k] = line
		mf.lines = append(mf.lines, line)
	}
	return mf, nil
}

// manifestKey is what identifies a line across versions: its kind (struct
// and union are both records; a record's member, whose C type follows its
// name, is a field) and its name; "" for a line that is none.
func manifestKey(line string) string {
	kind, rest, ok := strings.Cut(line, " ")
	if !ok {
		return ""
	}
	switch kind {
	case "struct", "union":
		kind = "record"
	case "version", "func", "enum", "typedef", "#define":
	default:
		return ""
	}
	name, sep := rest, byte(0)
	if i := strings.IndexAny(rest, " (,"); i >= 0 {
		name, sep = rest[:i], rest[i]
	}
	if name == "" {
		return ""
	}
	if kind == "record" && sep == ' ' { // a member: its C type follows its name
		kind = "field"
	}
	return kind + " " + name
}

// Manifest returns the package's api.txt, read back.
func (p *Package) Manifest() (*Manifest, error) {
	return ParseManifest(p.Name+"/"+manifestFile, p.Files[manifestFile])
}

// ManifestChanges are the declaration lines that differ between two
// manifests: Removed and Added in their manifest's order, Changed as
// {old, new} pairs in the new manifest's order.
type ManifestChanges struct {
	Removed, Added []string
	Changed        [][2]string
}

// Empty reports whether the manifests declare the same API.
func (c *ManifestChanges) Empty() bool {
	return len(c.Removed)+len(c.Added)+len(c.Changed) == 0
}

// DiffManifests compares two manifests line by line, matching lines by key.
func DiffManifests(old, new *Manifest) *ManifestChanges {
	c := &ManifestChanges{}
	for _, l := range old.lines {
		if _, ok := new.byKey[manifestKey(l)]; !ok {
			c.Removed = append(c.Removed, l)
		}
	}
	for _, l := range new.lines {
		o, ok := old.byKey[manifestKey(l)]
		switch {
		case !ok:
			c.Added = append(c.Added, l)
		case o != l:
			c.Changed = append(c.Changed, [2]string{o, l})
		}
	}
	return c
}

// WriteText writes c for people: a count line, then "-" for each removed
// line, "+" for each added one, and "-" and "+" for each changed one.
func (c *ManifestChanges) WriteText(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d removed, %d added, %d changed\n", len(c.Removed), len(c.Added), len(c.Changed))
	for _, l := range c.Removed {
		fmt.Fprintf(&b, "  - %s\n", l)
	}
	for _, l := range c.Added {
		fmt.Fprintf(&b, "  + %s\n", l)
	}
	for _, p := range c.Changed {
		fmt.Fprintf(&b, "  - %s\n  + %s\n", p[0], p[1])
	}
	_, err := w.Write(b.Bytes())
	return err
}
