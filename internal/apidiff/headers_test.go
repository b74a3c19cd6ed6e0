package apidiff_test

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cugen/cugen/internal/apidiff"
	"github.com/cugen/cugen/internal/testset"
	"github.com/cugen/cugen/parser"
	"github.com/cugen/cugen/parser/ir"
)

// The facts below were checked against the headers themselves: layouts by
// compiling sizeof/offsetof with gcc against each set's include directory,
// names and values with grep (see the report of the change that added them).

var parsed struct {
	sync.Mutex
	apis map[string]*ir.API
}

// parseSet parses a locked header set from the cache; it never fetches,
// and where the set is not there the test skips naming make's targets
// (testset.Dir).
func parseSet(t *testing.T, set string) *ir.API {
	t.Helper()
	parsed.Lock()
	defer parsed.Unlock()
	if api := parsed.apis[set]; api != nil {
		return api
	}
	api, err := parser.Parse(testset.Dir(t, set))
	if err != nil {
		t.Fatal(err)
	}
	if parsed.apis == nil {
		parsed.apis = map[string]*ir.API{}
	}
	parsed.apis[set] = api
	return api
}

func find[T any](t *testing.T, items []T, name func(T) string, want string) T {
	t.Helper()
	i := slices.IndexFunc(items, func(x T) bool { return name(x) == want })
	if i < 0 {
		var zero T
		t.Errorf("%s not found", want)
		return zero
	}
	return items[i]
}

func funcName(f apidiff.Func) string                 { return f.Name }
func funcChangeName(f apidiff.FuncChange) string     { return f.Name }
func recordChangeName(r apidiff.RecordChange) string { return r.Name }
func enumChangeName(e apidiff.EnumChange) string     { return e.Name }
func macroChangeName(m apidiff.MacroChange) string   { return m.Name }

func hasChange(t *testing.T, what string, cs []apidiff.Change, want apidiff.Change) {
	t.Helper()
	if !slices.Contains(cs, want) {
		t.Errorf("%s: no change %+v in %+v", what, want, cs)
	}
}

func hasField(t *testing.T, rc apidiff.RecordChange, want apidiff.FieldChange) {
	t.Helper()
	ok := slices.ContainsFunc(rc.Fields, func(f apidiff.FieldChange) bool {
		return f.Name == want.Name && f.What == want.What &&
			(want.Old == nil || f.Old != nil && *f.Old == *want.Old) &&
			(want.New == nil || f.New != nil && *f.New == *want.New)
	})
	if !ok {
		t.Errorf("%s: no field change %s %s (old %+v new %+v)", rc.Name, want.What, want.Name, want.Old, want.New)
	}
}

