package parser

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cugen/cugen/parser/ir"
	"modernc.org/cc/v4"
)

// Kernels reads the kernels of a CUDA C++ source file for cugen kernels:
// every extern "C" __global__ function, and each template instantiation
// that instances names (saxpy<float>), with its parameters as C lays them
// out.
//
// A CUDA source is C++, which modernc.org/cc/v4 does not parse. But a
// kernel's parameters are plain C declarations: arithmetic types,
// pointers, and structs passed by value. So Kernels finds each kernel's
// declaration with a C++-aware scan of the tokens (comments, strings,
// templates, extern "C" blocks, __launch_bounds__), removes CUDA's
// qualifiers (__restrict__, __grid_constant__), substitutes template
// arguments, and hands the parameter list to the C front end, declared as
// a C function in a translation unit that also holds the CUDA vector
// types (float4, with CUDA's alignments), the half types __half and
// __nv_bfloat16 (kernelHalfTypes), the typedefs NVRTC predefines for
// texture and surface objects, and the source's own top-level struct
// definitions and typedefs. The C front end then gives every size,
// alignment and offset; cugen kernels checks them against the compiled
// cubin's parameter info. A parameter C cannot declare (a class with
// methods, a reference) is an error naming the kernel and the parameter.
func Kernels(src []byte, file string, instances []string) ([]*ir.Kernel, error) {
	toks, err := scanCUDA(src, file)
	if err != nil {
		return nil, err
	}
	decls, defs := kernelDecls(toks)
	wanted := map[string]bool{}
	var kernels []*ir.Kernel
	var protos []string
	type pending struct {
		k    *ir.Kernel
		args []string // parameter names
	}
	var todo []pending
	add := func(d kernelDecl, expr string, subst map[string]string) error {
		names, ctext, err := d.params(subst)
		if err != nil {
			return fmt.Errorf("%s:%d: kernel %s: %v", file, d.line, expr, err)
		}
		k := &ir.Kernel{Name: d.name, Expr: expr, File: file, Line: d.line}
		protos = append(protos, fmt.Sprintf("#line %d \"%s\"\nvoid __cugen_kernel_%d(%s);", d.line, file, len(todo), ctext))
		todo = append(todo, pending{k, names})
		return nil
	}
	for _, d := range decls {
		if d.externC && d.template == nil {
			if err := add(d, d.name, nil); err != nil {
				return nil, err
			}
		}
	}
	for _, inst := range instances {
		name, args, err := splitInstance(inst)
		if err != nil {
			return nil, fmt.Errorf("-name %q: %v", inst, err)
		}
		if wanted[inst] {
			return nil, fmt.Errorf("-name %q given twice", inst)
		}
		wanted[inst] = true
		i := slices.IndexFunc(decls, func(d kernelDecl) bool { return d.name == name && d.template != nil })
		if i < 0 {
			return nil, fmt.Errorf("-name %q: %s declares no __global__ template %s", inst, file, name)
		}
		d := decls[i]
		if len(args) != len(d.template) {
			return nil, fmt.Errorf("-name %q: template %s (%s:%d) takes %d arguments, not %d", inst, name, file, d.line, len(d.template), len(args))
		}
		subst := map[string]string{}
		for j, p := range d.template {
			subst[p] = args[j]
		}
		if err := add(d, inst, subst); err != nil {
			return nil, err
		}
	}
	if len(todo) == 0 {
		return nil, fmt.Errorf("%s: no extern \"C\" __global__ kernel, and no -name of a template kernel", file)
	}

	unit := kernelPrelude + strings.Join(defs, "\n") + "\n" + strings.Join(protos, "\n") + "\n"
	cfg, err := newConfig()
	if err != nil {
		return nil, err
	}
	ast, err := translate(cfg, []cc.Source{
		{Name: "<predefined>", Value: cfg.Predefined},
		{Name: "<builtin>", Value: cc.Builtin},
		{Name: "<kernels>", Value: unit},
	})
	if err != nil {
		if perr := unknownArgument(cfg, defs, file, instances); perr != nil {
			return nil, perr
		}
		first, _, _ := strings.Cut(err.Error(), "\n")
		return nil, fmt.Errorf("kernel parameters as C: %s", first)
	}
	funcs := map[string]*cc.FunctionType{}
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil || ed.Declaration == nil {
			continue
		}
		for il := ed.Declaration.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
			d := il.InitDeclarator.Declarator
			if ft, ok := d.Type().(*cc.FunctionType); ok && strings.HasPrefix(d.Name(), "__cugen_kernel_") {
				funcs[d.Name()] = ft
			}
		}
	}
	for i, p := range todo {
		ft := funcs[fmt.Sprintf("__cugen_kernel_%d", i)]
		if ft == nil {
			return nil, fmt.Errorf("%s:%d: kernel %s: its parameters did not declare as C", file, p.k.Line, p.k.Expr)
		}
		params := ft.Parameters()
		if len(params) == 1 && params[0].Type().Kind() == cc.Void && len(p.args) == 0 {
			params = nil
		}
		if len(params) != len(p.args) {
			return nil, fmt.Errorf("%s:%d: kernel %s: %d parameters read, C declared %d", file, p.k.Line, p.k.Expr, len(p.args), len(params))
		}
		var off int64
		for j, prm := range params {
			t, err := kernelType(prm.Type(), 0)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: kernel %s: parameter %s: %v", file, p.k.Line, p.k.Expr, ir.KernelParam{Name: p.args[j]}.Label(j), err)
			}
			off = (off + t.Align - 1) / t.Align * t.Align
			p.k.Params = append(p.k.Params, ir.KernelParam{Name: p.args[j], Type: t, Offset: off})
			off += t.Size
		}
		kernels = append(kernels, p.k)
	}
	return kernels, nil
}

