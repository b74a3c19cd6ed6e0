package library

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"io"
	"path"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cugen/cugen/internal/bounded"
	"github.com/cugen/cugen/parser/ir"
)

// DescFileLimit bounds a description file (cugen gen -desc): a real one
// is a few hundred bytes, a large one with many overrides a few KiB.
const DescFileLimit = 1 << 20

// DescFile is a library description read from a JSON file (cugen gen
// -desc): a library of the user's own, or one cugen does not describe,
// bound by the same rules as cugen's. Its JSON form (DescJSON) is a subset
// of Desc; the library is generated with the driver and runtime
// descriptions, whose packages it imports for the CUDA types it uses.
type DescFile struct {
	// Path names the file in errors.
	Path string
	// Desc is the description, checked (Check) with Driver and Runtime.
	Desc *Desc
	// Success is the status value the JSON names as success, if any;
	// CheckAPI holds it to 0, the value every generated wrapper treats
	// as success.
	Success string
}

// DescJSON is the JSON form of a description file. Every field the file
// may have is here; any other is an error.
type DescJSON struct {
	// Package is the Go package name and the output directory (OUT/mylib).
	Package string `json:"package"`
	// Title names the library in messages and docs; default Package.
	Title string `json:"title,omitempty"`
	// Doc is more package documentation (a paragraph or a few).
	Doc string `json:"doc,omitempty"`
	// Headers are included in order, and their declarations are the
	// library's (Desc.Include; their base names are Desc.Declare).
	Headers []string `json:"headers"`
	// Declare are more headers, by base name, whose declarations are the
	// library's (included by Headers).
	Declare []string `json:"declare,omitempty"`
	// Prefixes are the C prefixes dropped from Go names, longest first.
	Prefixes []string `json:"prefixes"`
	// Status is the C enum type every function returns.
	Status string `json:"status"`
	// Success names the status value meaning success; it must be 0.
	Success string `json:"success,omitempty"`
	// ErrorString is the function giving a status's text.
	ErrorString string `json:"errorString,omitempty"`
	// PlainDocs: the header documents with plain /* */ comments.
	PlainDocs bool `json:"plainDocs,omitempty"`
	// Sonames are the shared object names tried, in order.
	Sonames []string `json:"sonames"`
	// EnvVar, when set in the environment, is the only path tried.
	EnvVar string `json:"envVar,omitempty"`
	// Identify is a symbol every copy of the library exports; default
	// ErrorString.
	Identify string `json:"identify,omitempty"`
	// OneThread says why the library needs all its calls from one OS
	// thread (Desc.OneThread): one line.
	OneThread string `json:"oneThread,omitempty"`
	// Overrides are the audited exceptions to the rules.
	Overrides *OverridesJSON `json:"overrides,omitempty"`
}

// OverridesJSON is the JSON form of the function-keyed Overrides.
type OverridesJSON struct {
	Directions           map[string]DirectionJSON `json:"directions,omitempty"`
	Arrays               map[string]ArrayJSON     `json:"arrays,omitempty"`
	OneShotCallbacks     map[string]string        `json:"oneShotCallbacks,omitempty"`
	RegisteredCallbacks  map[string]string        `json:"registeredCallbacks,omitempty"`
	SynchronousCallbacks map[string]string        `json:"synchronousCallbacks,omitempty"`
	GlobalCallbacks      map[string]string        `json:"globalCallbacks,omitempty"`
}

// DirectionJSON is a DirectionOverride: Dir is "in", "out" or "inout".
type DirectionJSON struct {
	Dir string `json:"dir"`
	Why string `json:"why"`
}

// ArrayJSON is an ArrayOverride.
type ArrayJSON struct {
	Len   int64  `json:"len,omitempty"`
	Param string `json:"param,omitempty"`
	Why   string `json:"why"`
}