func TestHeaders118To124(t *testing.T) {
	r := apidiff.Compare(parseSet(t, "11.8"), parseSet(t, "12.4"))

	// cuLibraryLoadData (CUDA 12.0) is declared in 12.4's cuda.h only.
	if f := find(t, r.Functions.Added, funcName, "cuLibraryLoadData"); f != (apidiff.Func{Name: "cuLibraryLoadData", Library: ir.Driver, Symbol: "cuLibraryLoadData"}) {
		t.Errorf("cuLibraryLoadData added as %+v", f)
	}
	// cudaBindTexture (texture references) was removed in 12.0.
	find(t, r.Functions.Removed, funcName, "cudaBindTexture")
	// cuda_runtime_api.h 12.4: #define cudaGetDeviceProperties cudaGetDeviceProperties_v2.
	hasChange(t, "cudaGetDeviceProperties", find(t, r.Functions.Changed, funcChangeName, "cudaGetDeviceProperties").Changes,
		apidiff.Change{What: "symbol", Old: "cudaGetDeviceProperties", New: "cudaGetDeviceProperties_v2"})
	// cuGetProcAddress_v2 has a fifth parameter, symbolStatus.
	gpa := find(t, r.Functions.Changed, funcChangeName, "cuGetProcAddress").Changes
	hasChange(t, "cuGetProcAddress", gpa, apidiff.Change{What: "symbol", Old: "cuGetProcAddress", New: "cuGetProcAddress_v2"})
	hasChange(t, "cuGetProcAddress", gpa, apidiff.Change{What: "param_count", Old: "4", New: "5"})
	// The per-thread variant follows the new symbol.
	hasChange(t, "cuStreamWaitValue32", find(t, r.Functions.Changed, funcChangeName, "cuStreamWaitValue32").Changes,
		apidiff.Change{What: "per_thread_symbol", Old: "cuStreamWaitValue32_ptsz", New: "cuStreamWaitValue32_v2_ptsz"})
	// cuCtxCreate is cuCtxCreate_v2 in both.
	if slices.ContainsFunc(r.Functions.Changed, func(f apidiff.FuncChange) bool { return f.Name == "cuCtxCreate" }) {
		t.Error("cuCtxCreate reported changed")
	}

	// gcc: sizeof(struct cudaDeviceProp) is 728 with 11.8, 1032 with 12.4;
	// 12.4 appends hostRegisterSupported at 728 ... reserved[60] at 792.
	prop := find(t, r.Records.Changed, recordChangeName, "cudaDeviceProp")
	hasChange(t, "cudaDeviceProp", prop.Changes, apidiff.Change{What: "size", Old: "728", New: "1032"})
	hasField(t, prop, apidiff.FieldChange{Name: "hostRegisterSupported", What: apidiff.FieldAdded, New: &apidiff.Field{Type: "int", Offset: 728}})
	hasField(t, prop, apidiff.FieldChange{Name: "reserved", What: apidiff.FieldAdded, New: &apidiff.Field{Type: "int[60]", Offset: 792}})
	if n := len(prop.Fields); n != 16 { // only appended fields: nothing moved
		t.Errorf("cudaDeviceProp: %d field changes, want 16", n)
	}
	// gcc: CUmemPoolProps gained maxSize at 24, reserved moved 24 -> 32 and
	// shrank from 64 to 56 bytes; the size stayed 88.
	pool := find(t, r.Records.Changed, recordChangeName, "CUmemPoolProps_v1")
	if len(pool.Changes) != 0 {
		t.Errorf("CUmemPoolProps_v1: %+v, want the same size and alignment", pool.Changes)
	}
	hasField(t, pool, apidiff.FieldChange{Name: "maxSize", What: apidiff.FieldAdded, New: &apidiff.Field{Type: "size_t", Offset: 24}})
	hasField(t, pool, apidiff.FieldChange{Name: "reserved", What: apidiff.FieldMoved,
		Old: &apidiff.Field{Type: "unsigned char[64]", Offset: 24}, New: &apidiff.Field{Type: "unsigned char[56]", Offset: 32}})
	hasField(t, pool, apidiff.FieldChange{Name: "reserved", What: apidiff.FieldType})
	// Anonymous records are matched by place, not header line: the
	// external-memory handle union (cuda.h:2798 in 11.8, 3474 in 12.4) and
	// its win32 struct did not change, and no name mentions a line.
	for _, rs := range [][]apidiff.Record{r.Records.Added, r.Records.Removed} {
		for _, x := range rs {
			if strings.Contains(x.Name, "<anonymous") || strings.HasPrefix(x.Name, "CUDA_EXTERNAL_MEMORY_HANDLE_DESC") {
				t.Errorf("%s reported added or removed", x.Name)
			}
		}
	}

	// CUDA 12.3's CUasyncNotificationInfo: struct { ...; union { struct {
	// ... } overBudget; } info; }, its anonymous records named by place.
	for _, name := range []string{"CUasyncNotificationInfo", "CUasyncNotificationInfo.info", "CUasyncNotificationInfo.info.overBudget"} {
		if !slices.ContainsFunc(r.Records.Added, func(x apidiff.Record) bool { return x.Name == name }) {
			t.Errorf("record %s not added", name)
		}
	}

	// gcc: CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS is 93 in 11.8
	// and 122 in 12.4; CU_DEVICE_ATTRIBUTE_MAX 125 -> 135.
	attr := find(t, r.Enums.Changed, enumChangeName, "CUdevice_attribute")
	for _, want := range []apidiff.Renumber{
		{Name: "CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS", Old: 93, New: 122},
		{Name: "CU_DEVICE_ATTRIBUTE_MAX", Old: 125, New: 135},
	} {
		if !slices.Contains(attr.Renumbered, want) {
			t.Errorf("CUdevice_attribute: %+v not in %+v", want, attr.Renumbered)
		}
	}

	// cuda.h: #define CUDA_VERSION 11080 / 12040.
	if m := find(t, r.Macros.Changed, macroChangeName, "CUDA_VERSION"); m.Old != "11080" || m.New != "12040" {
		t.Errorf("CUDA_VERSION: %+v", m)
	}
	if r.OldVersion != 11080 || r.NewVersion != 12040 {
		t.Errorf("versions %d -> %d", r.OldVersion, r.NewVersion)
	}

	// Deterministic: a second comparison encodes to the same bytes.
	a, _ := json.Marshal(r)
	b, _ := json.Marshal(apidiff.Compare(parseSet(t, "11.8"), parseSet(t, "12.4")))
	if string(a) != string(b) {
		t.Error("two comparisons of the same sets differ")
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(text.String(), "\n"); !strings.HasPrefix(first, "CUDA 11.8 -> 12.4: functions +") {
		t.Errorf("summary line %q", first)
	}
}

func TestHeaders124To125(t *testing.T) {
	r := apidiff.Compare(parseSet(t, "12.4"), parseSet(t, "12.5"))

	// 12.5 adds cuCtxCreate_v4 as its own API name; cuCtxCreate stays _v2.
	if f := find(t, r.Functions.Added, funcName, "cuCtxCreate_v4"); f.Symbol != "cuCtxCreate_v4" {
		t.Errorf("cuCtxCreate_v4 added as %+v", f)
	}
	if slices.ContainsFunc(r.Functions.Changed, func(f apidiff.FuncChange) bool { return f.Name == "cuCtxCreate" }) {
		t.Error("cuCtxCreate reported changed")
	}
	// Nothing was removed from the API in 12.5.
	if s := r.Summary; s.Functions.Removed+s.Records.Removed+s.Enums.Removed+s.Typedefs.Removed+s.Macros.Removed != 0 {
		t.Errorf("removals in 12.4 -> 12.5: %+v", s)
	}
	// gcc: sizeof(struct cudaDeviceProp) is 1032 in both.
	if slices.ContainsFunc(r.Records.Changed, func(x apidiff.RecordChange) bool { return x.Name == "cudaDeviceProp" }) {
		t.Error("cudaDeviceProp reported changed")
	}
	// CUlaunchAttributeValue gained sharedMemCarveout (a union member at 0).
	hasField(t, find(t, r.Records.Changed, recordChangeName, "CUlaunchAttributeValue"),
		apidiff.FieldChange{Name: "sharedMemCarveout", What: apidiff.FieldAdded, New: &apidiff.Field{Type: "unsigned int", Offset: 0}})
	// gcc: CU_DEVICE_ATTRIBUTE_MAX 135 -> 136.
	attr := find(t, r.Enums.Changed, enumChangeName, "CUdevice_attribute")
	if !slices.Contains(attr.Renumbered, apidiff.Renumber{Name: "CU_DEVICE_ATTRIBUTE_MAX", Old: 135, New: 136}) {
		t.Errorf("CUdevice_attribute: %+v", attr.Renumbered)
	}
	if m := find(t, r.Macros.Changed, macroChangeName, "CUDA_VERSION"); m.Old != "12040" || m.New != "12050" {
		t.Errorf("CUDA_VERSION: %+v", m)
	}
}