// kernelType converts a parameter's (or a field's) C type.
func kernelType(t cc.Type, depth int) (*ir.KernelType, error) {
	if depth > 16 {
		return nil, fmt.Errorf("types nested too deeply")
	}
	r := &ir.KernelType{Size: t.Size(), Align: int64(t.Align()), C: t.String()}
	if r.Size < 0 || (r.Size == 0 && t.Kind() != cc.Void) || r.Align <= 0 {
		if t.Kind() != cc.Void {
			return nil, fmt.Errorf("type %s is not one cugen kernels can lay out: declare it at the top level as a struct of plain fields (struct S { ... }; or typedef struct { ... } S;)", t)
		}
	}
	switch x := t.(type) {
	case *cc.PointerType:
		r.Kind = ir.KPointer
		elem := x.Elem()
		r.Const = elem.Attributes().IsConst()
		if _, ok := elem.(*cc.PointerType); ok {
			return nil, fmt.Errorf("a pointer to a pointer (%s): pass a buffer of device addresses as a pointer to unsigned long long", t)
		}
		cconst := ""
		if r.Const {
			cconst = "const "
		}
		if elem.Kind() == cc.Void {
			r.Elem = &ir.KernelType{Kind: ir.KScalar, Scalar: "void", C: "void", Size: 1, Align: 1}
			r.C = cconst + "void *"
			return r, nil
		}
		e, err := kernelType(elem, depth+1)
		if err != nil {
			return nil, err
		}
		if e.Kind == ir.KArray {
			return nil, fmt.Errorf("a pointer to an array (%s)", t)
		}
		r.Elem = e
		r.C = cconst + e.C + " *"
		return r, nil
	case *cc.ArrayType:
		if depth == 0 {
			return nil, fmt.Errorf("an array parameter (%s) is a pointer in C: declare it as one", t)
		}
		e, err := kernelType(x.Elem(), depth+1)
		if err != nil {
			return nil, err
		}
		r.Kind, r.Elem, r.Len = ir.KArray, e, x.Len()
		r.C = fmt.Sprintf("%s[%d]", e.C, r.Len)
		return r, nil
	case *cc.StructType:
		tag := x.Tag()
		if h, ok := kernelHalfTypes[string(tag.Src())]; ok {
			// __half or __nv_bfloat16 (or a typedef of one): a 2-byte
			// number of its own, not a struct of the source
			r.Kind, r.Scalar, r.C = ir.KScalar, h, h
			return r, nil
		}
		r.Kind = ir.KStruct
		if td := t.Typedef(); td != nil {
			r.Name = td.Name()
		} else if len(tag.Src()) != 0 {
			r.Name = string(tag.Src())
		} else {
			return nil, fmt.Errorf("an anonymous struct type: give it a name")
		}
		r.C = r.Name
		for i := 0; i < x.NumFields(); i++ {
			f := x.FieldByIndex(i)
			if f.IsBitfield() {
				return nil, fmt.Errorf("struct %s: field %s is a bit field", r.Name, f.Name())
			}
			if f.Name() == "" {
				return nil, fmt.Errorf("struct %s: an unnamed member", r.Name)
			}
			ft, err := kernelType(f.Type(), depth+1)
			if err != nil {
				return nil, fmt.Errorf("struct %s: field %s: %v", r.Name, f.Name(), err)
			}
			if ft.Kind == ir.KPointer {
				// a device address in a struct: its element type says
				// nothing Go can check, so it is an address
				ft = &ir.KernelType{Kind: ir.KScalar, Scalar: "unsigned long long", C: ft.C, Size: 8, Align: 8}
			}
			r.Fields = append(r.Fields, ir.KernelField{Name: f.Name(), Type: ft, Offset: f.Offset()})
		}
		return r, nil
	case *cc.UnionType:
		return nil, fmt.Errorf("a union (%s)", t)
	case *cc.EnumType:
		r.Kind, r.Scalar = ir.KScalar, cIntName(x.UnderlyingType().Kind())
		r.C = r.Scalar
		return r, nil
	}
	switch t.Kind() {
	case cc.Float, cc.Double:
		r.Kind, r.Scalar = ir.KScalar, t.Kind().String()
		r.C = r.Scalar
	case cc.Bool, cc.Char, cc.SChar, cc.UChar, cc.Short, cc.UShort, cc.Int, cc.UInt,
		cc.Long, cc.ULong, cc.LongLong, cc.ULongLong:
		r.Kind, r.Scalar = ir.KScalar, cIntName(t.Kind())
		r.C = r.Scalar
		if t.Kind() == cc.Char {
			r.Scalar = "signed char" // char is signed on every target NVRTC compiles for
		}
	default:
		return nil, fmt.Errorf("type %s has no Go counterpart here", t)
	}
	return r, nil
}