// ReadDescFile reads and checks a description file. Its errors are one
// line, naming the file and the field.
func ReadDescFile(file string) (*DescFile, error) {
	data, err := bounded.ReadFile(file, bounded.Options{Limit: DescFileLimit, What: "a library description"})
	if err != nil {
		var be *bounded.Error
		if errors.As(err, &be) {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return nil, fmt.Errorf("library description: %w", err) // the os error names the file
	}
	return DecodeDesc(file, data)
}

// DecodeDesc decodes and checks the JSON description data, named file in
// errors.
func DecodeDesc(file string, data []byte) (*DescFile, error) {
	if len(data) > DescFileLimit {
		return nil, fmt.Errorf("%s: %d bytes: larger than the %s a library description may have", file, len(data), bounded.Size(DescFileLimit))
	}
	// First as any JSON: syntax errors with their place, and every key
	// held to a field's exact name (encoding/json matches names without
	// case: "envvar" would set EnvVar).
	var raw any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, jsonError(file, data, dec, err)
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		rest := data[end:]
		end += int64(len(rest) - len(bytes.TrimLeft(rest, " \t\r\n")))
		return nil, fmt.Errorf("%s:%s: more after the description's closing brace", file, lineCol(data, end))
	}
	if err := exactKeys(raw, reflect.TypeFor[DescJSON](), ""); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var j DescJSON
	dec = json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields() // a backstop: exactKeys has reported any
	if err := dec.Decode(&j); err != nil {
		return nil, jsonError(file, data, dec, err)
	}
	d, err := j.desc()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if err := Check([]*Desc{Driver, Runtime, d}); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	d.File = file
	return &DescFile{Path: file, Desc: d, Success: j.Success}, nil
}

// jsonError is a decoding error with the file, line and column, and the
// field where the decoder knows it.
func jsonError(file string, data []byte, dec *json.Decoder, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		// Offset is just past the byte that broke the syntax.
		return fmt.Errorf("%s:%s: not JSON: %s", file, lineCol(data, syn.Offset-1), syn.Error())
	case errors.As(err, &typ):
		return fmt.Errorf("%s:%s: field %s: a JSON %s where %s goes", file, lineCol(data, typ.Offset), jsonField(typ.Field), typ.Value, jsonKind(typ.Type.Kind().String()))
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%s: empty: a library description is a JSON object", file)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s: not JSON: the file ends inside the description", file)
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	return fmt.Errorf("%s:%s: %s", file, lineCol(data, dec.InputOffset()), msg)
}

