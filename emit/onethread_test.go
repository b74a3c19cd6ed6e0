package emit

import (
	"strings"
	"testing"

	"github.com/cugen/cugen/library"
)

// generateOneThread generates package ot from header with OneThread set
// and returns its files, or Generate's error.
func generateOneThread(t *testing.T, header string, ov library.Overrides) (map[string]string, error) {
	t.Helper()
	ot := &library.Desc{Key: "ot", API: "ot", Title: "OT", Package: "ot", Include: []string{"ot.h"}, Declare: []string{"ot.h"},
		Prefixes: []string{"OT_", "ot"}, Status: "otStatus", OneThread: "ot keeps its state per thread", Overrides: ov,
		Load: library.Load{Name: "OT %d", Files: map[int][]string{12: {"libot.so.1"}}, Identify: "otCreate"}}
	return generateBesideDriver(t, ot, header)
}

// TestOneThread: in a OneThread library every C call, a register call, a
// Frame call (a double argument) and both calls of a size-then-buffer
// pair, is made inside libThread.Run with its arguments evaluated there,
// and the package documentation and audit say why.
func TestOneThread(t *testing.T) {
	files, err := generateOneThread(t, `typedef enum otStatus { OT_SUCCESS = 0, OT_ERROR = 1 } otStatus;
typedef struct otH_st *otH;
otStatus otCreate(otH *h);
otStatus otScale(otH h, double s);
/**
 * \param h - the handle
 * \param size - Returned size of the log
 */
otStatus otGetLogSize(otH h, size_t *size);
/**
 * \param h - the handle
 * \param log - the log
 */
otStatus otGetLog(otH h, char *log);
`, library.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	funcs := files["funcs.go"]
	for _, want := range []string{
		"libThread.Run(func() {\n\t\tr = ffiimpl.CallInts(sym, uintptr(unsafe.Pointer(&h)),",
		"libThread.Run(func() {\n\t\tframe.Int(uintptr(h))\n\t\tframe.Float64(float64(s))\n\t\tffiimpl.Call(sym, &frame)\n\t})",
		"libThread.Run(func() {\n\t\tr = ffiimpl.CallInts(sizeSym,",
		"libThread.Run(func() {\n\t\tr = ffiimpl.CallInts(sym, uintptr(h), uintptr(unsafe.Pointer(&buf[0]))",
	} {
		if !strings.Contains(funcs, want) {
			t.Errorf("funcs.go lacks %q:\n%s", want, funcs)
		}
	}
	if n, runs := strings.Count(funcs, "ffiimpl.Call"), strings.Count(funcs, "libThread.Run("); n != runs {
		t.Errorf("%d C calls, %d inside libThread.Run", n, runs)
	}
	if !strings.Contains(files["load.go"], "var libThread ffiimpl.Thread") {
		t.Errorf("load.go does not declare libThread:\n%s", files["load.go"])
	}
	if doc := strings.ReplaceAll(files["doc.go"], "\n// ", " "); !strings.Contains(doc, "The reason: ot keeps its state per thread.") {
		t.Errorf("doc.go does not give the reason:\n%s", files["doc.go"])
	}
	if !strings.Contains(files["audit.txt"], "thread: every C call runs on the package's one OS thread (libThread.Run): ot keeps its state per thread\n") {
		t.Errorf("audit.txt lacks the thread line:\n%s", files["audit.txt"])
	}
}

// TestOneThreadRefusesCallbacks: a callback of a OneThread library could
// call the library again from inside libThread.Run, which would wait for
// itself: generation fails, naming the function and parameter.
func TestOneThreadRefusesCallbacks(t *testing.T) {
	_, err := generateOneThread(t, `typedef enum otStatus { OT_SUCCESS = 0, OT_ERROR = 1 } otStatus;
typedef void (*otCallback)(void *userData);
otStatus otCreate(otCallback fn, void *userData);
`, library.Overrides{OneShotCallbacks: map[string]string{"otCreate": "called once"}})
	if err == nil || !strings.Contains(err.Error(), "otCreate: parameter fn takes a Go callback") || !strings.Contains(err.Error(), "ot.h:3") {
		t.Fatalf("Generate = %v, want the refusal naming ot.h:3, otCreate and fn", err)
	}
}