// kernelHalfTypes are CUDA's 16-bit floating-point types a kernel
// parameter may have, by the tag of the struct kernelPrelude declares
// each as: C has no half types, and cuda_fp16.h and cuda_bf16.h are C++.
// Each is its bits, 2 bytes and 2-aligned as the headers declare it
// (struct __align__(2) __half { unsigned short __x; }), and its
// parameters are KScalar of Scalar "__half" or "__nv_bfloat16".
var kernelHalfTypes = map[string]string{
	"__cugen_half":     "__half",
	"__cugen_bfloat16": "__nv_bfloat16",
}

// kernelPrelude declares, in C, what NVRTC predefines (or its CUDA
// headers declare) that kernel parameters use: the vector types with
// CUDA's alignments (vector_types.h: float4 is 16-byte aligned, float3
// only 4), the half types (kernelHalfTypes), and the handle types of
// texture and surface objects.
var kernelPrelude = func() string {
	var b strings.Builder
	b.WriteString("#include <stddef.h>\n#include <stdint.h>\n#include <stdbool.h>\n")
	b.WriteString("typedef struct __cugen_half { unsigned short __x; } __half;\n")
	b.WriteString("typedef struct __cugen_bfloat16 { unsigned short __x; } __nv_bfloat16;\n")
	b.WriteString("typedef unsigned long long cudaTextureObject_t;\ntypedef unsigned long long cudaSurfaceObject_t;\n")
	b.WriteString("typedef unsigned long long CUtexObject;\ntypedef unsigned long long CUsurfObject;\n")
	// name, C element, alignments of 1..4 components (0: not declared)
	for _, v := range []struct {
		name, elem string
		align      [4]int
	}{
		{"char", "signed char", [4]int{1, 2, 1, 4}},
		{"uchar", "unsigned char", [4]int{1, 2, 1, 4}},
		{"short", "short", [4]int{2, 4, 2, 8}},
		{"ushort", "unsigned short", [4]int{2, 4, 2, 8}},
		{"int", "int", [4]int{4, 8, 4, 16}},
		{"uint", "unsigned int", [4]int{4, 8, 4, 16}},
		{"long", "long", [4]int{8, 16, 8, 16}},
		{"ulong", "unsigned long", [4]int{8, 16, 8, 16}},
		{"longlong", "long long", [4]int{8, 16, 8, 16}},
		{"ulonglong", "unsigned long long", [4]int{8, 16, 8, 16}},
		{"float", "float", [4]int{4, 8, 4, 16}},
		{"double", "double", [4]int{8, 16, 8, 16}},
	} {
		fields := []string{"x", "y", "z", "w"}
		for n := 1; n <= 4; n++ {
			fmt.Fprintf(&b, "typedef struct __attribute__((aligned(%d))) %s%d { %s %s; } %s%d;\n",
				v.align[n-1], v.name, n, v.elem, strings.Join(fields[:n], ", "), v.name, n)
		}
	}
	b.WriteString("typedef struct dim3 { unsigned int x, y, z; } dim3;\n")
	return b.String()
}()

