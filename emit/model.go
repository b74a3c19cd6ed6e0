package emit

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// model is one generated package: the declarations of one library plus every
// type they reach, with their Go names decided once.
type model struct {
	// importedLibs are the libraries whose packages' types this one
	// uses (importedType).
	importedLibs map[ir.Library]bool

	api  *ir.API
	desc *library.Desc
	lib  ir.Library // desc.Key
	pkg  string     // desc.Package: "cu", "cudart", "nvrtc", ...
	opts Options

	typedefs map[string]*ir.Typedef
	records  map[string]*ir.Record // by every reference name
	enums    map[string]*ir.Enum   // by every reference name

	// Go identifiers: C reference name -> Go name.
	typeNames  map[string]string
	funcNames  map[*ir.Function]string
	aliasNames map[string]string // C alias macro -> Go name
	funcByC    map[string]string // C API name or symbol -> Go name (funcsByC)
	valNames   map[string]string // enum value / macro C name -> Go name
	// Versioned typedef pairs (typedef CUdeviceptr_v2 CUdeviceptr): the
	// versioned C name -> the unversioned one, and the reverse.
	unversioned, versioned map[string]string

	// Declarations emitted, in IR order.
	recs    []*ir.Record
	ens     []*ir.Enum
	tds     []*ir.Typedef
	funcs   []*ir.Function
	macros  []*ir.Macro
	inits   []*ir.Initializer
	reached map[string]bool

	// imported maps a C type that a package generated before this one
	// from the same headers declares, and whose library owns it, to that
	// package's Go type (cudart.Stream in cublas).
	imported map[string]jen.Code

	// The type-keyed overrides of every library (mergeOverrides).
	defaultOne, devicePointerTypes map[string]string

	audit []string // lines for the audit file
	// unbound are the functions the headers declare that the package
	// leaves out (library.Desc.Unbound), with the reason.
	unbound []unbound
	graph   *graphGlue // the library's GraphAPI, nil without one (findGraphAPI)
}

// builtinTypedefs are C typedefs that become Go's own types: they name a
// width, not a concept.
var builtinTypedefs = map[string]string{
	"size_t": "uint64", "ssize_t": "int64", "uintptr_t": "uintptr", "intptr_t": "int64",
	"uint8_t": "uint8", "uint16_t": "uint16", "uint32_t": "uint32", "uint64_t": "uint64",
	"int8_t": "int8", "int16_t": "int16", "int32_t": "int32", "int64_t": "int64",
	"__uint8_t": "uint8", "__uint16_t": "uint16", "__uint32_t": "uint32", "__uint64_t": "uint64",
	"__int8_t": "int8", "__int16_t": "int16", "__int32_t": "int32", "__int64_t": "int64",
	"cuuint32_t": "uint32", "cuuint64_t": "uint64", "ptrdiff_t": "int64", "wchar_t": "int32",
}

func newModel(api *ir.API, desc *library.Desc, opts Options, earlier ...*model) (*model, error) {
	if opts.Libraries == nil {
		opts.Libraries = library.All
	}
	m := &model{
		api: api, desc: desc, lib: desc.Key, pkg: desc.Package, opts: opts,
		imported:     map[string]jen.Code{},
		typedefs:     map[string]*ir.Typedef{},
		records:      map[string]*ir.Record{},
		enums:        map[string]*ir.Enum{},
		typeNames:    map[string]string{},
		funcNames:    map[*ir.Function]string{},
		aliasNames:   map[string]string{},
		valNames:     map[string]string{},
		reached:      map[string]bool{},
		importedLibs: map[ir.Library]bool{},
	}
	for _, t := range api.Typedefs {
		m.typedefs[t.Name] = t
	}
	for _, r := range api.Records {
		m.records[r.Name] = r
		m.records[r.Ref] = r
	}
	for _, e := range api.Enums {
		m.enums[e.Name] = e
		m.enums[e.Ref] = e
	}
	m.mergeOverrides()
	m.reach(earlier)
	if err := m.assignNames(); err != nil {
		return nil, err
	}
	if err := m.checkNonNull(); err != nil {
		return nil, err
	}
	m.funcByC = m.funcsByC()
	m.findVersionedPairs()
	// Resolved once, from the names: classify reads it (a stream-ordered
	// callback's lifetime, a host node's owner), so it is fixed before
	// any function is classified.
	m.graph = m.findGraphAPI()
	return m, nil
}

