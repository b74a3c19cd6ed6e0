package apidiff

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/cugen/cugen/parser/ir"
)

// Small IR builders. Types are compared by their C spelling, so the other
// Type fields are left zero.

func ct(c string) *ir.Type { return &ir.Type{Kind: ir.Named, C: c, Name: c} }

func param(name, c string) ir.Param { return ir.Param{Name: name, Type: ct(c), Direction: ir.In} }

func fn(name, symbol string, params ...ir.Param) *ir.Function {
	return &ir.Function{Name: name, Symbol: symbol, Library: ir.Driver, Params: params, Result: ct("CUresult")}
}

func field(name, c string, off int64) ir.Field { return ir.Field{Name: name, Type: ct(c), Offset: off} }

func rec(name string, size int64, fields ...ir.Field) *ir.Record {
	return &ir.Record{Name: name, Tag: name + "_st", Ref: "struct " + name + "_st", Size: size, Align: 8, Fields: fields, Library: ir.Runtime}
}

func enum(name string, vals ...ir.EnumValue) *ir.Enum {
	return &ir.Enum{Name: name, Ref: "enum " + name, Size: 4, Signed: true, Values: vals, Library: ir.Driver}
}

func ev(name string, v int64) ir.EnumValue { return ir.EnumValue{Name: name, Value: v} }

func macro(name, value string) *ir.Macro {
	return &ir.Macro{Name: name, Kind: ir.Int, Value: value, CType: "int", Library: ir.Driver}
}

func typedef(name, c string) *ir.Typedef {
	return &ir.Typedef{Name: name, Type: ct(c), Library: ir.Driver}
}

// with returns a copy of v changed by edit.
func with[T any](v *T, edit func(*T)) *T {
	c := *v
	edit(&c)
	return &c
}

// anonAt is an anonymous record declared at line of cuda.h, the type of
// member of parent.
func anonAt(line int, union bool, parent, member string, fields ...ir.Field) *ir.Record {
	kw := "struct"
	if union {
		kw = "union"
	}
	ref := kw + " <anonymous at cuda.h:" + strconv.Itoa(line) + ">"
	return &ir.Record{Name: ref, Ref: ref, Union: union, Size: 8, Align: 4, Fields: fields, Library: ir.Driver, Parent: parent, Member: member}
}

// launchValue is struct with a union member "u" whose struct member
// "dim" is anonymous, the anonymous records declared at base, base+1.
func launchValue(base int, dimFields ...ir.Field) []*ir.Record {
	outer := rec("CUlaunchValue", 16, ir.Field{Name: "u", Type: ct("union <anonymous at cuda.h:" + strconv.Itoa(base) + ">"), Offset: 0})
	outer.Library = ir.Driver
	u := anonAt(base, true, outer.Ref, "u", ir.Field{Name: "dim", Type: ct("struct <anonymous at cuda.h:" + strconv.Itoa(base+1) + ">")})
	dim := anonAt(base+1, false, u.Ref, "dim", dimFields...)
	return []*ir.Record{outer, u, dim}
}