// unknownArgument is the error for the first template argument of
// instances that is neither a type nor an integer constant the parse of
// the kernels' parameters knows (axpy<half>: NVRTC's cuda_fp16.h is not
// read, and of its names only __half is known), naming the types it knows; nil when every one is known.
func unknownArgument(cfg *cc.Config, defs []string, file string, instances []string) error {
	known := func(decl string) bool {
		_, err := translate(cfg, []cc.Source{
			{Name: "<predefined>", Value: cfg.Predefined},
			{Name: "<builtin>", Value: cc.Builtin},
			{Name: "<kernels>", Value: kernelPrelude + strings.Join(defs, "\n") + "\n" + decl + "\n"},
		})
		return err == nil
	}
	for _, inst := range instances {
		_, args, err := splitInstance(inst)
		if err != nil {
			continue
		}
		for _, a := range args {
			if known("typedef "+a+" __cugen_probe;") || known("enum { __cugen_probe = ("+a+") };") {
				continue
			}
			return fmt.Errorf("-name %q: %q is not a type -name knows: C's (char, short, int, long, long long, their unsigned forms, float, double, bool), "+
				"<stdint.h>'s and <stddef.h>'s (int32_t, uint64_t, size_t, ...), CUDA's vector types (float4, int2, uchar3, ..., dim3), "+
				"__half, __nv_bfloat16, cudaTextureObject_t, cudaSurfaceObject_t, and the structs and typedefs %s declares; or an integer constant", inst, a, file)
		}
	}
	return nil
}

// KernelTemplate is a __global__ template of a CUDA source: bound only
// through an instantiation named with -name.
type KernelTemplate struct {
	Name   string
	Line   int
	Params []string // the template parameters' names
}

// KernelTemplates lists the __global__ templates of src, in order.
func KernelTemplates(src []byte, file string) ([]KernelTemplate, error) {
	toks, err := scanCUDA(src, file)
	if err != nil {
		return nil, err
	}
	decls, _ := kernelDecls(toks)
	var out []KernelTemplate
	for _, d := range decls {
		if d.template != nil {
			out = append(out, KernelTemplate{Name: d.name, Line: d.line, Params: d.template})
		}
	}
	return out, nil
}