// reach selects the package's declarations: everything the library's own
// headers declare, and every type those reach. earlier are the packages
// generated before this one from the same headers (importedType).
func (m *model) reach(earlier []*model) {
	var queue []*ir.Type
	// The declared symbols, for CtxOnly's rule: only a description that
	// has one needs them.
	var declared map[string]bool
	if len(m.desc.CtxOnly) > 0 {
		declared = map[string]bool{}
		for _, f := range m.api.Functions {
			if f.Library == m.lib {
				declared[f.Symbol] = true
			}
		}
	}
	major := int(m.api.CUDAVersion / 1000)
	for _, f := range m.api.Functions {
		if f.Library != m.lib {
			continue
		}
		if why, ok := m.desc.Unbound(major, f.Symbol, func(s string) bool { return declared[s] }); ok {
			m.unbound = append(m.unbound, unbound{f, why})
			continue
		}
		m.funcs = append(m.funcs, f)
		queue = append(queue, f.Result)
		for _, p := range f.Params {
			queue = append(queue, p.Type)
		}
	}
	own := func(l ir.Library) bool { return l == m.lib }
	for _, e := range m.api.Enums {
		if own(e.Library) {
			queue = append(queue, &ir.Type{Kind: ir.Named, Name: e.Name})
		}
	}
	for _, r := range m.api.Records {
		if own(r.Library) && !r.Opaque && !strings.Contains(r.Name, "<anonymous") {
			queue = append(queue, &ir.Type{Kind: ir.Named, Name: r.Name})
		}
	}
	for _, t := range m.api.Typedefs {
		if own(t.Library) && !strings.HasPrefix(t.Name, "PFN_") {
			queue = append(queue, &ir.Type{Kind: ir.Named, Name: t.Name})
		}
	}
	for _, mc := range m.api.Macros {
		if own(mc.Library) {
			m.macros = append(m.macros, mc)
			if _, ok := m.typedefs[mc.CType]; ok {
				queue = append(queue, &ir.Type{Kind: ir.Named, Name: mc.CType})
			}
		}
	}
	for _, in := range m.api.Initializers {
		if own(in.Library) {
			m.inits = append(m.inits, in)
			queue = append(queue, &ir.Type{Kind: ir.Named, Name: in.Record})
		}
	}
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		if t == nil {
			continue
		}
		switch t.Kind {
		case ir.Pointer, ir.Array:
			queue = append(queue, t.Elem)
		case ir.FuncPtr:
			if t.Func != nil {
				queue = append(queue, t.Func.Result)
				for _, p := range t.Func.Params {
					queue = append(queue, p.Type)
				}
			}
		case ir.Named:
			if m.reached[t.Name] {
				continue
			}
			if _, ok := builtinTypedefs[t.Name]; ok {
				m.reached[t.Name] = true
				continue
			}
			if q := m.importedType(earlier, t.Name); q != nil {
				m.importedLibs[m.owner(t.Name)] = true
				m.imported[t.Name] = q
				continue
			}
			m.reached[t.Name] = true
			if td, ok := m.typedefs[t.Name]; ok {
				queue = append(queue, td.Type)
				continue
			}
			if r, ok := m.records[t.Name]; ok {
				m.reached[r.Name] = true
				for _, f := range allFields(r) {
					queue = append(queue, f.Type)
				}
				continue
			}
			if e, ok := m.enums[t.Name]; ok {
				m.reached[e.Name] = true
			}
		}
	}
	for _, r := range m.api.Records {
		if m.reached[r.Name] && !r.Opaque {
			m.recs = append(m.recs, r)
		}
	}
	for _, e := range m.api.Enums {
		if m.reached[e.Name] {
			m.ens = append(m.ens, e)
		}
	}
	for _, t := range m.api.Typedefs {
		if m.reached[t.Name] && builtinTypedefs[t.Name] == "" {
			m.tds = append(m.tds, t)
		}
	}
}

