package parser_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cugen/cugen/parser"
	"github.com/cugen/cugen/parser/ir"
)

// TestLayout12_4 compiles a C program against the 12.4 headers that prints
// sizeof, _Alignof and offsetof of every defined record of the IR (and of
// every field, enum and typedef), and compares them with the IR: cc/v4's
// layout must be gcc's.
func TestLayout12_4(t *testing.T) {
	api, dir := parseSet(t, "12.4")
	n := checkLayout(t, dir, api)
	t.Logf("12.4 layout: %s", n)
	if n.records < 180+60 {
		t.Errorf("only %d records compared", n.records)
	}
}

// TestLayoutOtherSets checks the 11.8 and 12.5 sets the same way.
func TestLayoutOtherSets(t *testing.T) {
	for _, set := range []string{"11.8", "12.5"} {
		t.Run(set, func(t *testing.T) {
			api, dir := parseSet(t, set)
			t.Logf("%s layout: %s", set, checkLayout(t, dir, api))
		})
	}
}

// TestLayoutSnippets does the same for the golden snippets, which hold what
// the real headers lack (bitfields, anonymous members, typedef'd anonymous
// structs).
func TestLayoutSnippets(t *testing.T) {
	for _, name := range goldenCases {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", name)
			api, err := parser.Parse(dir)
			if err != nil {
				t.Fatal(err)
			}
			n := checkLayout(t, dir, api)
			t.Logf("%s layout: %s", name, n)
		})
	}
}

// layoutCounts says how much a layout check compared and what it could not.
type layoutCounts struct {
	records, anonRecords, fields, bitfields, enums, typedefs, checks int
	unnamable                                                        []string
}

func (c layoutCounts) String() string {
	return fmt.Sprintf("%d checks: %d records (%d anonymous member records), %d fields, %d bitfields, %d enums, %d typedefs; not nameable in C: %d %v",
		c.checks, c.records, c.anonRecords, c.fields, c.bitfields, c.enums, c.typedefs, len(c.unnamable), c.unnamable)
}

type layoutCheck struct {
	what string
	expr string // a C expression of integer type
	want int64
}

