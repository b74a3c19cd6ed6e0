package parser_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/parser"
	"github.com/cugen/cugen/parser/ir"
)

// filter returns the elements of ss equal to s.
func filter(ss []string, s string) []string {
	var out []string
	for _, x := range ss {
		if x == s {
			out = append(out, x)
		}
	}
	return out
}

var update = flag.Bool("update", false, "rewrite testdata/*/ir.golden.json from the parser's output")

// goldenCases are the snippet directories under testdata, one per rule.
var goldenCases = []string{
	"aliases",    // #define cuX cuX_v2, PFN_cuX_vNNNN versions
	"ptds",       // __CUDA_API_PTDS/PTSZ, runtime mappings in an inactive #if
	"outparams",  // Returned, \param[out], const in, arrays, See description
	"profiler",   // cudaProfiler.h and cuda_profiler_api.h join their libraries
	"arrays",     // array sizes (fixed, from a count, undocumented); outputs in other words
	"unions",     // tagged unions, anonymous records as named member types
	"anonymous",  // unnamed struct/union members
	"bitfields",  // named and unnamed bitfields
	"callbacks",  // function pointer typedefs and parameters
	"deprecated", // \deprecated and __attribute__((deprecated))
	"enums",      // tagged, typedef'd, anonymous, negative, unsigned
	"macros",     // constant macros: ints, pointers, floats; non-constants skipped
}

// TestGolden parses each snippet directory and compares the IR, as JSON,
// with its ir.golden.json. Run `go test ./parser -run TestGolden -update`
// after an intended change and review the diff.
func TestGolden(t *testing.T) {
	for _, name := range goldenCases {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", name)
			api, err := parser.Parse(dir)
			if err != nil {
				t.Fatal(err)
			}
			checkUnique(t, api)
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false) // keep "struct <anonymous at cuda.h:52>" readable
			enc.SetIndent("", "\t")
			if err := enc.Encode(api); err != nil {
				t.Fatal(err)
			}
			got := buf.Bytes()
			golden := filepath.Join(dir, "ir.golden.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("IR differs from %s (run with -update and review the diff):\n%s", golden, firstDiff(want, got))
			}
		})
	}
}

// firstDiff shows the first differing line of two texts with a little context.
func firstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			var b strings.Builder
			for j := max(0, i-3); j < i; j++ {
				fmt.Fprintf(&b, "  %5d  %s\n", j+1, w[j])
			}
			fmt.Fprintf(&b, "- %5d  %s\n+ %5d  %s\n", i+1, wl, i+1, gl)
			return b.String()
		}
	}
	return "(equal)"
}