func TestCompare(t *testing.T) {
	ctxCreate := fn("cuCtxCreate", "cuCtxCreate_v2", param("pctx", "CUcontext *"), param("flags", "unsigned int"), param("dev", "CUdevice"))
	memset := fn("cuMemsetD8", "cuMemsetD8_v2", param("dstDevice", "CUdeviceptr"), param("uc", "unsigned char"), param("N", "size_t"))
	memset.PerThreadSymbol = "cuMemsetD8_v2_ptds"
	prop := rec("cudaDeviceProp", 24,
		field("name", "char[8]", 0),
		field("totalGlobalMem", "size_t", 8),
		field("major", "int", 16),
		field("minor", "int", 20))
	bits := rec("CUbits", 8, ir.Field{Name: "a", Type: ct("unsigned int"), BitWidth: 3}, ir.Field{Name: "b", Type: ct("unsigned int"), BitOffset: 3, BitWidth: 5})
	// A struct with an unnamed union member: { int kind; union { int i; long l; }; }
	anonMember := func(lOff int64, lType string) *ir.Record {
		inner := &ir.Record{Union: true, Size: 8, Align: 8, Fields: []ir.Field{field("i", "int", 8), field("l", lType, lOff)}}
		return rec("CUanonMember", 16, field("kind", "int", 0),
			ir.Field{Name: "_anon0", Type: &ir.Type{Kind: ir.Named, C: "anonymous"}, Offset: 8, Anonymous: true, Record: inner})
	}

	tests := []struct {
		name     string
		old, new ir.API
		// got picks the part of the report the case is about; every
		// other section must be empty.
		got  func(*Report) any
		want any
	}{
		{
			name: "function added",
			old:  ir.API{Functions: []*ir.Function{ctxCreate}},
			new:  ir.API{Functions: []*ir.Function{fn("cuLibraryLoadData", "cuLibraryLoadData"), ctxCreate, fn("cuKernelGetName", "cuKernelGetName")}},
			got:  func(r *Report) any { return r.Functions },
			want: Section[Func, FuncChange]{
				Added: []Func{
					{"cuKernelGetName", ir.Driver, "cuKernelGetName"},
					{"cuLibraryLoadData", ir.Driver, "cuLibraryLoadData"},
				},
				Removed: []Func{}, Changed: []FuncChange{},
			},
		},
		{
			name: "function removed",
			old:  ir.API{Functions: []*ir.Function{ctxCreate, with(fn("cudaBindTexture", "cudaBindTexture"), func(f *ir.Function) { f.Library = ir.Runtime })}},
			new:  ir.API{Functions: []*ir.Function{ctxCreate}},
			got:  func(r *Report) any { return r.Functions },
			want: Section[Func, FuncChange]{
				Added:   []Func{},
				Removed: []Func{{"cudaBindTexture", ir.Runtime, "cudaBindTexture"}},
				Changed: []FuncChange{},
			},
		},
		{
			name: "symbol changed",
			old:  ir.API{Functions: []*ir.Function{ctxCreate}},
			new:  ir.API{Functions: []*ir.Function{with(ctxCreate, func(f *ir.Function) { f.Symbol = "cuCtxCreate_v4" })}},
			got:  func(r *Report) any { return r.Functions.Changed },
			want: []FuncChange{{"cuCtxCreate", ir.Driver, []Change{{"symbol", "cuCtxCreate_v2", "cuCtxCreate_v4"}}}},
		},
		{
			name: "per-thread symbol changed and added",
			old: ir.API{Functions: []*ir.Function{memset,
				fn("cudaStreamUpdateCaptureDependencies", "cudaStreamUpdateCaptureDependencies")}},
			new: ir.API{Functions: []*ir.Function{
				with(memset, func(f *ir.Function) { f.PerThreadSymbol = "cuMemsetD8_v2_ptsz" }),
				with(fn("cudaStreamUpdateCaptureDependencies", "cudaStreamUpdateCaptureDependencies"), func(f *ir.Function) {
					f.PerThreadSymbol = "cudaStreamUpdateCaptureDependencies_ptsz"
				})}},
			got: func(r *Report) any { return r.Functions.Changed },
			want: []FuncChange{
				{"cuMemsetD8", ir.Driver, []Change{{"per_thread_symbol", "cuMemsetD8_v2_ptds", "cuMemsetD8_v2_ptsz"}}},
				{"cudaStreamUpdateCaptureDependencies", ir.Driver, []Change{{"per_thread_symbol", "", "cudaStreamUpdateCaptureDependencies_ptsz"}}},
			},
		},
		{
			name: "deprecated",
			old:  ir.API{Functions: []*ir.Function{ctxCreate}},
			new:  ir.API{Functions: []*ir.Function{with(ctxCreate, func(f *ir.Function) { f.Deprecated = true })}},
			got:  func(r *Report) any { return r.Functions.Changed },
			want: []FuncChange{{"cuCtxCreate", ir.Driver, []Change{{"deprecated", "false", "true"}}}},
		},
		{
			name: "result and library",
			old:  ir.API{Functions: []*ir.Function{ctxCreate}},
			new: ir.API{Functions: []*ir.Function{with(ctxCreate, func(f *ir.Function) {
				f.Result = ct("cudaError_t")
				f.Library = ir.Runtime
			})}},
			got: func(r *Report) any { return r.Functions.Changed },
			want: []FuncChange{{"cuCtxCreate", ir.Runtime, []Change{
				{"library", "driver", "runtime"},
				{"result", "CUresult", "cudaError_t"},
			}}},
		},
		{
			name: "param renamed and retyped",
			old:  ir.API{Functions: []*ir.Function{ctxCreate}},
			new:  ir.API{Functions: []*ir.Function{fn("cuCtxCreate", "cuCtxCreate_v2", param("ctx", "CUcontext *"), param("flags", "unsigned long long"), param("dev", "CUdevice"))}},
			got:  func(r *Report) any { return r.Functions.Changed },
			want: []FuncChange{{"cuCtxCreate", ir.Driver, []Change{
				{"params[0].name", "pctx", "ctx"},
				{"params[1].type", "unsigned int", "unsigned long long"},
			}}},
		},
		{
			name: "param count",
			old:  ir.API{Functions: []*ir.Function{ctxCreate}},
			new: ir.API{Functions: []*ir.Function{fn("cuCtxCreate", "cuCtxCreate_v4",
				param("pctx", "CUcontext *"), param("ctxCreateParams", "CUctxCreateParams *"), param("flags", "unsigned int"), param("dev", "CUdevice"))}},
			got: func(r *Report) any { return r.Functions.Changed },
			want: []FuncChange{{"cuCtxCreate", ir.Driver, []Change{
				{"symbol", "cuCtxCreate_v2", "cuCtxCreate_v4"},
				{"param_count", "3", "4"},
				{"params", "(CUcontext *pctx, unsigned int flags, CUdevice dev)",
					"(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev)"},
			}}},
		},
		{
			name: "doc, position, direction and since are not API changes",
			old:  ir.API{Functions: []*ir.Function{ctxCreate}},
			new: ir.API{Functions: []*ir.Function{with(ctxCreate, func(f *ir.Function) {
				f.Doc, f.Pos, f.SinceVersion = &ir.Doc{Brief: "Create a CUDA context"}, ir.Pos{File: "cuda.h", Line: 99}, 3020
				f.Params = []ir.Param{param("pctx", "CUcontext *"), param("flags", "unsigned int"), param("dev", "CUdevice")}
				f.Params[0].Direction, f.Params[0].Doc = ir.Out, "Returned context handle"
			})}},
			got:  func(r *Report) any { return r.Functions },
			want: Section[Func, FuncChange]{Added: []Func{}, Removed: []Func{}, Changed: []FuncChange{}},
		},
		{
			name: "record layout",
			old:  ir.API{Records: []*ir.Record{prop}},
			new: ir.API{Records: []*ir.Record{rec("cudaDeviceProp", 32,
				field("name", "char[8]", 0),
				field("uuid", "cudaUUID_t", 8),        // added
				field("totalGlobalMem", "size_t", 16), // moved
				field("major", "long", 24),            // moved and retyped
				// minor removed
			)}},
			got: func(r *Report) any { return r.Records.Changed },
			want: []RecordChange{{
				Name: "cudaDeviceProp", Library: ir.Runtime,
				Changes: []Change{{"size", "24", "32"}},
				Fields: []FieldChange{
					{Name: "uuid", What: FieldAdded, New: &Field{Type: "cudaUUID_t", Offset: 8}},
					{Name: "totalGlobalMem", What: FieldMoved, Old: &Field{Type: "size_t", Offset: 8}, New: &Field{Type: "size_t", Offset: 16}},
					{Name: "major", What: FieldMoved, Old: &Field{Type: "int", Offset: 16}, New: &Field{Type: "long", Offset: 24}},
					{Name: "major", What: FieldType, Old: &Field{Type: "int", Offset: 16}, New: &Field{Type: "long", Offset: 24}},
					{Name: "minor", What: FieldRemoved, Old: &Field{Type: "int", Offset: 20}},
				},
			}},
		},
		{
			name: "record align, kind and opaque",
			old:  ir.API{Records: []*ir.Record{rec("CUx", 8), {Name: "CUctx_st", Ref: "struct CUctx_st", Opaque: true, Library: ir.Driver}}},
			new: ir.API{Records: []*ir.Record{
				with(rec("CUx", 8), func(r *ir.Record) { r.Align, r.Union = 4, true }),
				{Name: "CUctx_st", Ref: "struct CUctx_st", Size: 8, Align: 8, Fields: []ir.Field{field("id", "int", 0)}, Library: ir.Driver},
			}},
			got: func(r *Report) any { return r.Records.Changed },
			want: []RecordChange{
				{Name: "CUctx_st", Library: ir.Driver,
					Changes: []Change{{"opaque", "true", "false"}, {"size", "0", "8"}, {"align", "0", "8"}},
					Fields:  []FieldChange{{Name: "id", What: FieldAdded, New: &Field{Type: "int", Offset: 0}}}},
				{Name: "CUx", Library: ir.Runtime, Changes: []Change{{"kind", "struct", "union"}, {"align", "8", "4"}}},
			},
		},
		{
			name: "records added and removed, matched by Ref when unnamed",
			old:  ir.API{Records: []*ir.Record{rec("textureReference", 124), {Ref: "struct <tagless>", Size: 4}}},
			new:  ir.API{Records: []*ir.Record{{Ref: "struct <tagless>", Size: 8}, rec("CUgraphEdgeData", 8), rec("CUctxCigParam", 16)}},
			got:  func(r *Report) any { return r.Records },
			want: Section[Record, RecordChange]{
				Added: []Record{
					{Name: "CUctxCigParam", Library: ir.Runtime, Size: 16, Align: 8},
					{Name: "CUgraphEdgeData", Library: ir.Runtime, Size: 8, Align: 8},
				},
				Removed: []Record{{Name: "textureReference", Library: ir.Runtime, Size: 124, Align: 8}},
				Changed: []RecordChange{{Name: "struct <tagless>", Changes: []Change{{"size", "4", "8"}}}},
			},
		},
		{
			name: "anonymous records that only moved in the header are unchanged",
			old:  ir.API{Records: launchValue(100, field("x", "unsigned int", 0))},
			new:  ir.API{Records: launchValue(300, field("x", "unsigned int", 0))},
			got:  func(r *Report) any { return r.Records },
			want: Section[Record, RecordChange]{Added: []Record{}, Removed: []Record{}, Changed: []RecordChange{}},
		},
		{
			name: "anonymous records are named by their place",
			old:  ir.API{Records: launchValue(100, field("x", "unsigned int", 0))},
			new:  ir.API{Records: launchValue(300, field("x", "unsigned int", 0), field("y", "unsigned int", 4))},
			got:  func(r *Report) any { return r.Records.Changed },
			want: []RecordChange{{Name: "CUlaunchValue.u.dim", Library: ir.Driver,
				Fields: []FieldChange{{Name: "y", What: FieldAdded, New: &Field{Type: "unsigned int", Offset: 4}}}}},
		},
		{
			name: "removed anonymous records are named from the old set",
			old:  ir.API{Records: launchValue(100)},
			new:  ir.API{},
			got:  func(r *Report) any { return r.Records.Removed },
			want: []Record{
				{Name: "CUlaunchValue", Library: ir.Driver, Size: 16, Align: 8},
				{Name: "CUlaunchValue.u", Library: ir.Driver, Union: true, Size: 8, Align: 4},
				{Name: "CUlaunchValue.u.dim", Library: ir.Driver, Size: 8, Align: 4},
			},
		},
		{
			name: "members of an unnamed union are fields of the record",
			old:  ir.API{Records: []*ir.Record{anonMember(8, "long")}},
			new:  ir.API{Records: []*ir.Record{anonMember(8, "long long")}},
			got:  func(r *Report) any { return r.Records.Changed },
			want: []RecordChange{{Name: "CUanonMember", Library: ir.Runtime, Fields: []FieldChange{
				{Name: "l", What: FieldType, Old: &Field{Type: "long", Offset: 8}, New: &Field{Type: "long long", Offset: 8}},
			}}},
		},
		{
			name: "bitfields",
			old:  ir.API{Records: []*ir.Record{bits}},
			new: ir.API{Records: []*ir.Record{rec("CUbits", 8,
				ir.Field{Name: "a", Type: ct("unsigned int"), BitWidth: 4},
				ir.Field{Name: "b", Type: ct("unsigned int"), BitOffset: 4, BitWidth: 5})}},
			got: func(r *Report) any { return r.Records.Changed },
			want: []RecordChange{{Name: "CUbits", Library: ir.Runtime, Fields: []FieldChange{
				{Name: "a", What: FieldType, Old: &Field{Type: "unsigned int", BitWidth: 3}, New: &Field{Type: "unsigned int", BitWidth: 4}},
				{Name: "b", What: FieldMoved, Old: &Field{Type: "unsigned int", BitOffset: 3, BitWidth: 5}, New: &Field{Type: "unsigned int", BitOffset: 4, BitWidth: 5}},
			}}},
		},
		{
			name: "enum values",
			old:  ir.API{Enums: []*ir.Enum{enum("CUdevice_attribute", ev("A", 1), ev("MEM_OPS", 92), ev("MEM_OPS_64", 93), ev("MAX", 125))}},
			new:  ir.API{Enums: []*ir.Enum{enum("CUdevice_attribute", ev("A", 1), ev("MEM_OPS_64", 122), ev("NUMA_ID", 131), ev("MAX", 135))}},
			got:  func(r *Report) any { return r.Enums.Changed },
			want: []EnumChange{{
				Name: "CUdevice_attribute", Library: ir.Driver,
				Added:      []EnumValue{{"NUMA_ID", 131}},
				Removed:    []EnumValue{{"MEM_OPS", 92}},
				Renumbered: []Renumber{{"MEM_OPS_64", 93, 122}, {"MAX", 125, 135}},
			}},
		},
		{
			name: "enum representation",
			old:  ir.API{Enums: []*ir.Enum{enum("CUflags", ev("A", 1))}},
			new:  ir.API{Enums: []*ir.Enum{with(enum("CUflags", ev("A", 1)), func(e *ir.Enum) { e.Size, e.Signed = 8, false })}},
			got:  func(r *Report) any { return r.Enums.Changed },
			want: []EnumChange{{Name: "CUflags", Library: ir.Driver, Changes: []Change{{"size", "4", "8"}, {"signed", "true", "false"}}}},
		},
		{
			name: "enums added and removed, unnamed ones by Ref",
			old: ir.API{Enums: []*ir.Enum{enum("cudaOutputMode_t", ev("cudaKeyValuePair", 0), ev("cudaCSV", 1)),
				{Ref: "enum <anonymous CU_X>", Values: []ir.EnumValue{ev("CU_X", 1)}}}},
			new: ir.API{Enums: []*ir.Enum{{Ref: "enum <anonymous CU_X>", Values: []ir.EnumValue{ev("CU_X", 2)}}, enum("CUcigDataType", ev("CIG_DATA_TYPE_D3D12_COMMAND_QUEUE", 1))}},
			got: func(r *Report) any { return r.Enums },
			want: Section[Enum, EnumChange]{
				Added:   []Enum{{"CUcigDataType", ir.Driver, 1}},
				Removed: []Enum{{"cudaOutputMode_t", ir.Driver, 2}},
				Changed: []EnumChange{{Name: "enum <anonymous CU_X>", Renumbered: []Renumber{{"CU_X", 1, 2}}}},
			},
		},
		{
			name: "typedefs",
			old: ir.API{Typedefs: []*ir.Typedef{typedef("CUDA_KERNEL_NODE_PARAMS", "CUDA_KERNEL_NODE_PARAMS_v1"), typedef("CUstream", "struct CUstream_st *"),
				typedef("cudaOld", "int")}},
			new: ir.API{Typedefs: []*ir.Typedef{typedef("CUDA_KERNEL_NODE_PARAMS", "CUDA_KERNEL_NODE_PARAMS_v2"), typedef("CUstream", "struct CUstream_st *"),
				typedef("CUgreenCtx", "struct CUgreenCtx_st *")}},
			got: func(r *Report) any { return r.Typedefs },
			want: Section[Typedef, TypedefChange]{
				Added:   []Typedef{{"CUgreenCtx", ir.Driver, "struct CUgreenCtx_st *"}},
				Removed: []Typedef{{"cudaOld", ir.Driver, "int"}},
				Changed: []TypedefChange{{"CUDA_KERNEL_NODE_PARAMS", ir.Driver, "CUDA_KERNEL_NODE_PARAMS_v1", "CUDA_KERNEL_NODE_PARAMS_v2"}},
			},
		},
		{
			name: "typedef of an anonymous struct that moved in the header",
			old: ir.API{Records: []*ir.Record{{Name: "CUuuid", Ref: "struct <anonymous at cuda.h:10>", Size: 16}},
				Typedefs: []*ir.Typedef{typedef("CUuuid", "struct <anonymous at cuda.h:10>")}},
			new: ir.API{Records: []*ir.Record{{Name: "CUuuid", Ref: "struct <anonymous at cuda.h:20>", Size: 16}},
				Typedefs: []*ir.Typedef{typedef("CUuuid", "struct <anonymous at cuda.h:20>")}},
			got:  func(r *Report) any { return r.Typedefs.Changed },
			want: []TypedefChange{},
		},
		{
			name: "macros",
			old:  ir.API{Macros: []*ir.Macro{macro("CUDA_VERSION", "11080"), macro("CU_IPC_HANDLE_SIZE", "64"), macro("cudaDeviceMask", "31"), macro("CU_GONE", "1")}},
			new: ir.API{Macros: []*ir.Macro{macro("CUDA_VERSION", "12040"), macro("CU_IPC_HANDLE_SIZE", "64"), macro("CU_NEW", "2"),
				with(macro("cudaDeviceMask", "31"), func(m *ir.Macro) { m.CType = "unsigned int" })}},
			got: func(r *Report) any { return r.Macros },
			want: Section[Macro, MacroChange]{
				Added:   []Macro{{"CU_NEW", ir.Driver, "2", "int"}},
				Removed: []Macro{{"CU_GONE", ir.Driver, "1", "int"}},
				Changed: []MacroChange{
					{Name: "CUDA_VERSION", Library: ir.Driver, Old: "11080", New: "12040"},
					{Name: "cudaDeviceMask", Library: ir.Driver, Old: "31", New: "31", OldCType: "int", NewCType: "unsigned int"},
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Compare(&tt.old, &tt.new)
			if got := tt.got(r); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%s\nwant\n%s", jsonOf(t, got), jsonOf(t, tt.want))
			}
			// Nothing else changed: the summary counts only the case's section.
			want := Compare(&tt.old, &tt.new).Summary
			if !reflect.DeepEqual(r.Summary, want) {
				t.Errorf("summary not deterministic: %+v vs %+v", r.Summary, want)
			}
			if n := total(r.Summary) - total(summaryOfPart(tt.got(r))); n != 0 {
				t.Errorf("%d changes outside the case's section: %s", n, jsonOf(t, r.Summary))
			}
		})
	}
}