func checkLayout(t *testing.T, dir string, api *ir.API) layoutCounts {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed: cannot compare layouts with a C compiler")
	}
	var n layoutCounts
	var checks []layoutCheck
	add := func(what, expr string, want int64) {
		checks = append(checks, layoutCheck{what, expr, want})
	}

	byRef := map[string]*ir.Record{}
	for _, r := range api.Records {
		byRef[r.Ref] = r
	}
	// cname spells a record's type in C: its tag, its typedef name, or for
	// an anonymous member record the type of that member of its parent.
	var cname func(r *ir.Record) (string, bool)
	cname = func(r *ir.Record) (string, bool) {
		switch {
		case r.Tag != "":
			return r.Ref, true
		case r.Parent != "":
			parent := byRef[r.Parent]
			if parent == nil {
				return "", false
			}
			pn, ok := cname(parent)
			if !ok {
				return "", false
			}
			f := findField(parent.Fields, r.Member)
			if f == nil {
				return "", false
			}
			sub := ""
			for ft := f.Type; ft != nil && ft.Kind == ir.Array; ft = ft.Elem {
				sub += "[0]"
			}
			return fmt.Sprintf("__typeof__(((%s *)0)->%s%s)", pn, r.Member, sub), true
		case !strings.Contains(r.Name, "<anonymous"):
			return r.Name, true // typedef struct { ... } Name;
		}
		return "", false
	}

	for _, r := range api.Records {
		if r.Opaque {
			continue
		}
		T, ok := cname(r)
		if !ok {
			n.unnamable = append(n.unnamable, r.Ref)
			continue
		}
		n.records++
		if r.Parent != "" {
			n.anonRecords++
		}
		add(r.Name+" size", "sizeof("+T+")", r.Size)
		add(r.Name+" align", "_Alignof("+T+")", r.Align)
		var walk func(fields []ir.Field)
		walk = func(fields []ir.Field) {
			for _, f := range fields {
				if f.Anonymous {
					// C cannot name an unnamed member; its members are
					// members of T and are checked as such.
					n.unnamable = append(n.unnamable, r.Name+"."+f.Name)
					walk(f.Record.Fields)
					continue
				}
				what := r.Name + "." + f.Name
				member := "((" + T + " *)0)->" + f.Name
				if f.BitWidth > 0 {
					n.bitfields++
					// Set only this bitfield and find its bits in memory.
					set := fmt.Sprintf("%s x; memset(&x, 0, sizeof x); x.%s = -1;", T, f.Name)
					add(what+" bit position", "({ "+set+" firstBit(&x, sizeof x); })", f.Offset*8+int64(f.BitOffset))
					add(what+" bit width", "({ "+set+" countBits(&x, sizeof x); })", int64(f.BitWidth))
					continue
				}
				n.fields++
				add(what+" offset", "__builtin_offsetof("+T+", "+f.Name+")", f.Offset)
				add(what+" size", "sizeof("+member+")", f.Type.Size)
				add(what+" align", "_Alignof(__typeof__("+member+"))", f.Type.Align)
			}
		}
		walk(r.Fields)
	}

	for _, e := range api.Enums {
		T := e.Ref
		if e.Tag == "" {
			if strings.Contains(e.Name, "<anonymous") {
				n.unnamable = append(n.unnamable, e.Ref)
				continue
			}
			T = e.Name
		}
		n.enums++
		add(e.Name+" size", "sizeof("+T+")", e.Size)
		for _, v := range e.Values {
			add(e.Name+"."+v.Name, "(long long)"+v.Name, v.Value)
		}
	}

	for _, td := range api.Typedefs {
		if td.Type.Size == 0 || td.Type.Kind == ir.Void {
			continue // incomplete or void: nothing to measure
		}
		n.typedefs++
		add(td.Name+" size", "sizeof("+td.Name+")", td.Type.Size)
		add(td.Name+" align", "_Alignof("+td.Name+")", td.Type.Align)
	}
	n.checks = len(checks)

	var src bytes.Buffer
	src.WriteString("#include <stddef.h>\n#include <stdio.h>\n#include <string.h>\n")
	for _, h := range parser.Headers() {
		if _, err := os.Stat(filepath.Join(dir, h)); err == nil {
			fmt.Fprintf(&src, "#include <%s>\n", h)
		}
	}
	src.WriteString(`
static long long firstBit(const void *p, size_t n) {
	const unsigned char *b = p;
	for (size_t i = 0; i < n * 8; i++)
		if (b[i / 8] >> (i % 8) & 1)
			return (long long)i;
	return -1;
}
static long long countBits(const void *p, size_t n) {
	const unsigned char *b = p;
	long long c = 0;
	for (size_t i = 0; i < n * 8; i++)
		c += b[i / 8] >> (i % 8) & 1;
	return c;
}
int main(void) {
`)
	for i, c := range checks {
		fmt.Fprintf(&src, "\tprintf(\"%d %%lld\\n\", (long long)(%s));\n", i, c.expr)
	}
	src.WriteString("\treturn 0;\n}\n")

	tmp := t.TempDir()
	cfile, bin := filepath.Join(tmp, "layout.c"), filepath.Join(tmp, "layout")
	if err := os.WriteFile(cfile, src.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// gcc gets the headers the parser supplies (stubHeaders), searched
	// last as the parser searches them.
	stubs := filepath.Join(tmp, "stub-headers")
	if err := parser.WriteStubHeaders(stubs); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(gcc, "-std=gnu11", "-w", "-I", dir, "-idirafter", stubs, "-o", bin, cfile).CombinedOutput()
	if err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	out, err = exec.Command(bin).Output()
	if err != nil {
		t.Fatalf("running the layout program: %v", err)
	}
	got := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		idx, val, ok := strings.Cut(sc.Text(), " ")
		i, err1 := strconv.Atoi(idx)
		v, err2 := strconv.ParseInt(val, 10, 64)
		if !ok || err1 != nil || err2 != nil || i < 0 || i >= len(checks) {
			t.Fatalf("bad output line %q", sc.Text())
		}
		got++
		if c := checks[i]; v != c.want {
			t.Errorf("%s: gcc %d, IR %d", c.what, v, c.want)
		}
	}
	if got != len(checks) {
		t.Errorf("layout program printed %d values, want %d", got, len(checks))
	}
	return n
}

// findField finds a named member, looking through anonymous members as C does.
func findField(fields []ir.Field, name string) *ir.Field {
	for i := range fields {
		f := &fields[i]
		if f.Anonymous && f.Record != nil {
			if g := findField(f.Record.Fields, name); g != nil {
				return g
			}
		} else if f.Name == name {
			return f
		}
	}
	return nil
}