// splitInstance splits "saxpy<float, 4>" into saxpy and [float 4].
func splitInstance(s string) (name string, args []string, err error) {
	lt := strings.IndexByte(s, '<')
	if lt <= 0 || !strings.HasSuffix(s, ">") {
		return "", nil, fmt.Errorf("not a template instantiation NAME<ARGS>")
	}
	name = strings.TrimSpace(s[:lt])
	if !ir.IsIdent(name) {
		return "", nil, fmt.Errorf("%q is not a kernel name", name)
	}
	depth, start := 0, lt+1
	body := s[:len(s)-1]
	for i := lt + 1; i < len(body); i++ {
		switch body[i] {
		case '<', '(':
			if depth++; depth > maxKernelNesting {
				return "", nil, fmt.Errorf("brackets nested more than %d deep", maxKernelNesting)
			}
		case '>', ')':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(body[start:i]))
				start = i + 1
			}
		}
	}
	args = append(args, strings.TrimSpace(body[start:]))
	for _, a := range args {
		if a == "" {
			return "", nil, fmt.Errorf("an empty template argument")
		}
	}
	return name, args, nil
}

// A cudaToken is a token of CUDA C++ source: an identifier or keyword, a
// number, a string or character literal, or one punctuation character.
type cudaToken struct {
	text string
	line int
}

// maxKernelSource bounds the source cugen kernels reads.
const maxKernelSource = 16 << 20

// maxKernelNesting bounds how deeply brackets nest, in the source and in a
// -name: parameter lists go to the C front end, which parses nesting by
// recursion (100,000 parentheses overflowed the stack).
const maxKernelNesting = 256

// scanCUDA splits src into tokens, dropping comments and preprocessor
// lines (kernels are declared by plain tokens; a macro that spells a
// kernel's parameters is not seen, and its kernel is then an error of
// the parameter check against the cubin).
func scanCUDA(src []byte, file string) ([]cudaToken, error) {
	if len(src) > maxKernelSource {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d cugen kernels reads", file, len(src), maxKernelSource)
	}
	text := string(src) // one copy: each token's text is a slice of it
	toks := make([]cudaToken, 0, len(src)/8)
	line := 1
	atLineStart := true
	depth := 0 // of (, [ and {
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			atLineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '#' && atLineStart:
			// a preprocessor line, with its continuations
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n' {
					line++
					i++
				}
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return nil, fmt.Errorf("%s:%d: a comment that does not end", file, line)
			}
			line += bytes.Count(src[i:i+2+end], []byte("\n"))
			i += end + 4
			continue
		}
		atLineStart = false
		start, startLine := i, line
		switch {
		case c == '"' || c == '\'':
			i++
			for i < len(src) && src[i] != c {
				if src[i] == '\\' {
					i++
				}
				if i < len(src) && src[i] == '\n' {
					return nil, fmt.Errorf("%s:%d: a literal that does not end", file, line)
				}
				i++
			}
			if i >= len(src) {
				return nil, fmt.Errorf("%s:%d: a literal that does not end", file, startLine)
			}
			i++
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			for i < len(src) && (src[i] == '_' || src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z' || src[i] >= '0' && src[i] <= '9' || src[i] == '.' && c >= '0' && c <= '9') {
				i++
			}
		case c == ':' && i+1 < len(src) && src[i+1] == ':':
			i += 2
		case c == '(' || c == '[' || c == '{':
			if depth++; depth > maxKernelNesting {
				return nil, fmt.Errorf("%s:%d: brackets nested more than %d deep", file, line, maxKernelNesting)
			}
			i++
		case c == ')' || c == ']' || c == '}':
			depth = max(depth-1, 0)
			i++
		default:
			i++
		}
		toks = append(toks, cudaToken{text[start:i], startLine})
	}
	return toks, nil
}