func total(s Summary) int {
	n := 0
	for _, c := range []Counts{s.Functions, s.Records, s.Enums, s.Typedefs, s.Macros} {
		n += c.Added + c.Removed + c.Changed
	}
	return n
}

// summaryOfPart counts the items in what a test case's got returned.
func summaryOfPart(part any) Summary {
	v := reflect.ValueOf(part)
	n := 0
	switch v.Kind() {
	case reflect.Slice:
		n = v.Len()
	case reflect.Struct:
		for i := range v.NumField() {
			n += v.Field(i).Len()
		}
	}
	return Summary{Functions: Counts{Changed: n}}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCompareNil(t *testing.T) {
	r := Compare(nil, &ir.API{CUDAVersion: 12040, Macros: []*ir.Macro{macro("CUDA_VERSION", "12040")}})
	if r.Summary.Macros != (Counts{Added: 1}) || r.OldVersion != 0 || r.NewVersion != 12040 {
		t.Errorf("Compare(nil, api) = %+v", r)
	}
}

func TestJSON(t *testing.T) {
	old := &ir.API{CUDAVersion: 11080, Functions: []*ir.Function{fn("cuB", "cuB"), fn("cuA", "cuA")}}
	new := &ir.API{CUDAVersion: 12040, Functions: []*ir.Function{fn("cuA", "cuA_v2"), fn("cuC", "cuC")}}
	b1, err := json.Marshal(Compare(old, new))
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(Compare(old, new))
	if !bytes.Equal(b1, b2) {
		t.Fatal("two Compares encode differently")
	}
	want := `{"old_version":11080,"new_version":12040,` +
		`"summary":{"functions":{"added":1,"removed":1,"changed":1},"records":{"added":0,"removed":0,"changed":0},` +
		`"enums":{"added":0,"removed":0,"changed":0},"typedefs":{"added":0,"removed":0,"changed":0},"macros":{"added":0,"removed":0,"changed":0}},` +
		`"functions":{"added":[{"name":"cuC","library":"driver","symbol":"cuC"}],"removed":[{"name":"cuB","library":"driver","symbol":"cuB"}],` +
		`"changed":[{"name":"cuA","library":"driver","changes":[{"what":"symbol","old":"cuA","new":"cuA_v2"}]}]},` +
		`"records":{"added":[],"removed":[],"changed":[]},"enums":{"added":[],"removed":[],"changed":[]},` +
		`"typedefs":{"added":[],"removed":[],"changed":[]},"macros":{"added":[],"removed":[],"changed":[]}}`
	if string(b1) != want {
		t.Errorf("JSON:\n%s\nwant\n%s", b1, want)
	}
}

func TestWriteText(t *testing.T) {
	old := &ir.API{
		CUDAVersion: 11080,
		Functions:   []*ir.Function{fn("cuCtxCreate", "cuCtxCreate_v2", param("pctx", "CUcontext *")), fn("cuGone", "cuGone")},
		Records:     []*ir.Record{rec("cudaDeviceProp", 728, field("major", "int", 0), field("minor", "int", 4))},
		Enums:       []*ir.Enum{enum("CUlimit", ev("CU_LIMIT_MAX", 7))},
		Typedefs:    []*ir.Typedef{typedef("CUDA_KERNEL_NODE_PARAMS", "CUDA_KERNEL_NODE_PARAMS_v1")},
		Macros:      []*ir.Macro{macro("CUDA_VERSION", "11080")},
	}
	new := &ir.API{
		CUDAVersion: 12040,
		Functions: []*ir.Function{
			with(fn("cuCtxCreate", "cuCtxCreate_v4", param("pctx", "CUcontext *")), func(f *ir.Function) { f.Deprecated = true }),
			fn("cuLibraryLoadData", "cuLibraryLoadData")},
		Records: []*ir.Record{
			rec("cudaDeviceProp", 1032, field("major", "int", 0), field("uuid", "cudaUUID_t", 4), field("minor", "int", 20)),
			{Name: "CUlib_st", Ref: "struct CUlib_st", Opaque: true, Library: ir.Driver}},
		Enums:    []*ir.Enum{enum("CUlimit", ev("CU_LIMIT_SHMEM_SIZE", 7), ev("CU_LIMIT_MAX", 8))},
		Typedefs: []*ir.Typedef{typedef("CUDA_KERNEL_NODE_PARAMS", "CUDA_KERNEL_NODE_PARAMS_v2")},
		Macros:   []*ir.Macro{macro("CUDA_VERSION", "12040"), macro("CU_NEW", "1")},
	}
	var b strings.Builder
	if err := Compare(old, new).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `CUDA 11.8 -> 12.4: functions +1 -1 ~1, records +1 -0 ~1, enums +0 -0 ~1, typedefs +0 -0 ~1, macros +1 -0 ~1

functions added (1):
  + cuLibraryLoadData (driver, cuLibraryLoadData)

functions removed (1):
  - cuGone (driver, cuGone)

functions changed (1):
  ~ cuCtxCreate (driver)
      symbol: cuCtxCreate_v2 -> cuCtxCreate_v4
      deprecated: false -> true

records added (1):
  + CUlib_st (driver, opaque struct)

records changed (1):
  ~ cudaDeviceProp (runtime)
      size: 728 -> 1032
      + field uuid cudaUUID_t at 4
      ~ field minor moved: 4 -> 20

enums changed (1):
  ~ CUlimit (driver)
      + CU_LIMIT_SHMEM_SIZE = 7
      ~ CU_LIMIT_MAX = 7 -> 8

typedefs changed (1):
  ~ CUDA_KERNEL_NODE_PARAMS (driver): CUDA_KERNEL_NODE_PARAMS_v1 -> CUDA_KERNEL_NODE_PARAMS_v2

macros added (1):
  + CU_NEW = 1 (driver, int)

macros changed (1):
  ~ CUDA_VERSION (driver): 11080 -> 12040
`
	if got := b.String(); got != want {
		t.Errorf("WriteText:\n%s\nwant\n%s", got, want)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errWrite }

var errWrite = errors.New("write failed")

func TestWriteTextError(t *testing.T) {
	if err := Compare(nil, nil).WriteText(failWriter{}); err != errWrite {
		t.Errorf("WriteText to a failing writer = %v, want %v", err, errWrite)
	}
}
