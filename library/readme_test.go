package library

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// readmeTable returns the rows of the README table whose header row starts
// with the given cells, each row split into its cells (trimmed), keyed by
// the first cell with its backticks removed. A first cell twice is an
// error.
func readmeTable(t *testing.T, header ...string) map[string][]string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	cells := func(line string) []string {
		f := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		return f
	}
	rows := map[string][]string{}
	in := false
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "|") {
			if in {
				break
			}
			continue
		}
		c := cells(l)
		if !in {
			in = len(c) >= len(header) && strings.Join(c[:len(header)], "|") == strings.Join(header, "|")
			continue
		}
		if strings.HasPrefix(c[0], "---") {
			continue
		}
		key := strings.Trim(c[0], "`")
		if _, dup := rows[key]; dup {
			t.Errorf("README.md table %q: two rows for %s", header, key)
		}
		rows[key] = c
	}
	if !in {
		t.Fatalf("README.md has no table with the header %q", header)
	}
	return rows
}

// soFiles returns how a README cell names the shared objects of a
// description for CUDA 12 and 13 (backticks aside): libcufft.so.11 / .12,
// or one name when both majors load the same file.
func soFiles(d *Desc) (want []string) {
	f12, f13 := d.Load.FilesFor(12)[0], d.Load.FilesFor(13)[0]
	if f12 == f13 {
		return []string{f12 + " "}
	}
	base, _, _ := strings.Cut(f12, ".so")
	return []string{f12 + " / " + strings.TrimPrefix(f13, base+".so") + " "}
}

// checkRows reports a description without a row, a row naming no
// description, and, for each description's row, the cell texts want gives
// that its cell (by index) lacks.
func checkRows(t *testing.T, table string, rows map[string][]string, want func(d *Desc) map[int][]string) {
	t.Helper()
	for _, d := range All {
		row, ok := rows[d.Package]
		if !ok {
			t.Errorf("README.md's %s table has no row for package %s (library %s): add one", table, d.Package, d.Key)
			continue
		}
		for i, texts := range want(d) {
			if i >= len(row) {
				t.Errorf("README.md's %s table, row %s: %d cells, want more than %d", table, d.Package, len(row), i)
				continue
			}
			cell := strings.ReplaceAll(row[i], "`", "") + " "
			for _, w := range texts {
				if !strings.Contains(cell, w) {
					t.Errorf("README.md's %s table, row %s: cell %q lacks %q", table, d.Package, row[i], w)
				}
			}
		}
		delete(rows, d.Package)
	}
	for pkg := range rows {
		t.Errorf("README.md's %s table has a row for %s, which no library description (library.All) generates", table, pkg)
	}
}

// TestREADMELibraryTable: the README's table of the library family has one
// row per library description and no other, and each row names the
// description's headers (Declare) and shared objects for CUDA 12 and 13; a
// library added to All without its row fails here.
func TestREADMELibraryTable(t *testing.T) {
	rows := readmeTable(t, "package", "header")
	checkRows(t, "library family", rows, func(d *Desc) map[int][]string {
		return map[int][]string{1: d.Declare, 4: soFiles(d)}
	})
}

// TestREADMERuntimeTable: the README's table of libraries at run time has
// one row per library description and no other, each naming the shared
// objects, the pip packages doctor's advice names and the override
// variable.
func TestREADMERuntimeTable(t *testing.T) {
	rows := readmeTable(t, "package", "library (CUDA 12 / 13)")
	checkRows(t, "run-time", rows, func(d *Desc) map[int][]string {
		var pip []string
		p12, p13 := d.Load.PipPackage(12), d.Load.PipPackage(13)
		switch {
		case p12 != "" && p13 != "":
			pip = []string{fmt.Sprintf("pip %s / %s ", p12, p13)}
		case p12 != "" || p13 != "":
			pip = []string{"pip " + p12 + p13 + " "}
		}
		return map[int][]string{1: soFiles(d), 2: pip, 3: {d.Load.EnvVar + " "}}
	})
}