// kernelDecl is a __global__ function's declaration found by the scan.
type kernelDecl struct {
	name     string
	line     int
	externC  bool
	template []string // template parameter names; nil if not a template
	params   func(subst map[string]string) (names []string, ctext string, err error)
}

// qualifiers dropped from parameter lists: CUDA's and C++'s, meaningless
// to a parameter's layout.
var droppedQualifiers = map[string]bool{
	"__restrict__": true, "__restrict": true, "restrict": true, "__grid_constant__": true,
}

// kernelDecls finds the __global__ declarations among toks, and the
// source's top-level struct definitions and typedefs as C text (defs) for
// the parameter types they declare.
//
// It is linear in the tokens: each bracket's close is looked up in a table
// made in one pass (closers), and a statement's prefix is read once
// however many __global__ it holds (stmtPrefix). Before, each __global__
// after an unclosed "template <" scanned to the end: a 4 MB source took
// minutes.
func kernelDecls(toks []cudaToken) (decls []kernelDecl, defs []string) {
	match := closers(toks)
	matchClose := func(open int) int { return match[open] }
	var prefix stmtPrefix
	// blocks: the kind of each open brace ('e' extern "C" {, 'n' a
	// namespace, 'o' any other)
	var blocks []byte
	externDepth := 0
	stmtStart := 0
	seen := map[string]bool{}
	for i := 0; i < len(toks); i++ {
		t := toks[i].text
		switch t {
		case "{":
			kind := byte('o')
			if i >= 2 && toks[i-1].text == `"C"` && toks[i-2].text == "extern" {
				kind = 'e'
				externDepth++
			} else if i >= 2 && toks[i-2].text == "namespace" || i >= 1 && toks[i-1].text == "namespace" {
				kind = 'n'
			}
			if kind == 'o' && topLevel(blocks) {
				// a top-level struct definition: struct NAME { ... } ;
				if j := stmtStart; j+1 < i && toks[j].text == "struct" && i == j+2 && ir.IsIdent(toks[j+1].text) {
					if end := matchClose(i); end > 0 && end+1 < len(toks) && toks[end+1].text == ";" && plainBody(toks[i+1:end]) {
						name := toks[j+1].text
						defs = append(defs, joinTokens(toks[j:end+2]), fmt.Sprintf("typedef struct %s %s;", name, name))
						i = end + 1
						stmtStart = i + 1
						continue
					}
				}
				// typedef struct { ... } NAME ;
				if j := stmtStart; j+1 < i && toks[j].text == "typedef" && toks[j+1].text == "struct" {
					if end := matchClose(i); end > 0 && end+2 < len(toks) && ir.IsIdent(toks[end+1].text) && toks[end+2].text == ";" && plainBody(toks[i+1:end]) {
						defs = append(defs, joinTokens(toks[j:end+3]))
						i = end + 2
						stmtStart = i + 1
						continue
					}
				}
			}
			blocks = append(blocks, kind)
			stmtStart = i + 1
		case "}":
			if len(blocks) > 0 {
				if blocks[len(blocks)-1] == 'e' {
					externDepth--
				}
				blocks = blocks[:len(blocks)-1]
			}
			stmtStart = i + 1
		case ";":
			if topLevel(blocks) && toks[stmtStart].text == "typedef" && i > stmtStart+2 && !containsText(toks[stmtStart:i], "(") {
				defs = append(defs, joinTokens(toks[stmtStart:i+1]))
			}
			stmtStart = i + 1
		case "__global__":
			if !topLevel(blocks) {
				continue
			}
			if prefix.start != stmtStart || prefix.toks == nil {
				prefix = stmtPrefix{toks: toks, match: match, start: stmtStart, pos: stmtStart}
			}
			d, next, ok := parseKernelDecl(toks, match, &prefix, i, externDepth > 0)
			if ok && !seen[d.name+fmt.Sprint(d.template != nil)] {
				seen[d.name+fmt.Sprint(d.template != nil)] = true
				decls = append(decls, d)
			}
			if next > i {
				i = next - 1
			}
		}
	}
	return decls, defs
}