// TestGoldenRules states, independently of the golden files, what each
// snippet is there to show, so that an -update that breaks a rule fails.
func TestGoldenRules(t *testing.T) {
	load := func(t *testing.T, name string) *ir.API {
		t.Helper()
		api, err := parser.Parse(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return api
	}
	dir := func(api *ir.API, fn, param string) string {
		f := findFunction(api, fn)
		if f == nil {
			return "missing function"
		}
		p := findParam(f, param)
		if p == nil {
			return "missing parameter"
		}
		return string(p.Direction)
	}

	t.Run("aliases", func(t *testing.T) {
		api := load(t, "aliases")
		for _, c := range []struct {
			name, symbol string
			since        int
		}{
			{"cuDeviceTotalMem", "cuDeviceTotalMem_v2", 3020},
			{"cuCtxCreate", "cuCtxCreate_v2", 3020},
			{"cuCtxCreate_v3", "cuCtxCreate_v3", 11040}, // matched by parameter names
			{"cuMemAlloc", "cuMemAlloc_v2", 3020},
			{"cuDeviceGet", "cuDeviceGet", 2000},
		} {
			f := findFunction(api, c.name)
			if f == nil || f.Symbol != c.symbol || f.SinceVersion != c.since || f.Library != ir.Driver {
				t.Errorf("%s: %+v; want symbol %s since %d", c.name, f, c.symbol, c.since)
			}
		}
		if n := len(api.Functions); n != 5 {
			t.Errorf("%d functions, want 5: the PFN typedefs and the inactive old cuMemAlloc are not functions", n)
		}
		if want := []string{"cuda.h", "cudaTypedefs.h"}; !equalStrings(api.Sources, want) {
			t.Errorf("Sources %v, want %v", api.Sources, want)
		}
	})

	t.Run("ptds", func(t *testing.T) {
		api := load(t, "ptds")
		for _, c := range []struct {
			name, symbol, perThread string
			lib                     ir.Library
		}{
			{"cuMemcpyHtoD", "cuMemcpyHtoD_v2", "cuMemcpyHtoD_v2_ptds", ir.Driver},
			{"cuMemcpyHtoDAsync", "cuMemcpyHtoDAsync_v2", "cuMemcpyHtoDAsync_v2_ptsz", ir.Driver},
			{"cuStreamQuery", "cuStreamQuery", "cuStreamQuery_ptsz", ir.Driver},
			{"cuInit", "cuInit", "", ir.Driver},
			{"cudaMemcpy", "cudaMemcpy", "cudaMemcpy_ptds", ir.Runtime},
			{"cudaStreamQuery", "cudaStreamQuery", "cudaStreamQuery_ptsz", ir.Runtime},
			{"cudaSetDevice", "cudaSetDevice", "", ir.Runtime},
		} {
			f := findFunction(api, c.name)
			if f == nil || f.Symbol != c.symbol || f.PerThreadSymbol != c.perThread || f.Library != c.lib {
				t.Errorf("%s: %+v; want symbol %s, per-thread %q, %s", c.name, f, c.symbol, c.perThread, c.lib)
			}
		}
		if api.RuntimeVersion != 12040 {
			t.Errorf("RuntimeVersion %d", api.RuntimeVersion)
		}
		if want := []string{"cuda.h", "cuda_runtime.h", "cuda_runtime_api.h"}; !equalStrings(api.Sources, want) {
			t.Errorf("Sources %v, want %v", api.Sources, want)
		}
	})

	t.Run("outparams", func(t *testing.T) {
		api := load(t, "outparams")
		for _, c := range []struct {
			fn, param string
			want      ir.Direction
		}{
			{"cuDeviceGet", "device", ir.Out},                    // "Returned device handle"
			{"cuDeviceGet", "ordinal", ir.In},                    // not a pointer
			{"cuDeviceGetName", "name", ir.Out},                  // "Returned identifier string"
			{"cuGetErrorName", "pStr", ir.Out},                   // override table
			{"cuDriverGetVersion", "driverVersion", ir.Out},      // "Returns the ..."
			{"cuMemcpyHtoD", "srcHost", ir.In},                   // const pointer
			{"cuMemcpyDtoH", "dstHost", ir.In},                   // void * buffer stays a pointer
			{"cuMemPoolGetAccess", "flags", ir.Out},              // \param[out]
			{"cuMemPoolGetAccess", "location", ir.In},            // \param[in] on a non-const pointer
			{"cuGraphGetNodes", "nodes", ir.InOut},               // array: the call also takes a count
			{"cuGraphGetNodes", "numNodes", ir.InOut},            // "See description"
			{"cuLinkCreate", "options", ir.InOut},                // "Array of"
			{"cuLinkCreate", "optionValues", ir.InOut},           // "Array of"
			{"cuLinkCreate", "stateOut", ir.Out},                 // "On success, this will contain"
			{"cuTexRefSetBorderColor", "pBorderColor", ir.InOut}, // undocumented: stays a pointer
		} {
			if got := dir(api, c.fn, c.param); got != string(c.want) {
				t.Errorf("%s.%s: %s, want %s", c.fn, c.param, got, c.want)
			}
		}
	})

	t.Run("profiler", func(t *testing.T) {
		api := load(t, "profiler")
		libs := map[string]ir.Library{}
		for _, f := range api.Functions {
			libs[f.Name] = f.Library
		}
		for name, want := range map[string]ir.Library{
			"cuInit": ir.Driver, "cuProfilerStart": ir.Driver, "cuProfilerStop": ir.Driver,
			"cudaGetDevice": ir.Runtime, "cudaProfilerStart": ir.Runtime, "cudaProfilerStop": ir.Runtime,
		} {
			if got, ok := libs[name]; !ok || got != want {
				t.Errorf("%s: library %q (declared: %v), want %s", name, got, ok, want)
			}
		}
		for _, e := range api.Enums {
			if e.Name == "CUoutput_mode" && e.Library != ir.Driver {
				t.Errorf("CUoutput_mode in the %s library, want the driver's (cudaProfiler.h)", e.Library)
			}
		}
		for _, h := range []string{"cudaProfiler.h", "cuda_profiler_api.h"} {
			if !equalStrings([]string{h}, filter(api.Sources, h)) {
				t.Errorf("Sources %v lack %s", api.Sources, h)
			}
		}
	})

	t.Run("arrays", func(t *testing.T) {
		api := load(t, "arrays")
		params := map[string]ir.Param{}
		for _, f := range api.Functions {
			for _, p := range f.Params {
				params[f.Name+"."+p.Name] = p
			}
		}
		for _, c := range []struct {
			param string
			dir   ir.Direction
			len   int64  // fixed element count; -1: not an array
			count string // the parameter holding the count
		}{
			{"cuDeviceGetLuid.luid", ir.Out, 8, ""},                                  // override table: 8 bytes, not one
			{"cuDeviceGetLuid.deviceNodeMask", ir.Out, -1, ""},                       // a scalar
			{"cuFixtureGetKey.key", ir.Out, 16, ""},                                  // "16-byte"
			{"cuFixtureGetTag.tag", ir.InOut, 0, ""},                                 // char * of unknown size: a pointer
			{"cuFixtureGetFlag.flag", ir.InOut, -1, ""},                              // _Bool *: one value, not a char buffer
			{"cuDeviceGetHostAtomicCapabilities.capabilities", ir.InOut, 0, "count"}, // "of each requested operation"
			{"cuDeviceGetHostAtomicCapabilities.operations", ir.In, -1, ""},          // const
			{"cuGraphicsMapResources.resources", ir.InOut, 0, "count"},               // "Number of resources to map"
			{"cuStreamGetFlags.flags", ir.Out, -1, ""},                               // "the list of valid flags" is not an array
			{"cuDeviceGetName.name", ir.Out, 0, "len"},                               // a string buffer and its length
			{"cudaMemGetMemPool.memPool", ir.Out, -1, ""},                            // undocumented, \brief "Gets"; no-break-space comment
			{"cudaMemGetMemPool.location", ir.InOut, -1, ""},                         // not the first parameter
			{"cudaMemPoolImportPointer.ptr", ir.Out, -1, ""},                         // \param[out] ptr_out, by position
			{"cudaMemPoolImportPointer.exportData", ir.In, -1, ""},                   // \param[in] shareData, by position
			{"cuLogsDumpToMemory.iterator", ir.InOut, -1, ""},                        // query-then-fill, but not filled
			{"cuLogsDumpToMemory.buffer", ir.InOut, 0, "size"},                       // filled: *size bytes
			{"cudaLibraryGetKernelCount.count", ir.Out, -1, ""},                      // "Returns in \p count"
		} {
			p, ok := params[c.param]
			if !ok {
				t.Errorf("%s: no such parameter", c.param)
				continue
			}
			if p.Direction != c.dir {
				t.Errorf("%s: %s (%s), want %s", c.param, p.Direction, p.Why, c.dir)
			}
			switch {
			case c.len < 0 && p.Array != nil:
				t.Errorf("%s: array %+v, want a single element", c.param, *p.Array)
			case c.len >= 0 && p.Array == nil:
				t.Errorf("%s: not an array (%s)", c.param, p.Why)
			case c.len >= 0 && (p.Array.Len != c.len || p.Array.Param != c.count):
				t.Errorf("%s: array %+v, want len %d count %q", c.param, *p.Array, c.len, c.count)
			}
		}
	})

	t.Run("unions", func(t *testing.T) {
		api := load(t, "unions")
		byRef := map[string]*ir.Record{}
		for _, r := range api.Records {
			byRef[r.Ref] = r
		}
		v := byRef["union CUlaunchAttributeValue_union"]
		if v == nil || !v.Union || v.Name != "CUlaunchAttributeValue" || v.Size != 64 || v.Align != 8 {
			t.Fatalf("CUlaunchAttributeValue: %+v", v)
		}
		for _, f := range v.Fields {
			if f.Offset != 0 {
				t.Errorf("union member %s at offset %d", f.Name, f.Offset)
			}
		}
		owners := map[string]string{} // parent.member -> record kind
		for _, r := range api.Records {
			if r.Parent != "" {
				owners[r.Parent+"."+r.Member] = map[bool]string{true: "union", false: "struct"}[r.Union]
			}
		}
		desc := byRef["struct CUDA_RESOURCE_DESC_st"]
		if desc == nil {
			t.Fatal("struct CUDA_RESOURCE_DESC_st missing")
		}
		var resType string
		for _, f := range desc.Fields {
			if f.Name == "res" {
				resType = f.Type.Name
			}
		}
		for key, want := range map[string]string{
			"union CUlaunchAttributeValue_union.clusterDim":        "struct",
			"union CUlaunchAttributeValue_union.programmaticEvent": "struct",
			"struct CUDA_RESOURCE_DESC_st.res":                     "union",
			resType + ".array":                                     "struct",
			resType + ".linear":                                    "struct",
			resType + ".reserved":                                  "struct",
		} {
			if owners[key] != want {
				t.Errorf("anonymous record of %s: %q, want a %s", key, owners[key], want)
			}
		}
		if d := dir(api, "cuTexObjectGetResourceDesc", "pResDesc"); d != string(ir.Out) {
			t.Errorf("cuTexObjectGetResourceDesc.pResDesc: %s, want out (override)", d)
		}
	})

	t.Run("anonymous", func(t *testing.T) {
		api := load(t, "anonymous")
		var params *ir.Record
		for _, r := range api.Records {
			if r.Name == "CUgraphNodeParams" {
				params = r
			}
		}
		if params == nil || params.Size != 256 {
			t.Fatalf("CUgraphNodeParams: %+v", params)
		}
		var names []string
		for _, f := range params.Fields {
			names = append(names, f.Name)
		}
		if want := []string{"type", "reserved0", "_anon0", "reserved2"}; !equalStrings(names, want) {
			t.Fatalf("fields %v, want %v", names, want)
		}
		u := params.Fields[2]
		if !u.Anonymous || u.Record == nil || !u.Record.Union || u.Offset != 16 || u.Record.Size != 232 {
			t.Fatalf("anonymous union: %+v", u)
		}
		ev := u.Record.Fields[len(u.Record.Fields)-1]
		if !ev.Anonymous || ev.Record == nil || ev.Record.Union || len(ev.Record.Fields) != 2 ||
			ev.Record.Fields[0].Name != "event" || ev.Record.Fields[0].Offset != 16 || ev.Record.Fields[1].Offset != 24 {
			t.Errorf("anonymous struct in the union: %+v", ev)
		}
	})

	t.Run("bitfields", func(t *testing.T) {
		api := load(t, "bitfields")
		if len(api.Records) != 1 {
			t.Fatalf("%d records", len(api.Records))
		}
		r := api.Records[0]
		type bits struct {
			off        int64
			bit, width int
		}
		got := map[string]bits{}
		for _, f := range r.Fields {
			got[f.Name] = bits{f.Offset, f.BitOffset, f.BitWidth}
		}
		// Absolute bit positions as gcc lays them out on x86-64: offset
		// shares the first 8-byte unit with the fields before it (cc/v4
		// without Config.ABILayout put it at bit 64 and the struct at 24 bytes).
		for name, want := range map[string]int64{"readOnly": 0, "portable": 1, "level": 8, "offset": 24, "signedDelta": 64} {
			b, ok := got[name]
			if !ok {
				t.Errorf("bitfield %s missing", name)
				continue
			}
			if abs := b.off*8 + int64(b.bit); abs != want || b.width == 0 {
				t.Errorf("%s: offset %d bit %d width %d = bit %d, want bit %d", name, b.off, b.bit, b.width, abs, want)
			}
		}
		if b := got["algorithm"]; b.off != 2 || b.width != 0 {
			t.Errorf("algorithm: %+v, want byte 2, not a bitfield", b)
		}
		if len(r.Fields) != 6 || r.Size != 16 {
			t.Errorf("%d fields (unnamed bitfields must be left out), size %d", len(r.Fields), r.Size)
		}
	})

	t.Run("callbacks", func(t *testing.T) {
		api := load(t, "callbacks")
		typedefs := map[string]*ir.Typedef{}
		for _, td := range api.Typedefs {
			typedefs[td.Name] = td
		}
		cb := typedefs["CUstreamCallback"]
		if cb == nil || cb.Type.Kind != ir.FuncPtr || cb.Type.Func == nil || len(cb.Type.Func.Params) != 3 ||
			cb.Type.Func.Params[1].Type.Name != "CUresult" || cb.Type.Func.Result.Kind != ir.Void {
			t.Errorf("CUstreamCallback: %+v", cb)
		}
		if fn := typedefs["CUhostFn"]; fn == nil || fn.Type.Kind != ir.FuncPtr || fn.Type.Size != 8 {
			t.Errorf("CUhostFn: %+v", fn)
		}
		f := findFunction(api, "cuStreamAddCallback")
		if p := findParam(f, "callback"); p == nil || p.Type.Kind != ir.Named || p.Type.Name != "CUstreamCallback" || p.Direction != ir.In {
			t.Errorf("cuStreamAddCallback.callback: %+v", p)
		}
		f = findFunction(api, "cuLogsRegisterCallback")
		if p := findParam(f, "callbackFunc"); p == nil || p.Type.Kind != ir.FuncPtr || len(p.Type.Func.Params) != 4 || p.Direction != ir.In {
			t.Errorf("cuLogsRegisterCallback.callbackFunc: %+v", p)
		}
	})

	t.Run("deprecated", func(t *testing.T) {
		api := load(t, "deprecated")
		for name, want := range map[string]bool{
			"cuCtxAttach":               true, // both
			"cuCtxDetach":               true, // \deprecated only
			"cuCtxSetCacheConfigLegacy": true, // attribute only
			"cuCtxPushCurrent":          false,
		} {
			if f := findFunction(api, name); f == nil || f.Deprecated != want {
				t.Errorf("%s: %+v, want Deprecated %v", name, f, want)
			}
		}
	})

	t.Run("enums", func(t *testing.T) {
		api := load(t, "enums")
		byName := map[string]*ir.Enum{}
		for _, e := range api.Enums {
			byName[e.Name] = e
		}
		for name, want := range map[string]struct {
			tag, ref string
			n        int
		}{
			"CUresult":                    {"cudaError_enum", "enum cudaError_enum", 3},
			"CUctx_flags":                 {"CUctx_flags_enum", "enum CUctx_flags_enum", 5},
			"CUmem_advise":                {"", "enum <anonymous CU_MEM_ADVISE_SET_READ_MOSTLY>", 3},
			"CUdevice_enum":               {"CUdevice_enum", "enum CUdevice_enum", 2},
			"cudaFlagsExample":            {"cudaFlagsExample", "enum cudaFlagsExample", 3},
			"enum <anonymous CU_LIMIT_A>": {"", "enum <anonymous CU_LIMIT_A>", 2},
		} {
			e := byName[name]
			if e == nil || e.Tag != want.tag || e.Ref != want.ref || len(e.Values) != want.n {
				t.Errorf("enum %s: %+v, want tag %q ref %q and %d values", name, e, want.tag, want.ref, want.n)
			}
		}
		if len(api.Enums) != 6 {
			t.Errorf("%d enums, want 6 (a typedef of a known enum is no new enum)", len(api.Enums))
		}
		if e := byName["CUmem_advise"]; e != nil && e.Values[2].Value != 3 {
			t.Errorf("CU_MEM_ADVISE_SET_PREFERRED_LOCATION = %d, want 3", e.Values[2].Value)
		}
		if e := byName["CUdevice_enum"]; e != nil && (!e.Signed || e.Values[1].Value != -2) {
			t.Errorf("CUdevice_enum: signed %v, CU_DEVICE_INVALID %d", e.Signed, e.Values[1].Value)
		}
		if e := byName["cudaFlagsExample"]; e != nil && e.Values[2].Value != 0x80000000 {
			t.Errorf("cudaFlagHigh = %#x", e.Values[2].Value)
		}
		if e := byName["CUctx_flags"]; e != nil && docText(e.Values[1].Doc) != "Set spin as default scheduling" {
			t.Errorf("CU_CTX_SCHED_SPIN doc %q", docText(e.Values[1].Doc))
		}
		if e := byName["CUresult"]; e != nil && !strings.HasPrefix(docText(e.Values[0].Doc), "The API call returned with no errors") {
			t.Errorf("CUDA_SUCCESS doc %q", docText(e.Values[0].Doc))
		}
	})

	t.Run("macros", func(t *testing.T) {
		api := load(t, "macros")
		for _, c := range []struct {
			name   string
			kind   ir.Kind
			value  string
			signed bool
		}{
			{"CUDA_VERSION", ir.Int, "12040", true},
			{"CU_STREAM_LEGACY", ir.Pointer, "1", false},
			{"CU_STREAM_PER_THREAD", ir.Pointer, "2", false},
			{"CU_DEVICE_CPU", ir.Int, "-1", true},
			{"CU_MEMHOSTALLOC_PORTABLE", ir.Int, "1", true},
			{"CU_MEMHOSTALLOC_DEVICEMAP", ir.Int, "2", true},
			{"CU_LAUNCH_PARAM_END", ir.Pointer, "0", false},
			{"CU_LAUNCH_PARAM_BUFFER_POINTER", ir.Pointer, "1", false},
			{"CU_IPC_HANDLE_SIZE", ir.Int, "64", true},
			{"CU_TRSA_OVERRIDE_FORMAT", ir.Int, "1", false},
			{"CU_ALL_BITS", ir.Int, "18446744073709551615", false},
			{"CUDART_PI_F", ir.Float, "3.1415927", false},
			{"CUDART_SQRT_2", ir.Float, "1.4142135623730951", false},
		} {
			m := findMacro(api, c.name)
			if m == nil || m.Kind != c.kind || m.Value != c.value || m.Signed != c.signed {
				t.Errorf("%s: %+v; want %s %s signed %v", c.name, m, c.kind, c.value, c.signed)
			}
		}
		for _, n := range []string{"CU_MAKE_FLAG", "CU_VERSION_STRING", "__CU_INTERNAL", "cuMemcpyHtoD", "cuCtxCreate", "CUDAAPI"} {
			if findMacro(api, n) != nil {
				t.Errorf("%s listed as a constant macro", n)
			}
		}
		if m := findMacro(api, "CU_STREAM_LEGACY"); m != nil && (m.CType != "CUstream" || docText(m.Doc) != "Legacy stream handle") {
			t.Errorf("CU_STREAM_LEGACY: ctype %q doc %q", m.CType, docText(m.Doc))
		}
	})
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkUnique asserts that the names emit keys on are unique: record and
// enum references, record and enum names, typedef names.
func checkUnique(t *testing.T, api *ir.API) {
	t.Helper()
	seen := map[string]bool{}
	once := func(kind, name string) {
		if seen[kind+" "+name] {
			t.Errorf("%s %q twice", kind, name)
		}
		seen[kind+" "+name] = true
	}
	for _, r := range api.Records {
		once("record ref", r.Ref)
		once("record name", r.Name)
	}
	for _, e := range api.Enums {
		once("enum ref", e.Ref)
		once("enum name", e.Name)
	}
	for _, td := range api.Typedefs {
		once("typedef", td.Name)
	}
	for _, m := range api.Macros {
		once("macro", m.Name)
	}
}

// docText is the first paragraph of a parsed comment (its \brief, or the
// text of a comment without one).
func docText(d *ir.Doc) string {
	switch {
	case d == nil:
		return ""
	case d.Brief != "":
		return d.Brief
	case len(d.Body) > 0:
		return d.Body[0].Text
	}
	return ""
}
