package main

import (
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cugen/cugen/internal/sysgen"
)

// A snippet is one ```go block of a Markdown file, as TestREADMESnippets
// compiles it.
//
// The rule, applied to every block:
//
//   - A block starting with "package" is a file, compiled as it is.
//   - Otherwise its leading lines up to the first blank line are file-level
//     code when the block starts with "import", "var", "const", "type",
//     "func" or a "//go:" directive; the rest are statements, compiled as
//     the body of func main. The file imports every package the block's
//     code (not its comments) names as "pkg." that its own imports do not:
//     the Go API (cuda: github.com/cugen/cugen/cuda), the generated
//     packages of the major compiled against, ffi, and the standard
//     packages in snippetStd. A "//go:embed NAME" gets an empty
//     NAME and `import _ "embed"`.
//   - "declared and not used" errors are ignored (a snippet shows calls,
//     not what is done with their results); every other error fails.
//   - HTML comments on the lines just before the block, each
//     "<!-- snippet: WHAT -->", say more:
//     "given: DECLS" declares what the statements use without showing
//     it (Go statements put first in func main: "var size uint64");
//     "cuda13 only": compiled only against generated/cuda13, must not
//     build against generated/cuda12, and the paragraph before the block
//     must say it is CUDA 13's ("CUDA 13's" or "CUDA 13 only");
//     "skip: WHY": not compiled, for WHY.
//
// Blocks are written for the default build (CUDA 13); for cuda12 they are
// built with -tags cuda12, and an import of generated/cuda13 they name
// is rewritten to generated/cuda12. A package used unimported is the one
// API's: cuda is github.com/cugen/cugen/cuda, a package of sysgen.Packages
// cuda/sys/NAME, whose major is the build's.
type snippet struct {
	file    string // the Markdown file, relative to the module root
	line    int    // the line of the block's first code line
	code    string
	given   string
	only13  bool
	skip    string
	before  string // the paragraph before the block
	problem string // a malformed marker
}

// snippetStd are the standard packages a snippet may use unimported.
var snippetStd = []string{"errors", "fmt", "log", "os", "runtime", "unsafe"}

// snippetGenerated are the generated packages a snippet may use unimported.
var snippetGenerated = []string{"cu", "cudart", "nvrtc", "nvjitlink", "nccl", "nvml",
	"cublas", "cublaslt", "cufft", "curand", "cusolver", "cusparse"}

// snippets returns file's ```go blocks.
func snippets(t *testing.T, root, file string) []snippet {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	marker := regexp.MustCompile(`^<!-- snippet: (.*?) -->$`)
	var out []snippet
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```go" {
			continue
		}
		s := snippet{file: file, line: i + 2}
		j := i - 1
		for ; j >= 0 && strings.HasPrefix(lines[j], "<!--"); j-- {
			m := marker.FindStringSubmatch(lines[j])
			what := ""
			if m != nil {
				what = m[1]
			}
			switch {
			case what == "cuda13 only":
				s.only13 = true
			case strings.HasPrefix(what, "given: "):
				s.given = strings.TrimPrefix(what, "given: ") + "\n" + s.given
			case strings.HasPrefix(what, "skip: "):
				s.skip = strings.TrimPrefix(what, "skip: ")
			default:
				s.problem = fmt.Sprintf("comment %q before the block is not a snippet marker (<!-- snippet: cuda13 only|given: DECLS|skip: WHY -->)", lines[j])
			}
		}
		for ; j >= 0 && strings.TrimSpace(lines[j]) == ""; j-- {
		}
		var para []string
		for ; j >= 0 && strings.TrimSpace(lines[j]) != ""; j-- {
			para = append([]string{lines[j]}, para...)
		}
		s.before = strings.Join(para, " ")
		var code []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			code = append(code, lines[i])
		}
		s.code = strings.Join(code, "\n") + "\n"
		out = append(out, s)
	}
	return out
}

// qualifiers returns the identifiers src's code (not its comments) uses
// as "X." and the import names its import declarations give.
func qualifiers(src string) (used, imported map[string]bool) {
	used, imported = map[string]bool{}, map[string]bool{}
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	var prev, prev2 token.Token
	var prevLit string
	inImport := false
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch {
		case tok == token.IMPORT:
			inImport = true
		case inImport && tok == token.STRING:
			name := path.Base(strings.Trim(lit, `"`))
			if prev == token.IDENT {
				name = prevLit
			}
			imported[name] = true
			if prev != token.LPAREN && prev2 != token.LPAREN && prev != token.SEMICOLON && prev2 != token.SEMICOLON {
				inImport = false // import "x": one spec
			}
		case inImport && tok == token.RPAREN:
			inImport = false
		case tok == token.PERIOD && prev == token.IDENT:
			used[prevLit] = true
		}
		prev2, prev, prevLit = prev, tok, lit
	}
	return used, imported
}

