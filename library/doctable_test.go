package library

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated table of docs/libraries.md")

// The table of the library family in docs/libraries.md sits between these
// lines; TestDocTable writes what is between them.
const (
	docTableFile  = "../docs/libraries.md"
	docTableBegin = "<!-- BEGIN libraries (generated: go test ./library -run TestDocTable -update) -->"
	docTableEnd   = "<!-- END libraries -->"
)

// soCell names a description's shared objects for CUDA 12 and 13:
// `libcufft.so.11` / `.12`, or one name when both majors load the same
// file.
func soCell(d *Desc) string {
	f12, f13 := d.Load.FilesFor(12)[0], d.Load.FilesFor(13)[0]
	if f12 == f13 {
		return "`" + f12 + "`"
	}
	base, _, _ := strings.Cut(f12, ".so")
	return "`" + f12 + "` / `" + strings.TrimPrefix(f13, base+".so") + "`"
}

// installedWith says what installs a description's library, by the rule
// cugen doctor's advice follows: the driver's own libraries come with the
// driver; the others with the CUDA toolkit, or what Load.Apart names, and
// NVIDIA's pip packages (Load.PipPackage).
func installedWith(d *Desc) string {
	p12, p13 := d.Load.PipPackage(12), d.Load.PipPackage(13)
	if d.Load.Driver || d.Load.WSL || !d.Load.PerMajor() && p12 == "" && p13 == "" {
		return "the NVIDIA driver"
	}
	s := "the CUDA toolkit"
	if d.Load.Apart != "" {
		s = d.Load.Apart
	}
	if len(d.Load.ToolkitDirs) > 0 {
		s += " (in `" + strings.Join(d.Load.ToolkitDirs, "`, `") + "`, which the search looks in)"
	}
	switch {
	case p12 != "" && p13 != "":
		s += fmt.Sprintf("; pip `%s` / `%s`", p12, p13)
	case p12 != "" || p13 != "":
		s += fmt.Sprintf("; pip `%s`", p12+p13)
	}
	return s
}

// boundCount is the number of functions the committed package of a CUDA
// major binds (the func lines of its api.txt), or "none" without one.
func boundCount(t *testing.T, major int, pkg string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "generated", fmt.Sprintf("cuda%d", major), pkg, "api.txt"))
	if os.IsNotExist(err) {
		return "none"
	}
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "func ") {
			n++
		}
	}
	return fmt.Sprint(n)
}

// docTable renders the table of the library family from All, one row per
// description, in All's order.
func docTable(t *testing.T) string {
	var b strings.Builder
	b.WriteString("| package | library | headers | functions (CUDA 12 / 13) | shared object (CUDA 12 / 13) | installed with | override |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, d := range All {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s / %s | %s | %s | `%s` |\n",
			d.Package, d.Title, strings.Join(d.Declare, ", "),
			boundCount(t, 12, d.Package), boundCount(t, 13, d.Package),
			soCell(d), installedWith(d), d.Load.EnvVar)
	}
	return b.String()
}

// TestDocTable: the table of the library family in docs/libraries.md is
// the one the descriptions (All) and the committed packages give: a row
// per library with its headers, the functions each major's package binds,
// its shared objects, what installs it and its override variable. A
// library added, or a package regenerated with other functions, fails here
// until `go test ./library -run TestDocTable -update` rewrites the table.
func TestDocTable(t *testing.T) {
	doc, err := os.ReadFile(docTableFile)
	if err != nil {
		t.Fatal(err)
	}
	begin := bytes.Index(doc, []byte(docTableBegin+"\n"))
	end := bytes.Index(doc, []byte(docTableEnd))
	if begin < 0 || end < begin {
		t.Fatalf("%s: no lines %q ... %q around the table", docTableFile, docTableBegin, docTableEnd)
	}
	begin += len(docTableBegin) + 1
	want := docTable(t)
	if string(doc[begin:end]) == want {
		return
	}
	if *update {
		out := append(append(append([]byte{}, doc[:begin]...), want...), doc[end:]...)
		if err := os.WriteFile(docTableFile, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the table of libraries is not the one library.All gives; run go test ./library -run TestDocTable -update.\nwant:\n%s", docTableFile, want)
}

// The table of headers left out, in docs/libraries.md, between these lines.
const (
	leftOutBegin = "<!-- BEGIN left out (generated: go test ./library -run TestLeftOutTable -update) -->"
	leftOutEnd   = "<!-- END left out -->"
)

// TestLeftOutTable: the table of headers left out in docs/libraries.md is
// LeftOutHeaders, row by row: an entry added or changed fails here until
// `go test ./library -run TestLeftOutTable -update` rewrites the table.
func TestLeftOutTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("| header | product | why it is not bound |\n| --- | --- | --- |\n")
	for _, l := range LeftOutHeaders {
		h := "`" + l.Header + "`"
		if strings.HasSuffix(l.Header, "/") {
			h = "every header under `" + l.Header + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", h, l.Product, strings.ReplaceAll(l.Why, "|", "\\|"))
	}
	doc, err := os.ReadFile(docTableFile)
	if err != nil {
		t.Fatal(err)
	}
	begin := bytes.Index(doc, []byte(leftOutBegin+"\n"))
	end := bytes.Index(doc, []byte(leftOutEnd))
	if begin < 0 || end < begin {
		t.Fatalf("%s: no lines %q ... %q around the table", docTableFile, leftOutBegin, leftOutEnd)
	}
	begin += len(leftOutBegin) + 1
	want := b.String()
	if string(doc[begin:end]) == want {
		return
	}
	if *update {
		out := append(append(append([]byte{}, doc[:begin]...), want...), doc[end:]...)
		if err := os.WriteFile(docTableFile, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the table of headers left out is not library.LeftOutHeaders; run go test ./library -run TestLeftOutTable -update.\nwant:\n%s", docTableFile, want)
}
