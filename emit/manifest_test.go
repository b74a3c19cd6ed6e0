package emit

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cugen/cugen/internal/namedpipe"
	"github.com/cugen/cugen/parser/ir"
)

func cInt(c string, size int64, signed bool) *ir.Type {
	return &ir.Type{Kind: ir.Int, C: c, Size: size, Align: size, Signed: signed}
}

func cNamed(c string, size int64) *ir.Type {
	return &ir.Type{Kind: ir.Named, C: c, Name: c, Size: size, Align: size}
}

func cPtr(elem *ir.Type, c string) *ir.Type {
	return &ir.Type{Kind: ir.Pointer, C: c, Size: 8, Align: 8, Elem: elem}
}

// manifestTestAPI is a small API with one of each declaration the manifest
// writes; line is the header line of its anonymous union.
func manifestTestAPI(line string, symbol string, offset int64) *ir.API {
	anon := "union <anonymous at cuda.h:" + line + ">"
	u32 := cInt("unsigned int", 4, false)
	return &ir.API{
		CUDAVersion: 12040, RuntimeVersion: 12040,
		Functions: []*ir.Function{
			{Name: "cuMemAlloc", Symbol: symbol, Library: ir.Driver, Result: cNamed("CUresult", 4),
				Doc: &ir.Doc{Brief: "Allocates device memory."}, Pos: ir.Pos{File: "cuda.h", Line: 7},
				Params: []ir.Param{
					{Name: "dptr", Type: cPtr(cNamed("CUdeviceptr", 8), "CUdeviceptr *"), Direction: ir.Out, Doc: "Returned pointer"},
					{Name: "bytesize", Type: cNamed("size_t", 8)},
				}},
			{Name: "cuGetErrorString", Symbol: "cuGetErrorString", Library: ir.Driver, Result: cNamed("CUresult", 4),
				Params: []ir.Param{{Name: "pStr", Type: cPtr(cPtr(cInt("const char", 1, true), "const char *"), "const char * *")}}},
			{Name: "cuMemcpyAsync", Symbol: "cuMemcpyAsync", PerThreadSymbol: "cuMemcpyAsync_ptsz", Deprecated: true,
				Aliases: []string{"cuMemcpyAsyncAlias"}, Library: ir.Driver, Result: cNamed("CUresult", 4)},
		},
		Records: []*ir.Record{
			{Name: "CUinfo", Tag: "CUinfo_st", Ref: "struct CUinfo_st", Size: 24, Align: 8, Library: ir.Driver,
				Doc: &ir.Doc{Brief: "Information."}, Pos: ir.Pos{File: "cuda.h", Line: 3},
				Fields: []ir.Field{
					{Name: "type", Type: u32, Offset: 0},
					{Name: "flags", Type: u32, Offset: 4, BitOffset: 3, BitWidth: 2},
					{Name: "info", Type: cNamed(anon, 8), Offset: offset},
					{Name: "_anon0", Type: &ir.Type{Kind: ir.Named, C: "anonymous", Size: 8, Align: 8}, Offset: 16, Anonymous: true,
						Record: &ir.Record{Union: true, Size: 8, Align: 8, Fields: []ir.Field{
							{Name: "value", Type: u32, Offset: 16},
							{Name: "value64", Type: cInt("unsigned long long", 8, false), Offset: 16},
						}}},
				}},
			{Name: anon, Ref: anon, Union: true, Size: 8, Align: 8, Library: ir.Driver, Parent: "struct CUinfo_st", Member: "info",
				Fields: []ir.Field{{Name: "bytes", Type: cInt("unsigned long long", 8, false)}}},
			{Name: "CUctx_st", Tag: "CUctx_st", Ref: "struct CUctx_st", Opaque: true, Library: ir.Driver},
		},
		Enums: []*ir.Enum{{Name: "CUresult", Tag: "cudaError_enum", Size: 4, Signed: true, Library: ir.Driver,
			Values: []ir.EnumValue{{Name: "CUDA_SUCCESS", Value: 0, Doc: &ir.Doc{Brief: "No error."}}, {Name: "CUDA_ERROR_INVALID_VALUE", Value: 1}}}},
		Typedefs: []*ir.Typedef{
			{Name: "CUdeviceptr_v2", Type: cInt("unsigned long long", 8, false), Library: ir.Driver},
			{Name: "CUdeviceptr", Type: cNamed("CUdeviceptr_v2", 8), Library: ir.Driver},
		},
		Macros: []*ir.Macro{{Name: "CU_IPC_HANDLE_SIZE", Kind: ir.Int, Value: "64", CType: "int", Library: ir.Driver}},
	}
}