// snippetFile returns the Go file compiling s against generated/major, or
// an error when s uses a package the rule does not know.
func snippetFile(s snippet, major string) (string, []string, error) {
	code := strings.ReplaceAll(s.code, "generated/cuda13/", "generated/"+major+"/")
	lineDir := func(n int) string { return fmt.Sprintf("//line %s:%d\n", s.file, n) }
	if strings.HasPrefix(code, "package ") {
		return lineDir(s.line) + code, nil, nil
	}
	top, body, bodyLine := "", code, s.line
	if regexp.MustCompile(`^(import|var|const|type|func)\b|^//go:`).MatchString(code) {
		top, body, _ = strings.Cut(code, "\n\n")
		bodyLine = s.line + strings.Count(top, "\n") + 2
	}
	used, imported := qualifiers(s.given + "\n" + code)
	var imports, embeds []string
	for _, m := range regexp.MustCompile(`(?m)^//go:embed (\S+)$`).FindAllStringSubmatch(top, -1) {
		embeds = append(embeds, m[1])
		imports = append(imports, `_ "embed"`)
	}
	var names []string
	for name := range used {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		switch {
		case imported[name]:
		case slices.Contains(snippetStd, name):
			imports = append(imports, fmt.Sprintf("%q", name))
		case name == "cuda":
			imports = append(imports, `"github.com/cugen/cugen/cuda"`)
		case slices.Contains(sysgen.Packages, name):
			imports = append(imports, fmt.Sprintf("%q", "github.com/cugen/cugen/cuda/sys/"+name))
		case slices.Contains(snippetGenerated, name):
			imports = append(imports, fmt.Sprintf("%q", "github.com/cugen/cugen/generated/"+major+"/"+name))
		case name == "ffi":
			imports = append(imports, `"github.com/cugen/cugen/ffi"`)
		default:
			// A local variable's method or field (err.Error, d.Pointer)
			// is no package: only an unknown name that is declared
			// nowhere in the snippet is. The compiler says which.
		}
	}
	var b strings.Builder
	b.WriteString("package main\n\n")
	for _, imp := range imports {
		fmt.Fprintf(&b, "import %s\n", imp)
	}
	if top != "" {
		b.WriteString(lineDir(s.line) + top + "\n")
	}
	b.WriteString("\nfunc main() {\n")
	if s.given != "" {
		b.WriteString(s.given)
	}
	if body != "" {
		b.WriteString(lineDir(bodyLine) + body)
	}
	b.WriteString("\n}\n")
	return b.String(), embeds, nil
}

