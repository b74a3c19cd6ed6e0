package emit

import (
	"strings"
	"testing"

	"github.com/cugen/cugen/library"
)

const nonNullHeader = `#include "cuda.h"
typedef enum nnStatus { NN_SUCCESS = 0, NN_ERROR_INVALID = 7 } nnStatus;
typedef struct nnSub_st *nnSub_t;
nnStatus nnCreate(nnSub_t *sub);
nnStatus nnEnable(int on, nnSub_t sub);
/**
 * \brief Gets the state
 * \param on - Returned state
 * \param sub - The subscriber
 */
nnStatus nnState(int *on, nnSub_t sub);
`

func generateNonNull(t *testing.T, status string) (map[string]string, error) {
	t.Helper()
	nn := &library.Desc{Key: "nn", API: "nn", Title: "NN", Package: "nn", Include: []string{"nn.h"}, Declare: []string{"nn.h"},
		Prefixes: []string{"NN_", "nn"}, Status: "nnStatus",
		Overrides: library.Overrides{NonNullHandles: map[string]library.NonNullHandle{"nnSub_t": {Status: status, Why: "nn crashes on NULL"}}},
		Load:      library.Load{Name: "NN %d", Files: map[int][]string{12: {"libnn.so.1"}}, Identify: "nnCreate"}}
	return generateBesideDriver(t, nn, nonNullHeader)
}

// TestNonNullHandles: a handle typedef listed in NonNullHandles makes
// every wrapper taking it by value return the rule's status for zero
// before it loads the symbol (an unnamed error result and a named one),
// with an audit line and a doc sentence each; the output parameter of the
// creator is not guarded. A status the headers do not declare is an
// error naming the rule, not a package that does not compile.
func TestNonNullHandles(t *testing.T) {
	files, err := generateNonNull(t, "NN_ERROR_INVALID")
	if err != nil {
		t.Fatal(err)
	}
	funcs, audit := files["funcs.go"], files["audit.txt"]
	for _, want := range []string{
		"func Enable(on int32, sub Sub) error {\n\tif sub == 0 {\n\t\treturn ffiimpl.Error(procEnable, ErrorInvalid)\n\t}\n\tsym, err := procEnable.Addr()",
		"if sub == 0 {\n\t\terr = ffiimpl.Error(procState, ErrorInvalid)\n\t\treturn\n\t}\n\tsym, err := procState.Addr()",
		"A zero sub returns [ErrorInvalid], the status the header",
	} {
		if !strings.Contains(funcs, want) {
			t.Errorf("funcs.go lacks %q:\n%s", want, funcs)
		}
	}
	if strings.Count(funcs, "== 0 {") != 2 {
		t.Errorf("funcs.go guards %d parameters, want 2 (nnEnable, nnState)", strings.Count(funcs, "== 0 {"))
	}
	for _, fn := range []string{"nnEnable", "nnState"} {
		if !strings.Contains(audit, "nonnull "+fn+".sub: a zero nnSub_t returns NN_ERROR_INVALID before the call (NonNullHandles: nn crashes on NULL)\n") {
			t.Errorf("audit.txt has no nonnull line for %s:\n%s", fn, audit)
		}
	}
	if _, err := generateNonNull(t, "NN_ERROR_NOPE"); err == nil || !strings.Contains(err.Error(), "NonNullHandles[nnSub_t]: status NN_ERROR_NOPE") {
		t.Errorf("a rule with an undeclared status: %v, want an error naming it", err)
	}
}
