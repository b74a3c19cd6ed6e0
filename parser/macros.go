package parser

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/cugen/cugen/parser/ir"
	"modernc.org/cc/v4"
)

// declarationOf finds the file-scope declaration that declares d. cc/v4
// nodes have no parent links, so the first call indexes the translation
// unit once.
func (p *parse) declarationOf(d *cc.Declarator) *cc.Declaration {
	if p.declOf == nil {
		p.declOf = map[*cc.Declarator]*cc.Declaration{}
		for l := p.ast.TranslationUnit; l != nil; l = l.TranslationUnit {
			ed := l.ExternalDeclaration
			if ed == nil || ed.Declaration == nil {
				continue
			}
			for il := ed.Declaration.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
				if il.InitDeclarator != nil && il.InitDeclarator.Declarator != nil {
					p.declOf[il.InitDeclarator.Declarator] = ed.Declaration
				}
			}
		}
	}
	return p.declOf[d]
}

func (p *parse) macroInt(name string) (int64, bool) {
	m := p.ast.Macros[name]
	if m == nil {
		return 0, false
	}
	switch v := m.Value().(type) {
	case cc.Int64Value:
		return int64(v), true
	case cc.UInt64Value:
		return int64(v), true
	}
	return 0, false
}

func (p *parse) collectMacrosVersions() error {
	v, ok := p.macroInt("CUDA_VERSION")
	if !ok {
		return &Error{File: requiredHeader(p.libs), Msg: "no CUDA_VERSION macro: not a CUDA driver API header"}
	}
	p.api.CUDAVersion = v
	p.api.RuntimeVersion, _ = p.macroInt("CUDART_VERSION")
	return nil
}

