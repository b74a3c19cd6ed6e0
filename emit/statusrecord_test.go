package emit

import (
	"strings"
	"testing"

	"github.com/cugen/cugen/library"
)

// statusHeader is a library returning its status in a struct, as cuFile
// returns CUfileError_t {err, cu_err}.
const statusHeader = `#include "cuda.h"
typedef enum fxOpError { FX_SUCCESS = 0, FX_DRIVER_ERROR = 5011 } fxOpError;
typedef struct fxError { fxOpError err; CUresult cu_err; } fxError_t;
typedef struct fxHandle_st *fxHandle_t;
/**
 * \brief Opens the driver
 */
fxError_t fxDriverOpen(void);
/**
 * \brief Gets the version
 * \param version - Returned version
 */
fxError_t fxGetVersion(int *version);
/**
 * \brief Reads
 */
long fxRead(fxHandle_t h, void *buf, size_t n);
`

func statusRecordDesc(sr *library.StatusRecord) *library.Desc {
	return &library.Desc{Key: "fx", API: "fx", Title: "FX", Package: "fx", Include: []string{"fx.h"}, Declare: []string{"fx.h"},
		Prefixes: []string{"FX_", "fx"}, Status: "fxOpError", StatusRecord: sr,
		Load: library.Load{Name: "FX %d", Files: map[int][]string{12: {"libfx.so.0"}}, Identify: "fxDriverOpen"}}
}

func generateStatusRecord(t *testing.T, sr *library.StatusRecord) (map[string]string, error) {
	t.Helper()
	return generateBesideDriver(t, statusRecordDesc(sr), statusHeader)
}

// TestStatusRecord: a library that returns its status in a struct
// (library.Desc.StatusRecord, cuFile's CUfileError_t) gets wrappers that
// return an error, nil when the status member is zero, the struct as an
// *ffi.CallError's Code; the struct is an error unwrapping to both
// statuses; each function says so in the audit. A function returning
// something else keeps its result. Before the rule the wrappers returned
// the raw struct (ret Error), never an error.
func TestStatusRecord(t *testing.T) {
	files, err := generateStatusRecord(t, &library.StatusRecord{Type: "fxError_t", Field: "err", Cause: "cu_err", Why: "fx.h: the status struct"})
	if err != nil {
		t.Fatal(err)
	}
	funcs, errs, audit := files["funcs.go"], files["errors.go"], files["audit.txt"]
	for _, want := range []string{
		"func DriverOpen() error {",
		"\tvar rs Error\n\tframe.StructResult(unsafe.Pointer(&rs), &layoutError)",
		"frame.RetStruct(unsafe.Pointer(&rs), &layoutError)\n\treturn statusError(procDriverOpen, rs)\n}",
		"func GetVersion() (version int32, err error) {",
		"return version, statusError(procGetVersion, rs)",
		"func Read(h Handle, buf unsafe.Pointer, n uint64) (ret int64) {",
	} {
		if !strings.Contains(funcs, want) {
			t.Errorf("funcs.go lacks %q", want)
		}
	}
	if strings.Contains(funcs, "(ret Error)") {
		t.Error("a wrapper still returns the status struct")
	}
	for _, want := range []string{
		"func (r Error) Error() string {\n\ts := r.Err.Error()\n\tif r.Cu_err != 0 {\n\t\ts += \" (\" + r.Cu_err.Error() + \")\"",
		"func (r Error) Unwrap() []error {\n\tif r.Cu_err != 0 {\n\t\treturn []error{r.Err, r.Cu_err}",
		"func statusError(p *ffiimpl.Proc, r Error) error {\n\tif r.Err == 0 {\n\t\treturn nil\n\t}\n\treturn &ffi.CallError{",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("errors.go lacks %q:\n%s", want, errs)
		}
	}
	for _, fn := range []string{"fxDriverOpen", "fxGetVersion"} {
		if !strings.Contains(audit, "status "+fn+": the fxError_t result is an error, nil when err is zero (StatusRecord: fx.h: the status struct)") {
			t.Errorf("audit.txt has no status line for %s:\n%s", fn, audit)
		}
	}
	if strings.Contains(audit, "status fxRead") {
		t.Error("audit.txt: fxRead does not return the status struct")
	}

	// A rule that names what the headers lack fails, naming it.
	for _, c := range []struct {
		sr   *library.StatusRecord
		want string
	}{
		{&library.StatusRecord{Type: "fxNoSuch_t", Field: "err", Why: "w"}, "no struct fxNoSuch_t"},
		{&library.StatusRecord{Type: "fxError_t", Field: "code", Why: "w"}, "struct fxError_t has no member code"},
		{&library.StatusRecord{Type: "fxError_t", Field: "cu_err", Why: "w"}, "fxError_t.cu_err is CUresult, not the status type fxOpError"},
		{&library.StatusRecord{Type: "fxError_t", Field: "err"}, "a StatusRecord needs Status, its Type, Field and Why"},
	} {
		if _, err := generateStatusRecord(t, c.sr); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("StatusRecord %+v: %v, want %q", *c.sr, err, c.want)
		}
	}
}
