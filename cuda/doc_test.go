package cuda

import (
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestPackageDocOverview: the package doc (doc.go) is an overview short
// enough that go doc shows the package's first symbol within its first
// 60 lines, and it names every subpackage (every directory of cuda/ but
// testdata); the reference lives in docs/api.md. Before: 203 lines.
func TestPackageDocOverview(t *testing.T) {
	if _, err := os.Stat("doc.go"); os.IsNotExist(err) {
		t.Skip("the source is not beside the test binary (make test-windows)")
	}
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Doc.Text()
	// go doc prints the doc indented by its width, plus a line or two
	// around it, before the first constant.
	if n := strings.Count(doc, "\n"); n > 50 {
		t.Errorf("the package doc has %d lines; go doc must show the first symbol within 60", n)
	}
	ents, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() && e.Name() != "testdata" && !strings.Contains(doc, "github.com/cugen/cugen/cuda/"+e.Name()) {
			t.Errorf("the package doc does not name subpackage %s", e.Name())
		}
	}
	if _, err := os.Stat("../docs/api.md"); err != nil {
		t.Errorf("the reference the doc points at: %v", err)
	}
}