// replacement returns a macro's replacement tokens as strings.
func replacement(m *cc.Macro) []string {
	var out []string
	for _, t := range m.ReplacementList() {
		if s := t.SrcStr(); strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

var identRE = regexp.MustCompile(`^[A-Za-z_]\w*$`)

// apiAliases inverts `#define cuCtxCreate cuCtxCreate_v2` and
// `#define cuMemcpyHtoD __CUDA_API_PTDS(cuMemcpyHtoD_v2)`: linked symbol ->
// API name, for versioned symbols (name + _vN) and ptds wrappers. When
// several names alias one symbol the shortest (then alphabetically first)
// wins, so the choice does not depend on map order. Any other alias
// (`#define cuGraphInstantiate cuGraphInstantiateWithFlags`, where the target
// is an API name of its own) is returned in others, sorted.
func (p *parse) apiAliases() (versioned map[string]string, others map[string][]string) {
	out := map[string]string{}
	others = map[string][]string{}
	for name, m := range p.ast.Macros {
		if m.IsFnLike || !p.isCUDAFile(m.Position().Filename) {
			continue
		}
		r := replacement(m)
		var target string
		switch {
		case len(r) == 1 && identRE.MatchString(r[0]):
			target = r[0]
		case len(r) == 4 && strings.HasPrefix(r[0], "__CUDA") && r[1] == "(" && r[3] == ")":
			target = r[2]
		default:
			continue
		}
		if target == name {
			continue
		}
		if !strings.HasPrefix(r[0], "__CUDA") && !versionOnlyRE.MatchString(strings.TrimPrefix(target, name)) && versionInfixRE.ReplaceAllString(target, "$1") != name {
			others[target] = append(others[target], name)
			continue
		}
		if old, ok := out[target]; ok && (len(old) < len(name) || len(old) == len(name) && old < name) {
			continue
		}
		out[target] = name
	}
	for _, v := range others {
		sort.Strings(v)
	}
	return out, others
}

var ptdsRE = regexp.MustCompile(`(?m)^\s*#\s*define\s+(\w+)\s+__CUDA(?:RT)?_API_PT(DS|SZ)\(\s*(\w+)\s*\)`)

// perThreadSymbols maps a linked symbol to its per-thread-default-stream
// variant. The runtime's mappings sit in an #if branch that is inactive in a
// normal parse, so they are read from the header text: every
// `#define X __CUDA(RT)_API_PTDS(sym)` means sym has a sym_ptds twin.
func (p *parse) perThreadSymbols() (map[string]string, error) {
	out := map[string]string{}
	var headers []string
	for _, d := range p.libs {
		headers = append(headers, d.Declare...)
		if d.SymbolVersions != "" {
			headers = append(headers, d.SymbolVersions)
		}
	}
	for _, h := range headers {
		f, ok := p.find(h)
		if !ok {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return nil, fmt.Errorf("cugen: %w", err)
		}
		// Match line by line, and only lines that can match: the regexp
		// over the whole of cuda.h is a tenth of the parse.
		for _, line := range bytes.Split(b, []byte("\n")) {
			if !bytes.Contains(line, []byte("_API_PT")) {
				continue
			}
			if m := ptdsRE.FindSubmatch(line); m != nil {
				out[string(m[3])] = string(m[3]) + "_pt" + strings.ToLower(string(m[2]))
			}
		}
	}
	return out, nil
}

var pfnRE = regexp.MustCompile(`^PFN_(\w+?)_v(\d+)$`)

// pfnVersions maps driver symbols to the CUDA version that introduced their
// signature, from cudaTypedefs.h's PFN_<api>_v<version> typedefs. A symbol
// matches the typedef of its API name (or the name without a _vN suffix)
// whose parameter names agree with the declaration.
func (p *parse) pfnVersions() map[string]int {
	type pfn struct {
		version int
		params  string
	}
	byAPI := map[string][]pfn{}
	for name, nodes := range p.ast.Scope.Nodes {
		m := pfnRE.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		for _, n := range nodes {
			d, ok := n.(*cc.Declarator)
			if !ok || !d.IsTypename() {
				continue
			}
			pt, ok := d.Type().(*cc.PointerType)
			if !ok {
				continue
			}
			ft, ok := pt.Elem().(*cc.FunctionType)
			if !ok {
				continue
			}
			v, _ := strconv.Atoi(m[2])
			byAPI[m[1]] = append(byAPI[m[1]], pfn{v, paramNames(ft)})
		}
	}
	// The PFN_ typedefs give the versions of the functions of their
	// library's main header.
	versioned := map[string]bool{}
	for _, d := range p.libs {
		if d.SymbolVersions != "" {
			versioned[d.Include[0]] = true
		}
	}
	out := map[string]int{}
	for _, nodes := range p.ast.Scope.Nodes {
		for _, n := range nodes {
			d, ok := n.(*cc.Declarator)
			if !ok || d.IsTypename() || d.Type().Kind() != cc.Function {
				continue
			}
			if !versioned[filepath.Base(d.Position().Filename)] {
				continue
			}
			sym := d.Name()
			names := paramNames(d.Type().(*cc.FunctionType))
			api := strings.TrimSuffix(sym, versionSuffix(sym))
			best := 0
			for _, key := range []string{sym, api} {
				for _, c := range byAPI[key] {
					if c.params == names && (best == 0 || c.version < best) {
						best = c.version
					}
				}
				if best != 0 {
					break
				}
			}
			if best != 0 {
				out[sym] = best
			}
		}
	}
	return out
}

var (
	vSuffixRE     = regexp.MustCompile(`_v\d+$`)
	versionOnlyRE = regexp.MustCompile(`^_v\d+$`)
	// versionInfixRE finds a version inside a name: cublasCgemm_v2_64 is
	// the versioned symbol of cublasCgemm_64.
	versionInfixRE = regexp.MustCompile(`_v\d+(_)`)
)

func versionSuffix(s string) string { return vSuffixRE.FindString(s) }

func paramNames(ft *cc.FunctionType) string {
	var b strings.Builder
	for _, prm := range ft.Parameters() {
		b.WriteString(prm.Name())
		b.WriteByte(',')
	}
	return b.String()
}

// collectMacros keeps object-like macros of the CUDA headers that evaluate
// to a constant: version numbers, flags (CU_MEMHOSTALLOC_*), special
// handles (CU_STREAM_LEGACY) and sentinels (CU_LAUNCH_PARAM_END).
func (p *parse) collectMacros() error {
	var names []string
	for name, m := range p.ast.Macros {
		if m.IsFnLike || strings.HasPrefix(name, "_") || !p.isCUDAFile(m.Position().Filename) {
			continue
		}
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		m := p.ast.Macros[name]
		pos := m.Position()
		lib, _ := p.libraryOf(pos.Filename)
		mc := &ir.Macro{Name: name, Library: lib, Pos: p.pos(pos.Filename, pos.Line)}
		t := m.Type()
		mc.CType = p.typ(t).C // C spelling: "unsigned int", "void *", "CUstream"
		switch v := m.Value().(type) {
		case cc.Int64Value:
			mc.Kind, mc.Value, mc.Signed = ir.Int, strconv.FormatInt(int64(v), 10), true
		case cc.UInt64Value:
			mc.Kind, mc.Value = ir.Int, strconv.FormatUint(uint64(v), 10)
		case cc.Float64Value:
			f := float64(v)
			if math.IsInf(f, 0) || math.IsNaN(f) {
				continue
			}
			mc.Kind, mc.Value = ir.Float, strconv.FormatFloat(f, 'g', -1, 64)
			if t.Kind() == cc.Float {
				mc.Value = strconv.FormatFloat(f, 'g', -1, 32)
			}
		default:
			continue
		}
		if t.Kind() == cc.Ptr {
			mc.Kind = ir.Pointer
		}
		if mc.Kind == ir.Int && mc.Signed && isUnsignedKind(t.Kind()) {
			// cc reports e.g. 0xffffffffU as Int64Value with an unsigned type.
			mc.Signed = false
		}
		mc.Doc = parseDoc(p.trailingDoc(pos.Filename, pos.Line)).doc
		if mc.Doc == nil {
			mc.Doc = parseDoc(p.leadingDoc(pos.Filename, pos.Line)).doc
		}
		p.api.Macros = append(p.api.Macros, mc)
	}
	sort.SliceStable(p.api.Macros, func(i, j int) bool { return posLess(p.api.Macros[i].Pos, p.api.Macros[j].Pos) })
	return nil
}

func isUnsignedKind(k cc.Kind) bool {
	switch k {
	case cc.UChar, cc.UShort, cc.UInt, cc.ULong, cc.ULongLong, cc.Bool:
		return true
	}
	return false
}

// leadingDoc returns the /** ... */ comment that ends on the line before the
// given line of file: the documentation of a #define, which cc keeps no
// tokens of.
func (p *parse) leadingDoc(file string, line int) string {
	p.trailingDoc(file, 0) // loads the file's lines
	lines := p.lines[file]
	end := line - 2 // index of the previous line
	if end < 0 || end >= len(lines) || !strings.HasSuffix(strings.TrimSpace(lines[end]), "*/") {
		return ""
	}
	for i := end; i >= 0 && i > end-200; i-- {
		if strings.Contains(lines[i], "/*") {
			text := strings.Join(lines[i:end+1], "\n")
			text = text[strings.Index(text, "/*"):]
			if !strings.HasPrefix(text, "/**") || strings.HasPrefix(text, "/**<") {
				return ""
			}
			return lastDocComment([]byte(text))
		}
	}
	return ""
}