// exactKeys checks that every key of the decoded JSON v names a field of
// the struct type t exactly, descending into objects, maps of objects
// and lists; at is the path so far, for the error.
func exactKeys(v any, t reflect.Type, at string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil // a type error, which the typed decode reports
		}
		fields := map[string]reflect.Type{}
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			fields[name] = t.Field(i).Type
		}
		for _, k := range sortedMapKeys(obj) {
			ft, ok := fields[k]
			if !ok {
				return fmt.Errorf("unknown field %s (the fields are those of docs/generating.md's \"Bind your own library\")", strconv.Quote(joinField(at, k)))
			}
			if err := exactKeys(obj[k], ft, joinField(at, k)); err != nil {
				return err
			}
		}
	case reflect.Map:
		if obj, ok := v.(map[string]any); ok {
			for _, k := range sortedMapKeys(obj) {
				if err := exactKeys(obj[k], t.Elem(), at+"["+strconv.Quote(k)+"]"); err != nil {
					return err
				}
			}
		}
	case reflect.Slice:
		if list, ok := v.([]any); ok {
			for i, e := range list {
				if err := exactKeys(e, t.Elem(), fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func joinField(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

func jsonField(f string) string {
	if f == "" {
		return "(the description)"
	}
	return f
}

func jsonKind(k string) string {
	switch k {
	case "slice":
		return "a list"
	case "map", "struct", "ptr":
		return "an object"
	case "int", "int64":
		return "an integer"
	}
	return "a " + k
}

// lineCol is the line:column of byte offset off in data.
func lineCol(data []byte, off int64) string {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("%d:%d", line, col)
}

var (
	cIdent   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) // also a prefix and an environment variable's name
	goPkg    = regexp.MustCompile(`^[a-z][a-z0-9]*$`)
	header   = regexp.MustCompile(`^[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*(/[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*)*$`)
	soname   = regexp.MustCompile(`^[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*\.so(\.[0-9]+)*$`)
	fnParam  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$`)
	maxNames = 64 // headers, prefixes, sonames
)

// reservedPackages are the names a description's package may not take:
// the packages generated with it, and Go's.
var reservedPackages = []string{"cu", "cudart", "main", "ffi", "ffiimpl", "unsafe", "runtime", "errors", "fmt", "sync", "testing"}

// desc converts and checks the JSON form.
func (j *DescJSON) desc() (*Desc, error) {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("field %s: %s", field, fmt.Sprintf(format, args...))
	}
	switch {
	case j.Package == "":
		return nil, bad("package", "required: the Go package name (mylib)")
	case !goPkg.MatchString(j.Package) || len(j.Package) > 64:
		return nil, bad("package", "%q is not a Go package name of lower-case letters and digits (at most 64)", j.Package)
	case token.IsKeyword(j.Package) || slices.Contains(reservedPackages, j.Package):
		return nil, bad("package", "%q is reserved (a Go keyword, or a package generated or imported with it)", j.Package)
	}
	title := j.Title
	if title == "" {
		title = j.Package
	}
	if err := oneLine(title, 80); err != nil {
		return nil, bad("title", "%v", err)
	}
	if len(j.Doc) > 64<<10 || !utf8.ValidString(j.Doc) || strings.ContainsFunc(j.Doc, func(r rune) bool { return !unicode.IsPrint(r) && r != '\n' && r != '\t' }) {
		// It becomes the lines of a Go comment.
		return nil, bad("doc", "not printable UTF-8 text (lines, tabs) of at most 64 KiB")
	}
	if err := oneLine(j.OneThread, 400); err != nil {
		return nil, bad("oneThread", "%v", err) // a line of audit.txt
	}
	if len(j.Headers) == 0 {
		return nil, bad("headers", "required: the headers declaring the library, as #include <...> names them")
	}
	var declare []string
	for i, h := range append(slices.Clone(j.Headers), j.Declare...) {
		field := fmt.Sprintf("headers[%d]", i)
		if i >= len(j.Headers) {
			field = fmt.Sprintf("declare[%d]", i-len(j.Headers))
			if strings.Contains(h, "/") {
				return nil, bad(field, "%q: a header's base name (the headers are matched by it)", h)
			}
		}
		if !header.MatchString(h) || len(h) > 255 || path.Clean(h) != h {
			return nil, bad(field, "%q is not a header name relative to a header directory (letters, digits, _+-. and /, no .. or leading /)", h)
		}
		b := path.Base(h)
		if slices.Contains(declare, b) {
			return nil, bad(field, "%s named twice", b)
		}
		declare = append(declare, b)
	}
	if len(declare) > maxNames {
		return nil, bad("headers", "more than %d headers", maxNames)
	}
	if len(j.Prefixes) == 0 {
		return nil, bad("prefixes", "required: the C prefixes dropped from Go names, longest first ([\"MYLIB_\", \"mylib\"])")
	}
	if len(j.Prefixes) > maxNames {
		return nil, bad("prefixes", "more than %d prefixes", maxNames)
	}
	for i, p := range j.Prefixes {
		if !cIdent.MatchString(p) {
			return nil, bad(fmt.Sprintf("prefixes[%d]", i), "%q is not the start of a C identifier", p)
		}
	}
	for _, f := range []struct{ name, v string }{{"status", j.Status}, {"success", j.Success}, {"errorString", j.ErrorString}, {"identify", j.Identify}} {
		if f.v != "" && (!cIdent.MatchString(f.v) || len(f.v) > 255) {
			return nil, bad(f.name, "%q is not a C identifier", f.v)
		}
	}
	if j.Status == "" {
		return nil, bad("status", "required: the C status enum every function returns (mylibStatus_t)")
	}
	if len(j.Sonames) == 0 {
		return nil, bad("sonames", "required: the shared object names to open, in order ([\"libmylib.so.1\"])")
	}
	if len(j.Sonames) > maxNames {
		return nil, bad("sonames", "more than %d names", maxNames)
	}
	for i, s := range j.Sonames {
		if !soname.MatchString(s) || len(s) > 255 {
			return nil, bad(fmt.Sprintf("sonames[%d]", i), "%q is not a shared object's file name (libmylib.so.1; no directory: the environment variable names a path)", s)
		}
	}
	if j.EnvVar != "" && !cIdent.MatchString(j.EnvVar) {
		return nil, bad("envVar", "%q is not an environment variable name", j.EnvVar)
	}
	identify := j.Identify
	if identify == "" {
		identify = j.ErrorString
	}
	if identify == "" {
		return nil, bad("identify", "required without errorString: a function every copy of the library exports")
	}
	d := &Desc{
		Key:         ir.Library(j.Package),
		Title:       title,
		API:         title,
		Package:     j.Package,
		Doc:         j.Doc,
		Include:     slices.Clone(j.Headers),
		Declare:     declare,
		Prefixes:    slices.Clone(j.Prefixes),
		Status:      j.Status,
		ErrorString: j.ErrorString,
		PlainDocs:   j.PlainDocs,
		OneThread:   j.OneThread,
		Load: Load{
			Name:     title,
			EnvVar:   j.EnvVar,
			Files:    map[int][]string{0: slices.Clone(j.Sonames)},
			Identify: identify,
		},
	}
	if o := j.Overrides; o != nil {
		if err := o.into(&d.Overrides); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// into checks the overrides and sets them in out.
func (o *OverridesJSON) into(out *Overrides) error {
	bad := func(field, key, format string, args ...any) error {
		return fmt.Errorf("field overrides.%s: %q: %s", field, key, fmt.Sprintf(format, args...))
	}
	why := func(field, key, w string) error {
		if w == "" {
			return bad(field, key, "why is required: every override says why it is right")
		}
		if err := oneLine(w, 500); err != nil {
			return bad(field, key, "why: %v", err)
		}
		return nil
	}
	for _, k := range sortedMapKeys(o.Directions) {
		v := o.Directions[k]
		if !fnParam.MatchString(k) {
			return bad("directions", k, "not FUNCTION.PARAMETER")
		}
		dir := ir.Direction(v.Dir)
		if dir != ir.In && dir != ir.Out && dir != ir.InOut {
			return bad("directions", k, "dir %q is not in, out or inout", v.Dir)
		}
		if err := why("directions", k, v.Why); err != nil {
			return err
		}
		if out.Directions == nil {
			out.Directions = map[string]DirectionOverride{}
		}
		out.Directions[k] = DirectionOverride{Dir: dir, Why: v.Why}
	}
	for _, k := range sortedMapKeys(o.Arrays) {
		v := o.Arrays[k]
		if !fnParam.MatchString(k) {
			return bad("arrays", k, "not FUNCTION.PARAMETER")
		}
		switch {
		case v.Len < 0 || v.Len > 1<<20:
			return bad("arrays", k, "len %d is not between 1 and %d", v.Len, 1<<20)
		case v.Len > 0 && v.Param != "":
			return bad("arrays", k, "give len or param, not both")
		case v.Param != "" && !cIdent.MatchString(v.Param):
			return bad("arrays", k, "param %q is not a C identifier", v.Param)
		}
		if err := why("arrays", k, v.Why); err != nil {
			return err
		}
		if out.Arrays == nil {
			out.Arrays = map[string]ArrayOverride{}
		}
		out.Arrays[k] = ArrayOverride{Len: v.Len, Param: v.Param, Why: v.Why}
	}
	for _, t := range []struct {
		field string
		in    map[string]string
		out   *map[string]string
		fn    bool // the value is a function name ("" allowed), not a why
	}{
		{"oneShotCallbacks", o.OneShotCallbacks, &out.OneShotCallbacks, false},
		{"registeredCallbacks", o.RegisteredCallbacks, &out.RegisteredCallbacks, true},
		{"synchronousCallbacks", o.SynchronousCallbacks, &out.SynchronousCallbacks, false},
		{"globalCallbacks", o.GlobalCallbacks, &out.GlobalCallbacks, false},
	} {
		for _, k := range sortedMapKeys(t.in) {
			v := t.in[k]
			if !cIdent.MatchString(k) {
				return bad(t.field, k, "not a C function name")
			}
			if t.fn {
				if v != "" && !cIdent.MatchString(v) {
					return bad(t.field, k, "the unregister function %q is not a C function name", v)
				}
			} else if err := why(t.field, k, v); err != nil {
				return err
			}
			if *t.out == nil {
				*t.out = map[string]string{}
			}
			(*t.out)[k] = v
		}
	}
	return nil
}

// paramOf is fn's parameter named name (CheckAPI has checked it exists).
func paramOf(fn *ir.Function, name string) *ir.Param {
	for i := range fn.Params {
		if fn.Params[i].Name == name {
			return &fn.Params[i]
		}
	}
	return nil
}

// notDirected says why a direction override did not apply to p: only a
// pointer to non-const, non-void data that is not an array has a
// direction to decide.
func notDirected(p *ir.Param) string {
	t := p.Type
	switch {
	case t == nil || t.Kind != ir.Pointer || t.Elem == nil:
		return fmt.Sprintf("parameter %s is not a pointer (C type %s): only what a pointer points to can be an output", p.Name, cType(t))
	case t.Elem.Const:
		return fmt.Sprintf("parameter %s points to const (C type %s): C only reads it", p.Name, cType(t))
	case t.Elem.Kind == ir.Void:
		return fmt.Sprintf("parameter %s is a void * buffer: its direction is the caller's", p.Name)
	case p.Array != nil:
		return fmt.Sprintf("parameter %s is an array (%s): its size decides its direction", p.Name, p.Array.Source)
	}
	return fmt.Sprintf("parameter %s's direction was decided otherwise (%s)", p.Name, p.Why)
}

// notArray says why an array override did not apply to p: only a pointer
// to typed data can point to several elements.
func notArray(p *ir.Param) string {
	t := p.Type
	switch {
	case t == nil || t.Kind != ir.Pointer || t.Elem == nil:
		return fmt.Sprintf("parameter %s is not a pointer (C type %s): only a pointer can point to several elements", p.Name, cType(t))
	case t.Elem.Kind == ir.Void:
		return fmt.Sprintf("parameter %s is a void * buffer: its elements have no type to count", p.Name)
	}
	return fmt.Sprintf("parameter %s's size was decided otherwise", p.Name)
}

func cType(t *ir.Type) string {
	if t == nil {
		return "unknown"
	}
	return t.C
}

// oneLine checks text that goes into a message or comment line: printable,
// one line, at most max bytes.
func oneLine(s string, max int) error {
	if len(s) > max {
		return fmt.Errorf("longer than %d bytes", max)
	}
	if !utf8.ValidString(s) {
		return errors.New("not UTF-8")
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("%q: one line of printable text", s)
		}
	}
	return nil
}

func sortedMapKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// CheckAPI checks the description against the headers parsed with it: its
// headers were read and declare functions, its status is an enum whose
// success value is 0, and every function or parameter it names exists.
// Without it a misspelt header is a run that binds nothing, and a
// misspelt override one that silently does not apply.
func (f *DescFile) CheckAPI(api *ir.API) error {
	d := f.Desc
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("%s: field %s: %s", f.Path, field, fmt.Sprintf(format, args...))
	}
	for i, h := range d.Include {
		if !slices.Contains(api.Sources, h) {
			return bad(fmt.Sprintf("headers[%d]", i), "%s is not in the header directories (give the directory holding it with -with, or -headers)", h)
		}
	}
	funcs := map[string]*ir.Function{}
	for _, fn := range api.Functions {
		if fn.Library == d.Key {
			funcs[fn.Name] = fn
		}
	}
	if len(funcs) == 0 {
		return bad("headers", "%s declare no functions", strings.Join(d.Declare, ", "))
	}
	var status *ir.Enum
	for _, e := range api.Enums {
		if e.Name == d.Status || e.Ref == d.Status {
			status = e
		}
	}
	if status == nil {
		for _, t := range api.Typedefs {
			if t.Name == d.Status && t.Type != nil && t.Type.Kind == ir.Named {
				for _, e := range api.Enums {
					if e.Name == t.Type.Name || e.Ref == t.Type.Name {
						status = e
					}
				}
			}
		}
	}
	if status == nil {
		return bad("status", "%s is not an enum the headers declare", d.Status)
	}
	if f.Success != "" {
		found := false
		for _, v := range status.Values {
			if v.Name != f.Success {
				continue
			}
			found = true
			if v.Value != 0 {
				return bad("success", "%s is %d: a generated package treats status 0, and only 0, as success", f.Success, v.Value)
			}
		}
		if !found {
			return bad("success", "%s is not a value of %s", f.Success, d.Status)
		}
	}
	fnField := func(field, name string) error {
		if _, ok := funcs[name]; !ok {
			return bad(field, "%s is not a function of %s's headers", name, d.Title)
		}
		return nil
	}
	if d.ErrorString != "" {
		if err := fnField("errorString", d.ErrorString); err != nil {
			return err
		}
	}
	o := d.Overrides
	for _, t := range []struct {
		field string
		keys  []string
	}{
		{"overrides.directions", sortedMapKeys(o.Directions)},
		{"overrides.arrays", sortedMapKeys(o.Arrays)},
	} {
		for _, k := range t.keys {
			fn, prm, _ := strings.Cut(k, ".")
			if err := fnField(t.field, fn); err != nil {
				return err
			}
			if !slices.ContainsFunc(funcs[fn].Params, func(p ir.Param) bool { return p.Name == prm }) {
				return bad(t.field, "%s has no parameter %s", fn, prm)
			}
			if a, ok := o.Arrays[k]; ok && a.Param != "" && !slices.ContainsFunc(funcs[fn].Params, func(p ir.Param) bool { return p.Name == a.Param }) {
				return bad(t.field, "%s has no parameter %s (the count of %s)", fn, a.Param, k)
			}
		}
	}
	// The parser applied the direction and array overrides (ir.Param.Why,
	// ir.ArraySize.Source say so): one it could not apply would leave the
	// package as if the file did not have it.
	for _, k := range sortedMapKeys(o.Directions) {
		fn, prm, _ := strings.Cut(k, ".")
		p := paramOf(funcs[fn], prm)
		if p.Why != OverrideReason(o.Directions[k].Why) {
			return bad("overrides.directions", "%s: cannot apply: %s", k, notDirected(p))
		}
	}
	for _, k := range sortedMapKeys(o.Arrays) {
		fn, prm, _ := strings.Cut(k, ".")
		p := paramOf(funcs[fn], prm)
		if p.Array == nil || p.Array.Source != OverrideReason(o.Arrays[k].Why) {
			return bad("overrides.arrays", "%s: cannot apply: %s", k, notArray(p))
		}
	}
	for _, t := range []struct {
		field string
		m     map[string]string
	}{
		{"overrides.oneShotCallbacks", o.OneShotCallbacks},
		{"overrides.registeredCallbacks", o.RegisteredCallbacks},
		{"overrides.synchronousCallbacks", o.SynchronousCallbacks},
		{"overrides.globalCallbacks", o.GlobalCallbacks},
	} {
		for _, k := range sortedMapKeys(t.m) {
			if err := fnField(t.field, k); err != nil {
				return err
			}
		}
	}
	for _, k := range sortedMapKeys(o.RegisteredCallbacks) {
		if u := o.RegisteredCallbacks[k]; u != "" {
			if err := fnField("overrides.registeredCallbacks", u); err != nil {
				return err
			}
		}
	}
	return nil
}
