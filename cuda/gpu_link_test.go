package cuda

import (
	_ "embed"
	"errors"
	"strings"
	"testing"
)

// linkCallerPTX calls twice(), which linkCalleePTX defines: neither loads
// alone, the JIT linker joins them (ExampleContext_Link links them too).
var (
	//go:embed testdata/link/caller.ptx
	linkCallerPTX []byte
	//go:embed testdata/link/callee.ptx
	linkCalleePTX []byte
)

// callTwice loads the image linked from linkCallerPTX and linkCalleePTX
// into c (unloaded when the test ends) and returns its kernel callTwice.
func callTwice(t *testing.T, c *Context, image []byte) *Kernel {
	t.Helper()
	m, err := c.LoadModule(image)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	k, err := m.Kernel("callTwice")
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestGPULinkPTX links two PTX inputs with the driver's JIT linker, loads
// the cubin and runs it; the caller alone is a *LinkError whose error log
// names the undefined function.
func TestGPULinkPTX(t *testing.T) {
	c := gpuContext(t)
	got, err := c.Link([]LinkInput{{Data: linkCallerPTX}, {Kind: LinkPTX, Data: linkCalleePTX, Name: "callee.ptx"}},
		LinkOptions{LogVerbose: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("info log:\n%s\nwall time %v", got.InfoLog, got.WallTime)
	if got.InfoLog == "" {
		t.Error("no info log with LogVerbose")
	}
	if got.ErrorLog != "" {
		t.Errorf("an error log on success: %q", got.ErrorLog)
	}
	k := callTwice(t, c, got.Image)
	b, err := AllocFrom(c, []int32{21})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := k.Launch(Config{Grid: Dim3{1, 1, 1}, Block: Dim3{1, 1, 1}}, b); err != nil {
		t.Fatal(err)
	}
	out := make([]int32, 1)
	if err := b.CopyTo(out); err != nil || out[0] != 42 {
		t.Fatalf("callTwice(21) = %d, %v; want 42", out[0], err)
	}

	_, err = c.Link([]LinkInput{{Data: linkCallerPTX, Name: "caller.ptx"}}, LinkOptions{})
	var le *LinkError
	if !errors.As(err, &le) {
		t.Fatalf("the caller alone: %v, want a *LinkError", err)
	}
	t.Logf("the caller alone: %v", err)
	if !strings.Contains(le.ErrorLog, "twice") || !strings.Contains(err.Error(), le.ErrorLog) {
		t.Fatalf("the error log %q does not name twice, or Error() lacks it", le.ErrorLog)
	}
}