// importedType is the Go type, in a package generated before this one
// (earlier), of a C type that package declares and its library owns (cudaStream_t
// and cudaDataType are the runtime's: cublas.SetStream takes a
// cudart.Stream), so types cross packages without conversions. nil when
// the type is this package's to declare, or the output has no import path.
func (m *model) importedType(earlier []*model, cname string) jen.Code {
	if m.opts.ImportPath == "" || m.cudaAPI() {
		return nil
	}
	owner, ok := m.ownerOf(cname)
	if !ok || owner == m.lib || cname == m.desc.Status {
		// The status type is always the package's own: its errors.
		return nil
	}
	for _, e := range earlier {
		if e.lib != owner || !e.reached[cname] {
			continue
		}
		if n := e.typeName(cname); n != "" {
			return jen.Qual(m.opts.ImportPath+"/"+e.pkg, n)
		}
	}
	return nil
}

// owner is ownerOf's library, "" for none.
func (m *model) owner(cname string) ir.Library {
	l, _ := m.ownerOf(cname)
	return l
}

// importsFrom lists, sorted, the libraries of left (packages a run with
// Options.Only does not generate) that own a type this package reached
// and declared itself: a run generating them would have imported it.
func (m *model) importsFrom(left map[ir.Library]bool) []ir.Library {
	var out []ir.Library
	for name := range m.reached {
		if _, ok := builtinTypedefs[name]; ok {
			continue // never imported (reach)
		}
		if l := m.owner(name); left[l] && !slices.Contains(out, l) && m.importable(name) {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// importable says whether importedType would look for cname in another
// package at all.
func (m *model) importable(cname string) bool {
	owner, ok := m.ownerOf(cname)
	return m.opts.ImportPath != "" && !m.cudaAPI() && ok && owner != m.lib && cname != m.desc.Status
}

// importedPackages are the packages of the same output that p, this
// model's package, imports: those whose types it uses, and cu for
// cudart's context demo test.
func (m *model) importedPackages(p *Package) []string {
	var out []string
	for l := range m.importedLibs {
		for _, d := range m.opts.Libraries {
			if d.Key == l {
				out = append(out, d.Package)
			}
		}
	}
	if _, ok := p.Files["context_demo_test.go"]; ok {
		for _, d := range m.opts.Libraries {
			if d.Key == ir.Driver {
				out = append(out, d.Package)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ownerOf is the library whose headers declare the C type cname.
func (m *model) ownerOf(cname string) (ir.Library, bool) {
	if td, ok := m.typedefs[cname]; ok {
		return td.Library, true
	}
	if r, ok := m.records[cname]; ok {
		return r.Library, true
	}
	if e, ok := m.enums[cname]; ok {
		return e.Library, true
	}
	return "", false
}

// allFields lists a record's fields, descending into anonymous members.
func allFields(r *ir.Record) []ir.Field {
	var out []ir.Field
	for _, f := range r.Fields {
		if f.Anonymous && f.Record != nil {
			out = append(out, allFields(f.Record)...)
			continue
		}
		out = append(out, f)
	}
	return out
}

// assignNames gives every declaration its Go name. One rule resolves
// collisions: the first claimant (functions, then types, then enum values,
// then macros, each in header order) gets the short name; a later one keeps
// its C prefix (fullGoName). Functions come first because they are what
// code names most: cuMemcpy2D is cu.Memcpy2D, and its parameter struct
// CUDA_MEMCPY2D becomes cu.CudaMemcpy2D. Every collision is listed in the
// audit file.
func (m *model) assignNames() error {
	taken := newGoNames("package " + m.desc.Package) // Go name -> C name that took it
	claim := func(cname, short string) (string, error) {
		name := short
		if prev, ok := taken.owner(name); ok && prev != cname {
			name = fullGoName(cname)
			if prev2, ok := taken.owner(name); ok && prev2 != cname {
				return "", fmt.Errorf("emit: %s and %s both become the Go name %s in package %s (%s, its short name, is %s's)", prev2, cname, name, m.desc.Package, short, prev)
			}
			m.audit = append(m.audit, fmt.Sprintf("name %s: %s keeps its prefix as %s (%s is %s)", cname, cname, name, short, prev))
		}
		if prev, ok := taken.owner(name); ok && prev == cname {
			return name, nil
		}
		if err := taken.add(cname, name); err != nil {
			return "", fmt.Errorf("emit: %w", err)
		}
		return name, nil
	}
	// Reserved by the package's own hand-shaped API.
	taken.reserve("(cugen)", helperNames...)
	for _, f := range m.funcs {
		n, err := claim(f.Name, m.goName(f.Name))
		if err != nil {
			return err
		}
		m.funcNames[f] = n
	}
	for _, f := range m.funcs {
		for _, a := range f.Aliases {
			n, err := claim(a, m.goName(a))
			if err != nil {
				return err
			}
			m.aliasNames[a] = n
		}
	}
	for _, r := range m.recs {
		n, err := claim(r.Name, m.recordShortName(r))
		if err != nil {
			return err
		}
		m.typeNames[r.Name] = n
	}
	for _, e := range m.ens {
		n, err := claim(e.Name, m.goName(e.Name))
		if err != nil {
			return err
		}
		m.typeNames[e.Name] = n
	}
	for _, t := range m.tds {
		if target := m.sameNamed(t); target != "" {
			continue // the record or enum already carries this name
		}
		if t.Type.Kind == ir.Named {
			// typedef enum cudaError cudaError_t: both are Error in Go.
			if target := m.typeName(t.Type.Name); target != "" && target == m.goName(t.Name) {
				m.typeNames[t.Name] = target
				continue
			}
		}
		n, err := claim(t.Name, m.goName(t.Name))
		if err != nil {
			return err
		}
		m.typeNames[t.Name] = n
	}
	for _, e := range m.ens {
		for _, v := range e.Values {
			n, err := claim(v.Name, m.goName(v.Name))
			if err != nil {
				return err
			}
			m.valNames[v.Name] = n
		}
	}
	for _, mc := range m.macros {
		if _, ok := m.valNames[mc.Name]; ok {
			continue
		}
		short := m.goName(mc.Name)
		if mc.Name == m.versionMacro() {
			short = "HeaderVersion" // genDoc declares it; see there
		}
		n, err := claim(mc.Name, short)
		if err != nil {
			return err
		}
		m.valNames[mc.Name] = n
	}
	for _, in := range m.inits {
		n, err := claim(in.Name, m.goName(in.Name))
		if err != nil {
			return err
		}
		m.valNames[in.Name] = n
	}
	return nil
}

// recordShortName names anonymous member records after their owner and
// member: CUDA_RESOURCE_DESC's union res -> ResourceDescRes.
func (m *model) recordShortName(r *ir.Record) string {
	if r.Parent == "" {
		return m.goName(r.Name)
	}
	parent := r.Parent
	if pr, ok := m.records[parent]; ok {
		if pr.Parent != "" {
			return m.recordShortName(pr) + camel(r.Member)
		}
		parent = pr.Name
	}
	return m.goName(parent) + camel(r.Member)
}

// sameNamed reports the record/enum a typedef names when that declaration
// took the typedef's own name (typedef struct X {...} Name).
func (m *model) sameNamed(t *ir.Typedef) string {
	if t.Type.Kind != ir.Named {
		return ""
	}
	if r, ok := m.records[t.Type.Name]; ok && r.Name == t.Name {
		return r.Name
	}
	if e, ok := m.enums[t.Type.Name]; ok && e.Name == t.Name {
		return e.Name
	}
	return ""
}

// typeName returns the Go name of a named C type reference.
func (m *model) typeName(cname string) string {
	if g, ok := builtinTypedefs[cname]; ok {
		return g
	}
	if n, ok := m.typeNames[cname]; ok {
		return n
	}
	if r, ok := m.records[cname]; ok {
		if n, ok := m.typeNames[r.Name]; ok {
			return n
		}
	}
	if e, ok := m.enums[cname]; ok {
		if n, ok := m.typeNames[e.Name]; ok {
			return n
		}
	}
	return ""
}

func sortedKeys[V any](mp map[string]V) []string {
	ks := make([]string, 0, len(mp))
	for k := range mp {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// unbound is a declared function the package leaves out, and why.
type unbound struct {
	fn  *ir.Function
	why string
}
