package emit

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cugen/cugen/parser/ir"
)

var update = flag.Bool("update", false, "rewrite testdata/comments/*.golden from the parser's and the renderer's output")

// TestComments is the doc comments' golden test, in the style of
// protoc-gen-go's testdata/comments: each testdata/comments/NAME.h is a
// snippet of the Doxygen constructs CUDA's headers (cuda.h,
// cuda_runtime_api.h, nvrtc.h) use; NAME.golden holds, for every documented
// declaration, the IR the parser makes of its comment and the Go doc
// comment emit renders from it. go test -run TestComments -update rewrites
// the goldens.
func TestComments(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "comments", "*.h"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/comments/*.h: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".h")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			m, api := parseSnippet(t, string(src))
			got := renderComments(t, m, api)
			golden := strings.TrimSuffix(file, ".h") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestComments -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the output (run go test -run TestComments -update and review the diff):\n%s", golden, got)
			}
		})
	}
}

// renderComments lists every declaration of the snippet (not the shared
// prelude) that has a comment: its parsed ir.Doc as JSON and its rendered
// Go doc comment.
func renderComments(t *testing.T, m *model, api *ir.API) string {
	var b strings.Builder
	entry := func(kind, name string, d *ir.Doc, text string) {
		if d == nil {
			return
		}
		j, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "=== %s %s\n%s\n", kind, name, j)
		for _, l := range strings.Split(text, "\n") {
			b.WriteString(strings.TrimRight("// "+l, " ") + "\n")
		}
		b.WriteString("\n")
	}
	inSnippet := func(p ir.Pos) bool { return p.Line > strings.Count(typesPrelude, "\n") }
	for _, f := range api.Functions {
		ps, err := m.classify(f)
		if err != nil {
			t.Fatal(err)
		}
		entry("func", f.Name, f.Doc, m.funcDoc(f, ps))
	}
	for _, e := range api.Enums {
		if !inSnippet(e.Pos) {
			continue
		}
		entry("enum", e.Name, e.Doc, m.convertDoc(e.Doc))
		for _, v := range e.Values {
			entry("value", v.Name, v.Doc, firstSentence(m.convertDoc(v.Doc))+"\nmessage: "+headerMessage(v.Doc))
		}
	}
	for _, r := range api.Records {
		if !inSnippet(r.Pos) {
			continue
		}
		entry("record", r.Name, r.Doc, m.convertDoc(r.Doc))
		for _, f := range r.Fields {
			entry("field", r.Name+"."+f.Name, f.Doc, firstSentence(m.convertDoc(f.Doc)))
		}
	}
	for _, td := range api.Typedefs {
		if inSnippet(td.Pos) {
			entry("typedef", td.Name, td.Doc, m.convertDoc(td.Doc))
		}
	}
	for _, mc := range api.Macros {
		if inSnippet(mc.Pos) {
			entry("macro", mc.Name, mc.Doc, firstSentence(m.convertDoc(mc.Doc)))
		}
	}
	return b.String()
}

// TestBannerNoDoc: a banner of asterisks before a declaration (dim3 in
// vector_types.h) is not its documentation.
func TestBannerNoDoc(t *testing.T) {
	_, api := parseSnippet(t, `
/*******************************************************************************
*                                                                              *
*                                                                              *
*******************************************************************************/

struct dim3 { unsigned int x, y, z; };
typedef struct dim3 dim3;
`)
	for _, r := range api.Records {
		if r.Tag == "dim3" && r.Doc != nil {
			t.Errorf("dim3 doc = %+v, want none", r.Doc)
		}
	}
}

// markupRE finds Doxygen or HTML markup in a doc comment's text: a
// command (\p, \ref), an entity (&times;) or a tag (<b>).
var markupRE = regexp.MustCompile(`\\[a-zA-Z]|&[a-z]+;|</?(?:b|i|em|strong|p|br|table|tr|td|th|ul|ol|li|code|pre|sup|sub|tt|a|div|span|dl|dt|dd|hr|center|small|big|u|s)>`) // HTML tags, not <placeholders>

// TestGeneratedDocsPlain: the committed packages' doc comments carry no
// Doxygen or HTML markup (code blocks, indented by a tab, excepted): every
// construct the headers use is parsed or decoded.
func TestGeneratedDocsPlain(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "generated", "*", "*", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no generated packages: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			text, ok := strings.CutPrefix(strings.TrimLeft(l, "\t"), "//")
			if !ok || strings.HasPrefix(text, "\t") || strings.HasPrefix(text, "go:") {
				continue
			}
			if m := markupRE.FindString(text); m != "" {
				t.Errorf("%s:%d: %q in %q", f, i+1, m, l)
			}
		}
	}
}

// TestLeadDoc: a wrapper's doc comment starts with its Go name and the
// header's brief in the form that follows it (STYLE item 5); a brief that
// does not start with a verb or the C name leaves the doc as it is.
func TestLeadDoc(t *testing.T) {
	for _, c := range []struct {
		brief, body string
		want        string // "" for no lead
	}{
		{"Gets free and total memory", "", "MemGetInfo gets free and total memory."},
		{"Get the state of the primary context", "", "MemGetInfo gets the state of the primary context."},
		{"Query lazy loading mode", "", "MemGetInfo queries lazy loading mode."},
		{"Attach memory to a stream asynchronously", "", "MemGetInfo attaches memory to a stream asynchronously."},
		{"Update's a graph node's parameters", "", "MemGetInfo updates a graph node's parameters."},
		{"Setup starting states.", "", "MemGetInfo sets up starting states."},
		{"retrieve the current size of the PCH Heap.", "", "MemGetInfo retrieves the current size of the PCH Heap."},
		{"Returns in \\p *free the free memory:", "", "MemGetInfo returns in \\p *free the free memory:"},
		{"cuMemGetInfo gets memory.", "", "MemGetInfo gets memory."},
		{"", "Retrieves the version. More text.", "MemGetInfo retrieves the version. More text."},
		{"Given an address \\p addr, returns the handle.", "", ""},
		{"This API has been deprecated.", "", ""},
		{"Versioned wrapper around ::cuFoo", "", ""},
		{"Internal. Do not use directly.", "", ""},
		{"Experimental: Logger callback setter.", "", ""},
		{"GPU memory", "", ""},
		{"cudaMalloc allocates", "", ""},
		{"", "", ""},
	} {
		fn := &ir.Function{Name: "cuMemGetInfo", Symbol: "cuMemGetInfo_v2", Doc: &ir.Doc{Brief: c.brief}}
		if c.body != "" {
			fn.Doc.Body = []ir.Block{{Kind: ir.Paragraph, Text: c.body}}
		}
		d, ok := leadDoc("MemGetInfo", fn)
		switch {
		case c.want == "" && ok:
			t.Errorf("%q: lead %q, want none", c.brief, d.Brief)
		case c.want == "" && d != fn.Doc:
			t.Errorf("%q: no lead, but the doc changed", c.brief)
		case c.want != "" && (!ok || d.Brief != c.want):
			t.Errorf("%q: lead %q (%v), want %q", c.brief+c.body, d.Brief, ok, c.want)
		case c.want != "" && len(d.Body) != 0:
			t.Errorf("%q: the paragraph that leads is still in the body", c.body)
		}
	}
}

// TestBLASSummaryLeads: cuBLAS's headers document no function, so each
// wrapper's doc started "Sgemm wraps cublasSgemm (...)" (503 of 503 in
// 12.4). A routine of a family of the library's summary table now leads
// with what it computes, the provenance after it, and audit.txt says
// where the text came from; only the handle, mode and logger functions
// and two undocumented ones are left to lead with what they wrap.
func TestBLASSummaryLeads(t *testing.T) {
	api, origin := load124(t)
	pkgs, err := Generate(api, opts124(origin))
	if err != nil {
		t.Fatal(err)
	}
	var files map[string][]byte
	for _, p := range pkgs {
		if p.Name == "cublas" {
			files = p.Files
		}
	}
	src := string(files["funcs.go"])
	for _, want := range []string{
		"// Sgemm computes C = alpha*op(A)*op(B) + beta*C, op(A) m×k, op(B) k×n and C\n// m×n.\n//\n// It wraps cublasSgemm (symbol cublasSgemm_v2, cublas_api.h).\nfunc Sgemm(",
		"// Isamax64 finds the first index of an element of x of the largest magnitude",
		"// Csscal computes x = alpha*x.\n",
		"// Saxpy computes y = alpha*x + y.\n",
		"// GemmEx computes C = alpha*op(A)*op(B) + beta*C, A, B and C of the data types",
		"// SgemmStridedBatched computes C[i] = alpha*op(A[i])*op(B[i]) + beta*C[i] for",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("cublas funcs.go lacks %q", want)
		}
	}
	unled := regexp.MustCompile(`(?m)^// (\w+) wraps (\w+) `).FindAllStringSubmatch(src, -1)
	var names []string
	for _, u := range unled {
		if u[1] != "It" {
			names = append(names, u[2])
		}
	}
	allowed := regexp.MustCompile(`^cublas(Create|Destroy|Get|Set|LoggerConfigure|Xerbla|Uint8gemmBias)`)
	for _, n := range names {
		if !allowed.MatchString(n) || regexp.MustCompile(`(Matrix|Vector)`).MatchString(n) {
			t.Errorf("%s has no summary lead", n)
		}
	}
	if len(names) > 23 {
		t.Errorf("%d cublas functions lead with what they wrap, want at most the 23 of no BLAS family", len(names))
	}
	if audit := string(files["audit.txt"]); !strings.Contains(audit, "summary Sgemm: cublasSgemm is of family gemm, its lead from the cuBLAS Library guide") {
		t.Error("audit.txt does not say where Sgemm's lead comes from")
	}
}

// TestCommentBlockLongWord: a field's or constant's comment with a word
// longer than the width (a URL in a header's doc) keeps the word on a line
// of its own. commentBlock rewrapped such a line without end: wrap cannot
// shorten it, and the recursion overflowed the stack.
func TestCommentBlockLongWord(t *testing.T) {
	long := "https://docs.nvidia.com/" + strings.Repeat("x", docWidth)
	got := fmt.Sprintf("%#v", commentBlock("See "+long+" for more.").Id("x"))
	want := "// See\n// " + long + "\n// for more.\nx"
	if got != want {
		t.Errorf("commentBlock:\n%s\nwant:\n%s", got, want)
	}
}
