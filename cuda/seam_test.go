package cuda

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// contextFree are the driver functions the layer may call outside the
// seam (the driver interface, driver.go): they run before any context
// exists or need none, so no context's driver could answer them. Each
// must be called somewhere, so the list cannot outlive its calls.
var contextFree = map[string]bool{
	"Init":                   true, // cuInit: once, before everything (major.go)
	"DriverGetVersion":       true, // the installed driver's, not a context's
	"DeviceGet":              true, // device enumeration: GetDevice
	"DeviceGetCount":         true, // DeviceCount
	"DeviceGetName":          true, // Device's queries (context.go, device.go)
	"DeviceGetAttribute":     true,
	"DeviceTotalMem":         true,
	"DeviceGetUuid":          true,
	"DeviceGetPCIBusId":      true,
	"DeviceCanAccessPeer":    true, // of two devices, no context
	"DevicePrimaryCtxRetain": true, // makes the context, before its driver is set
	"LibraryLoadData":        true, // a library (cuLibrary*) is of no context: LoadLibrary
	"LibraryUnload":          true,
	"LibraryGetKernel":       true,
	"KernelGetParamInfo":     true,
}

// TestDriverSeam: every driver call of the layer (a function of package
// cu) is in a method of realDriver, the seam the tests' fake replaces, or
// is one of the context-free calls above. A call added anywhere else
// would bypass the fake.
func TestDriverSeam(t *testing.T) {
	fset := token.NewFileSet()
	cuFuncs := map[string]bool{}
	for _, f := range []string{"sys/cu/zcuda12.go", "sys/cu/zcuda13.go"} {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() {
				cuFuncs[fd.Name.Name] = true
			}
		}
	}
	if len(cuFuncs) < 300 {
		t.Fatalf("package cu declares %d functions: not the generated package?", len(cuFuncs))
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	used := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		cuName := ""
		for _, im := range file.Imports {
			if strings.Trim(im.Path.Value, `"`) == "github.com/cugen/cugen/cuda/sys/cu" {
				cuName = "cu"
				if im.Name != nil {
					cuName = im.Name.Name
				}
			}
		}
		if cuName == "" {
			continue
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if ok && isRealDriver(fd) {
				continue
			}
			ast.Inspect(d, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, ok := sel.X.(*ast.Ident)
				if !ok || x.Name != cuName || !cuFuncs[sel.Sel.Name] {
					return true
				}
				used[sel.Sel.Name] = true
				if !contextFree[sel.Sel.Name] {
					bad = append(bad, fset.Position(sel.Pos()).String()+": cu."+sel.Sel.Name)
				}
				return true
			})
		}
	}
	for name := range contextFree {
		if !used[name] {
			bad = append(bad, "contextFree lists cu."+name+", which no file calls: drop it")
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("%d driver calls outside the seam (call them through ctxState.drv, a method of realDriver):\n%s",
			len(bad), strings.Join(bad, "\n"))
	}
}

// isRealDriver reports whether fd is a method of realDriver.
func isRealDriver(fd *ast.FuncDecl) bool {
	if fd.Recv == nil || len(fd.Recv.List) != 1 {
		return false
	}
	typ := fd.Recv.List[0].Type
	if st, ok := typ.(*ast.StarExpr); ok {
		typ = st.X
	}
	id, ok := typ.(*ast.Ident)
	return ok && id.Name == "realDriver"
}