func manifestText(api *ir.API) string {
	var b bytes.Buffer
	writeManifest(&b, api)
	return b.String()
}

// TestManifestFormat: api.txt is one C declaration a line, key first, with
// no documentation or header positions.
func TestManifestFormat(t *testing.T) {
	got := manifestText(manifestTestAPI("604", "cuMemAlloc_v2", 8))
	want := `version cuda 12040 runtime 12040
func cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) CUresult // symbol cuMemAlloc_v2
func cuGetErrorString(const char **pStr) CUresult
func cuMemcpyAsync() CUresult // per-thread cuMemcpyAsync_ptsz, aliases cuMemcpyAsyncAlias, deprecated
struct CUinfo, tag CUinfo_st, size 24, align 8
struct CUinfo.type unsigned int, offset 0
struct CUinfo.flags unsigned int, offset 4, bits 3:2
struct CUinfo.info union <anonymous CUinfo.info>, offset 8
struct CUinfo.value unsigned int, offset 16
struct CUinfo.value64 unsigned long long, offset 16
union CUinfo.info, size 8, align 8
union CUinfo.info.bytes unsigned long long, offset 0
struct CUctx_st, opaque
enum CUresult, size 4, signed
enum CUresult.CUDA_SUCCESS = 0
enum CUresult.CUDA_ERROR_INVALID_VALUE = 1
typedef CUdeviceptr_v2 = unsigned long long
typedef CUdeviceptr = CUdeviceptr_v2
#define CU_IPC_HANDLE_SIZE 64 // int
`
	if got != want {
		t.Errorf("manifest:\n%s\nwant:\n%s", got, want)
	}
	// A declaration that only moved in the header changes no line.
	if moved := manifestText(manifestTestAPI("611", "cuMemAlloc_v2", 8)); moved != got {
		t.Errorf("moving an anonymous union in the header changed the manifest:\n%s", moved)
	}
}

// TestDiffManifests: a changed declaration is one changed line, matched by
// its key; added and removed lines are listed in their file's order.
func TestDiffManifests(t *testing.T) {
	oldAPI := manifestTestAPI("604", "cuMemAlloc", 8)
	newAPI := manifestTestAPI("611", "cuMemAlloc_v2", 8)
	newAPI.Records[0].Fields[2].Offset = 16
	newAPI.Enums[0].Values = append(newAPI.Enums[0].Values, ir.EnumValue{Name: "CUDA_ERROR_OUT_OF_MEMORY", Value: 2})
	newAPI.Records[0].Union = true // struct -> union: the same record, changed
	newAPI.Macros = nil
	parse := func(api *ir.API) *Manifest {
		mf, err := ParseManifest("api.txt", []byte("# header\n"+manifestText(api)))
		if err != nil {
			t.Fatal(err)
		}
		return mf
	}
	c := DiffManifests(parse(oldAPI), parse(newAPI))
	var b strings.Builder
	if err := c.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `1 removed, 1 added, 7 changed
  - #define CU_IPC_HANDLE_SIZE 64 // int
  + enum CUresult.CUDA_ERROR_OUT_OF_MEMORY = 2
  - func cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) CUresult
  + func cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) CUresult // symbol cuMemAlloc_v2
  - struct CUinfo, tag CUinfo_st, size 24, align 8
  + union CUinfo, tag CUinfo_st, size 24, align 8
  - struct CUinfo.type unsigned int, offset 0
  + union CUinfo.type unsigned int, offset 0
  - struct CUinfo.flags unsigned int, offset 4, bits 3:2
  + union CUinfo.flags unsigned int, offset 4, bits 3:2
  - struct CUinfo.info union <anonymous CUinfo.info>, offset 8
  + union CUinfo.info union <anonymous CUinfo.info>, offset 16
  - struct CUinfo.value unsigned int, offset 16
  + union CUinfo.value unsigned int, offset 16
  - struct CUinfo.value64 unsigned long long, offset 16
  + union CUinfo.value64 unsigned long long, offset 16
`
	if b.String() != want {
		t.Errorf("changes:\n%s\nwant:\n%s", b.String(), want)
	}
	if c := DiffManifests(parse(oldAPI), parse(oldAPI)); !c.Empty() {
		t.Errorf("a manifest against itself: %+v", c)
	}
}