// TestREADMESnippets: every ```go block of README.md and of docs/*.md
// compiles, by the rule of snippet, for CUDA 13 (no tag, generated/cuda13)
// and for CUDA 12 (-tags cuda12, import paths rewritten to
// generated/cuda12), except a block marked "cuda13 only", which must not
// build for cuda12 and whose paragraph must say so. What the documents
// show works for both majors, or says which. One workspace module, one go
// build per major.
func TestREADMESnippets(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	says13 := regexp.MustCompile(`CUDA 13('s| only)`)
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, d := range docs {
		files = append(files, path.Join("docs", filepath.Base(d)))
	}
	var all []snippet
	for _, f := range files {
		all = append(all, snippets(t, root, f)...)
	}
	if len(all) == 0 {
		t.Fatal("no ```go blocks found")
	}
	for _, s := range all {
		if s.problem != "" {
			t.Errorf("%s:%d: %s", s.file, s.line, s.problem)
		}
		if s.only13 && !says13.MatchString(s.before) {
			t.Errorf("%s:%d: the block is marked cuda13 only, but the paragraph before it does not say it is CUDA 13's (%s): %q", s.file, s.line, says13, s.before)
		}
	}
	if testing.Short() {
		t.Skip("-short: compiling the README's snippets takes the compiler")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	for _, major := range []string{"cuda13", "cuda12"} {
		dir := t.TempDir()
		write := func(name, text string) {
			t.Helper()
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write("go.mod", "module snippets\n\ngo 1.26\n")
		write("go.work", fmt.Sprintf("go 1.26\n\nuse (\n\t.\n\t%q\n)\n", root))
		pkgs := map[string]snippet{}
		for i, s := range all {
			if s.skip != "" {
				continue
			}
			src, embeds, err := snippetFile(s, major)
			if err != nil {
				t.Errorf("%s:%d: %v", s.file, s.line, err)
				continue
			}
			pkg := fmt.Sprintf("s%02d", i)
			pkgs[pkg] = s
			write(filepath.Join(pkg, "main.go"), src)
			for _, e := range embeds {
				write(filepath.Join(pkg, e), "")
			}
		}
		cmd := exec.Command(gobin, "build", "-gcflags=-e", "-tags="+buildTag(major), "-o", os.DevNull, "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK="+filepath.Join(dir, "go.work"), "GOFLAGS=")
		out, _ := cmd.CombinedOutput()
		// Errors come under "# snippets/sNN", one package each.
		failed := map[string][]string{}
		pkg := ""
		for _, l := range strings.Split(string(out), "\n") {
			if p, ok := strings.CutPrefix(l, "# snippets/"); ok {
				pkg = p
				continue
			}
			if l == "" || strings.Contains(l, "declared and not used") {
				continue
			}
			failed[pkg] = append(failed[pkg], l)
		}
		if other := failed[""]; len(other) > 0 {
			// The build stopped before compiling the snippets (a
			// package not found): what each block would do is unknown.
			t.Errorf("go build of the snippets for %s: %s", major, strings.Join(other, "\n"))
			continue
		}
		for p, s := range pkgs {
			errs := failed[p]
			switch {
			case s.only13 && major == "cuda12" && len(errs) == 0:
				t.Errorf("%s:%d: the block is marked cuda13 only, but it builds for cuda12", s.file, s.line)
			case s.only13 && major == "cuda12":
			case len(errs) > 0:
				t.Errorf("%s:%d: the block does not compile for %s:\n%s\n%s", s.file, s.line, major, strings.Join(errs, "\n"), s.code)
			}
		}
	}
}

// buildTag is the build tag that selects major ("cuda12"; "" for the newest).
func buildTag(major string) string {
	var n int
	fmt.Sscanf(major, "cuda%d", &n)
	return sysgen.Tag(n)
}

// TestExamplesBothMajors: every example (examples/...) builds with no tag
// (CUDA 13) and with -tags cuda12, CGO_ENABLED=0: a program written
// against the one API, its escape hatches (cuda/sys/...) included, builds
// for either major by its tag alone.
func TestExamplesBothMajors(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: building every example takes the compiler")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	root := filepath.Join("..", "..")
	for _, major := range sysgen.Majors {
		tag := sysgen.Tag(major)
		cmd := exec.Command(gobin, "build", "-tags="+tag, "-o", os.DevNull, "./examples/...")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go build -tags=%q ./examples/... (CUDA %d): %v\n%s", tag, major, err, out)
		}
	}
}
