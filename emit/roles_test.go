package emit

import (
	"slices"
	"testing"

	"github.com/cugen/cugen/parser/ir"
)

// TestClassifyRoles checks classify, the pure step that decides each
// parameter's role from the C function and the library's overrides
// (library.Driver's here), and paramAudit, which renders the audit lines
// from those roles. classify must leave the model as it found it.
func TestClassifyRoles(t *testing.T) {
	m, api := parseSnippet(t, `
typedef struct CUstream_st *CUstream;
typedef unsigned long long (*CUoccupancyB2DSize)(int blockSize);
/**
 * \param[out] device - Returned device handle
 * \param ordinal - Device number
 */
CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal);
CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult CUDAAPI cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);
CUresult CUDAAPI cuOccupancyMaxPotentialBlockSize(CUoccupancyB2DSize blockSizeToDynamicSMemSize, float scale, const char *label, CUmixed v);
CUresult CUDAAPI cuRawHostFn(CUhostFn fn, void *userData, CUcontext ctx, CUmemLocationType t);
`)
	rows := []struct {
		fn    string
		roles []paramRole
		lives []cbLife // per parameter, where a role keeps a Go func
		audit []string
	}{
		{"cuDeviceGet", []paramRole{roleOut, roleValue}, nil,
			[]string{"out cuDeviceGet.device: result (documented \\param[out])"}},
		{"cuDeviceGetName", []paramRole{roleOutBuffer, roleBufferLen, roleValue}, nil,
			[]string{
				"array cuDeviceGetName.name: len elements, a pointer to the first (count in parameter len)",
				"out cuDeviceGetName.name: string result from a 256-byte buffer (length len)",
			}},
		// The snippet lacks the capture API (m.graph is nil): a one-shot
		// callback, not capture-retained.
		{"cuLaunchHostFunc", []paramRole{roleValue, roleCallback, roleUserData}, []cbLife{0, lifeOnce, 0},
			[]string{"callback cuLaunchHostFunc.fn: Go func through one static trampoline and ffiimpl's handle table (the host function runs once when the stream reaches it); nil: NULL, no handle; lifetime: one-shot"}},
		{"cuOccupancyMaxPotentialBlockSize", []paramRole{roleCallbackSync, roleFloat, roleString, roleStruct}, []cbLife{lifeSync, 0, 0, 0},
			[]string{"callback cuOccupancyMaxPotentialBlockSize.blockSizeToDynamicSMemSize: Go func held by the call's ffiimpl.CallbackScope (the block-size-to-shared-memory function is called during the computation); nil: NULL; lifetime: synchronous (the call only; reentrant)"}},
		// Not in the overrides: the function pointer stays a C value.
		{"cuRawHostFn", []paramRole{roleValue, rolePointer, roleValue, roleValue}, nil,
			[]string{"callback cuRawHostFn.fn: C function pointer parameter (not a one-shot callback; make one with ffiimpl.Callback); nil: 0 is NULL; lifetime: the caller's"}},
	}
	for _, r := range rows {
		fn := funcNamed(t, api, r.fn)
		before, graph := len(m.audit), m.graph
		ps, err := m.classify(fn)
		if err != nil {
			t.Fatalf("%s: %v", r.fn, err)
		}
		if len(m.audit) != before || m.graph != graph {
			t.Errorf("%s: classify changed the model", r.fn)
		}
		var roles []paramRole
		var lives []cbLife
		for _, p := range ps {
			roles = append(roles, p.role)
			lives = append(lives, p.life)
		}
		if !slices.Equal(roles, r.roles) {
			t.Errorf("%s: roles %v, want %v", r.fn, roles, r.roles)
		}
		if r.lives != nil && !slices.Equal(lives, r.lives) {
			t.Errorf("%s: lifetimes %v, want %v", r.fn, lives, r.lives)
		}
		if got := m.paramAudit(fn, ps); !slices.Equal(got, r.audit) {
			t.Errorf("%s: audit\n%q\nwant\n%q", r.fn, got, r.audit)
		}
		if g := glueOf(ps); g != (glue{}) {
			t.Errorf("%s: glue %+v, want none", r.fn, g)
		}
	}
}

// TestRecordAudit checks the audit lines recordAudit derives for a
// struct's members that structFields keeps as padding (the header sets
// have no bitfield, so the regenerated trees do not show this one).
func TestRecordAudit(t *testing.T) {
	m, api := parseSnippet(t, `
typedef struct CUbits_st { unsigned int lo : 3; unsigned int hi : 5; int _reserved; struct { int inner; }; int last; } CUbits;
CUresult CUDAAPI cuBits(CUbits *p);
`)
	var r *ir.Record
	for _, x := range api.Records {
		if x.Name == "CUbits" {
			r = x
		}
	}
	if r == nil {
		t.Fatal("no record CUbits in the IR")
	}
	want := []string{
		"layout " + r.Name + ".lo: bitfield of 3 bits kept as padding",
		"layout " + r.Name + ".hi: bitfield of 5 bits kept as padding",
		"layout " + r.Name + "._reserved: reserved member kept as padding",
	}
	if got := m.recordAudit(r); !slices.Equal(got, want) {
		t.Errorf("recordAudit:\n%q\nwant\n%q", got, want)
	}
}