// topLevel: no braces open but extern "C" and namespace blocks.
func topLevel(blocks []byte) bool {
	for _, b := range blocks {
		if b == 'o' {
			return false
		}
	}
	return true
}

func containsText(toks []cudaToken, s string) bool {
	return slices.ContainsFunc(toks, func(t cudaToken) bool { return t.text == s })
}

// plainBody: a struct body of fields only (no member functions, no
// access specifiers, no nested braces).
func plainBody(toks []cudaToken) bool {
	for _, t := range toks {
		switch t.text {
		case "(", "{", "}", "public", "private", "protected", "static", "template", "operator", "::":
			return false
		}
	}
	return true
}

// closers returns, for each opening bracket ({, (, < or [) among toks,
// the index of the bracket of its kind that closes it, or -1; and -1 for
// every other token. One pass, one stack per kind.
func closers(toks []cudaToken) []int {
	match := make([]int, len(toks))
	var stacks [4][]int
	for i, t := range toks {
		match[i] = -1
		if len(t.text) != 1 {
			continue
		}
		if k := strings.IndexByte("{(<[", t.text[0]); k >= 0 {
			stacks[k] = append(stacks[k], i)
		} else if k := strings.IndexByte("})>]", t.text[0]); k >= 0 && len(stacks[k]) > 0 {
			open := stacks[k][len(stacks[k])-1]
			stacks[k] = stacks[k][:len(stacks[k])-1]
			match[open] = i
		}
	}
	return match
}

func joinTokens(toks []cudaToken) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
	}
	return b.String()
}

// stmtPrefix is what a statement's tokens say before a __global__: extern
// "C", and the parameters of a template <...>. It reads each token once,
// however many __global__ the statement holds.
type stmtPrefix struct {
	toks     []cudaToken
	match    []int
	start    int      // the statement's first token
	pos      int      // the tokens before pos are read
	externC  bool     // extern "C" seen
	template []string // nil: no template <...> seen
	dead     bool     // a template < that no > closes: no kernel follows
}

// upTo reads the prefix up to the __global__ at g; false if g lies inside
// (or after an unclosed) template parameter list, so that it declares no
// kernel.
func (p *stmtPrefix) upTo(g int) bool {
	toks := p.toks
	for j := p.pos; j < g; j++ {
		if p.dead {
			return false
		}
		switch toks[j].text {
		case "extern":
			if j+1 < g && toks[j+1].text == `"C"` {
				p.externC = true
			}
		case "template":
			if j+1 < g && toks[j+1].text == "<" {
				end := p.match[j+1]
				if end < 0 {
					p.dead = true
					return false
				}
				if end > g {
					p.pos = j // read this template again for a later __global__
					return false
				}
				p.template = templateParams(toks[j+2 : end])
				if p.template == nil {
					p.template = []string{}
				}
				j = end
			}
		}
	}
	p.pos = max(p.pos, g)
	return !p.dead
}

