package emit

import (
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
)

// TestCheckComments: the backstop refuses what commentLines keeps out,
// naming the file and line, and lets through the directives it is told
// to, in order.
func TestCheckComments(t *testing.T) {
	for _, c := range []struct {
		name, src string
		allowed   []string
		want      string // "" for none
	}{
		{"plain", "// Package p.\npackage p\n\n// X is.\nvar X = 1 // one\n", nil, ""},
		{"generate", "package p\n\n//go:generate touch x\nvar X = 1\n", nil, "f.go:3:1: the comment"},
		{"line", "package p\n\n//line x.go:1\nvar X = 1\n", nil, "directive"},
		{"plus build", "// +build ignore\n\npackage p\n", nil, "directive"},
		{"block", "package p\n\n/* x */\nvar X = 1\n", nil, "f.go:3:1: a /* */ comment"},
		{"embed allowed", "package p\n\nimport _ \"embed\"\n\n//go:embed a\nvar a string\n", []string{"//go:embed a"}, ""},
		{"embed not allowed", "package p\n\nimport _ \"embed\"\n\n//go:embed b\nvar a string\n", []string{"//go:embed a"}, "directive"},
		{"generate in a string", "package p\n\nvar X = `\n//go:generate touch x\n`\n", nil, "f.go:4: a //go:generate line"},
	} {
		err := checkComments("f.go", []byte(c.src), c.allowed...)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v; want an error with %q", c.name, err, c.want)
		}
	}
}

// TestCommentLines: the sanitiser's rules, one case each; text that
// needs none (the headers') is its own lines.
func TestCommentLines(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Gets the count.\n\n\tcode", []string{"Gets the count.", "", "\tcode"}},
		{"a\r\nb\rc\vd\fe\u0085f\u2028g\u2029h", []string{"a", "b", "c", "d", "e", "f", "g", "h"}},
		{"//go:generate x", []string{" //go:generate x"}},
		{"/* x */", []string{" /* x */"}},
		{"/note x", []string{"/note x"}},
		{"+build ignore", []string{"+ build ignore"}},
		{"a +build b", []string{"a + build b"}},
		{"nul\x00 bom\ufeff rlo\u202e", []string{"nul  bom  rlo"}},
		{"bad\xffutf8 ", []string{"bad\uFFFDutf8"}},
	} {
		if got := commentLines(c.in); !slices.Equal(got, c.want) {
			t.Errorf("commentLines(%q) = %q; want %q", c.in, got, c.want)
		}
	}
	if got := commentOneLine("a\n//go:generate x\r\n b"); got != "a //go:generate x b" {
		t.Errorf("commentOneLine = %q", got)
	}
}

// FuzzSanitizeComment: any text through the sanitiser (comment,
// commentBlock, commentOneLine) renders to a Go file that parses with
// the same declarations as without it and passes checkComments: no
// directive, no block comment, no line go generate runs; each line is
// one comment line (no break Go or a reader knows, no character Go
// rejects).
func FuzzSanitizeComment(f *testing.F) {
	for _, s := range []string{
		"Gets the count.", hostileLines, hostileText, "axpy<float /*\n//go:generate touch PWNED\n// */>",
		"a\r\nb", "+build ignore", "x\n\n\tcode()\n", "*/ var Y = 2 /*", "\u2028//go:generate x", "\xff\xfe",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, l := range append(commentLines(s), commentOneLine(s)) {
			if strings.ContainsFunc(l, unsafeCommentRune) || !utf8.ValidString(l) {
				t.Fatalf("line %q holds a break or a character Go rejects", l)
			}
			if strings.HasPrefix(l, "//") || strings.HasPrefix(l, "/*") || strings.Contains(l, "+build") {
				t.Fatalf("line %q: jennifer would write it as it is, or a rewrap could make it a constraint", l)
			}
		}
		jf := jen.NewFile("p")
		jf.HeaderComment(commentOneLine(s))
		for _, l := range commentLines(s) {
			jf.PackageComment(l)
		}
		comment(jf, s)
		jf.Var().Id("X").Op("=").Lit(1)
		jf.Var().Defs(commentBlock(s).Id("Y").Op("=").Lit(2))
		jf.Comment("// " + commentOneLine(s)) // kernels.go's form
		jf.Func().Id("F").Params().Block()
		src, err := renderFile("f.go", jf)
		if err != nil {
			t.Fatalf("renderFile: %v", err)
		}
		file, err := parser.ParseFile(token.NewFileSet(), "f.go", src, parser.ParseComments)
		if err != nil {
			t.Fatalf("does not parse: %v\n%s", err, src)
		}
		if len(file.Decls) != 3 {
			t.Fatalf("%d declarations, want 3 (X, Y, F):\n%s", len(file.Decls), src)
		}
		for _, g := range file.Comments {
			for _, c := range g.List {
				if !strings.HasPrefix(c.Text, "//") || directiveComment(c.Text) {
					t.Fatalf("comment %q:\n%s", c.Text, src)
				}
			}
		}
	})
}

// BenchmarkCheckComments: the backstop's cost on the largest generated
// file (nppist/funcs.go of set 12.4, 3.6 MB; set 12.4's Go files are 24
// MB in all), beside gofmt's (format.Source), which every generated file
// goes through already.
func BenchmarkCheckComments(b *testing.B) {
	src, err := os.ReadFile("../generated/cuda12/nppist/funcs.go")
	if err != nil {
		b.Skip(err)
	}
	b.Run("checkComments", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if err := checkComments("funcs.go", src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("format.Source", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if _, err := format.Source(src); err != nil {
				b.Fatal(err)
			}
		}
	})
}