// TestParseManifestErrors: what is not a manifest of this cugen is a clear
// error naming the file and line, never a diff against half a file.
func TestParseManifestErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"json", "# header\n{\"function\":{\"name\":\"cuInit\"}}\n", "api.txt:2: a JSON manifest of an earlier cugen"},
		{"garbage", "version cuda 1 runtime 1\nfunky cuInit\n", "api.txt:2: not a declaration"},
		{"twice", "func cuInit() CUresult\nfunc cuInit(unsigned int) CUresult\n", "api.txt:2: func cuInit declared twice"},
		{"huge", strings.Repeat("#", maxManifest+1), "more than an API manifest can be"},
	} {
		if _, err := ParseManifest("api.txt", []byte(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// TestManifest12_4: the real 12.4 manifests read back (every line has a
// key, no key twice), hold no header positions or documentation, and no
// line is longer than the longest C prototype (cuTensorMapEncodeIm2col's
// 11 parameters, 489 characters, in the CUDA APIs; NPP's
// nppiCompressedMarkerLabelsUFContoursGenerateGeometryLists_C1R_Ctx, 1018
// characters, in the whole family).
func TestManifest12_4(t *testing.T) {
	api, origin := load124(t)
	pkgs, err := Generate(api, opts124(origin))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		mf, err := p.Manifest()
		if err != nil {
			t.Fatal(err)
		}
		if min := map[string]int{"cu": 1000, "cudart": 1000}[p.Name]; len(mf.lines) < min || len(mf.lines) < 20 {
			t.Errorf("%s: %d declaration lines", p.Name, len(mf.lines))
		}
		for _, l := range mf.lines {
			if len(l) > 1100 || strings.Contains(l, `"pos"`) || strings.Contains(l, "<anonymous at") {
				t.Errorf("%s/api.txt: %.120s... (%d characters)", p.Name, l, len(l))
			}
		}
	}
}

// TestReadManifestFIFO: a FIFO as the old api.txt is an error naming it,
// never opened (opening a FIFO blocks until a writer comes: it hung the
// run).
func TestReadManifestFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "api.txt")
	if err := namedpipe.Make(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadManifest(dir)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), fifo) {
			t.Errorf("ReadManifest of a FIFO: %v, want an error naming it", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadManifest of a FIFO hangs")
	}
}

// TestManifestCommand: a manifest read back names the gen line that wrote
// it (the comment line after the marker) and its CUDA version, which gen
// -desc holds another line's cu and cudart to; a manifest without them
// gives "" and 0.
func TestManifestCommand(t *testing.T) {
	for _, c := range []struct {
		text, command string
		version       int
	}{
		{"# Code generated by cugen v0.1.0 from CUDA 12.4 headers. DO NOT EDIT.\n# cugen gen -set 12.4 -lib cu -out cuda\n# The C API of package cu.\nversion cuda 12040 runtime 12040\nfunc cuInit(unsigned int Flags) CUresult\n",
			"cugen gen -set 12.4 -lib cu -out cuda", 12040},
		{"# Code generated by cugen v0.1.0 from CUDA 13.0 headers. DO NOT EDIT.\n# The C API of package cu.\nversion cuda 13000 runtime 13000\n", "", 13000},
		{"func cuInit(unsigned int Flags) CUresult\n# cugen gen -set 12.4 -out cuda\n", "", 0},
		{"version cuda x runtime 1\n", "", 0},
	} {
		m, err := ParseManifest("api.txt", []byte(c.text))
		if err != nil {
			t.Fatal(err)
		}
		if m.Command() != c.command || m.CUDAVersion() != c.version {
			t.Errorf("%q: command %q, version %d; want %q, %d", c.text, m.Command(), m.CUDAVersion(), c.command, c.version)
		}
	}
}