// parseKernelDecl reads the declaration whose __global__ is at g, with the
// statement's prefix: its template parameters, extern "C", its name and
// parameter list. next is the token after the declaration's parameter
// list.
func parseKernelDecl(toks []cudaToken, match []int, prefix *stmtPrefix, g int, inExternC bool) (d kernelDecl, next int, ok bool) {
	d.line = toks[g].line
	if !prefix.upTo(g) {
		return d, g + 1, false
	}
	d.externC = inExternC || prefix.externC
	d.template = prefix.template
	// the name: the first identifier after __global__ followed by "(",
	// past __launch_bounds__(...) and __attribute__((...))
	i := g + 1
	for ; i+1 < len(toks); i++ {
		t := toks[i].text
		if t == "__launch_bounds__" || t == "__attribute__" || t == "__cluster_dims__" || t == "__maxnreg__" {
			if toks[i+1].text == "(" {
				if end := match[i+1]; end > 0 {
					i = end
					continue
				}
			}
			return d, i, false
		}
		if t == ";" || t == "{" {
			return d, i, false
		}
		if ir.IsIdent(t) && toks[i+1].text == "(" {
			break
		}
	}
	if i+1 >= len(toks) {
		return d, len(toks), false
	}
	d.name = toks[i].text
	open := i + 1
	end := match[open]
	if end < 0 {
		return d, len(toks), false
	}
	list := toks[open+1 : end]
	d.params = func(subst map[string]string) ([]string, string, error) { return kernelParams(list, subst) }
	return d, end + 1, true
}

// templateParams returns the names of a template's parameters
// (typename T, class U, int N), or nil if one is not of those forms.
func templateParams(toks []cudaToken) []string {
	var names []string
	for _, p := range splitTopLevel(toks) {
		// drop a default argument
		for k, t := range p {
			if t.text == "=" {
				p = p[:k]
				break
			}
		}
		if len(p) < 2 || !ir.IsIdent(p[len(p)-1].text) {
			return nil
		}
		names = append(names, p[len(p)-1].text)
	}
	return names
}

// splitTopLevel splits toks at the commas outside brackets.
func splitTopLevel(toks []cudaToken) [][]cudaToken {
	var out [][]cudaToken
	depth, start := 0, 0
	for i, t := range toks {
		switch t.text {
		case "(", "<", "[", "{":
			depth++
		case ")", ">", "]", "}":
			depth--
		case ",":
			if depth == 0 {
				out = append(out, toks[start:i])
				start = i + 1
			}
		}
	}
	if len(toks) > 0 {
		out = append(out, toks[start:])
	}
	return out
}

// kernelParams turns a kernel's parameter list into C: its names (in
// order; "" for an unnamed one) and the list as C text, with CUDA's
// qualifiers dropped and template parameters substituted.
func kernelParams(list []cudaToken, subst map[string]string) ([]string, string, error) {
	if len(list) == 0 || len(list) == 1 && list[0].text == "void" {
		return nil, "void", nil
	}
	var names, cparams []string
	for i, p := range splitTopLevel(list) {
		var words []string
		for k, t := range p {
			if t.text == "=" {
				return nil, "", fmt.Errorf("parameter %d has a default argument", i+1)
			}
			if t.text == "&" {
				return nil, "", fmt.Errorf("parameter %d is a reference: a kernel takes its parameters by value", i+1)
			}
			if t.text == "::" || strings.Contains(t.text, "::") {
				return nil, "", fmt.Errorf("parameter %d names a scoped type (%s): declare the type at the top level", i+1, joinTokens(p))
			}
			if droppedQualifiers[t.text] {
				continue
			}
			if t.text == "__align__" && k+1 < len(p) {
				return nil, "", fmt.Errorf("parameter %d: __align__ on a parameter", i+1)
			}
			if v, ok := subst[t.text]; ok {
				words = append(words, v)
				continue
			}
			words = append(words, t.text)
		}
		if len(words) == 0 {
			return nil, "", fmt.Errorf("parameter %d is empty", i+1)
		}
		name := ""
		last := words[len(words)-1]
		if len(words) > 1 && ir.IsIdent(last) && !isTypeWord(last) {
			name = last
		}
		names = append(names, name)
		cparams = append(cparams, strings.Join(words, " "))
	}
	return names, strings.Join(cparams, ", "), nil
}

// isTypeWord: words that end a parameter's type when it has no name.
func isTypeWord(w string) bool {
	switch w {
	case "int", "char", "short", "long", "float", "double", "unsigned", "signed", "bool", "void", "const", "volatile", "size_t":
		return true
	}
	_, err := strconv.Atoi(w)
	return err == nil
}
