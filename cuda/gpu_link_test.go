package cuda

import (
	"errors"
	"strings"
	"testing"
)

// linkCallerPTX calls twice(), which linkCalleePTX defines: neither loads
// alone, the JIT linker joins them.
const linkCallerPTX = `
.version 7.0
.target sm_52
.address_size 64

.extern .func (.param .b32 r) twice(.param .b32 x);

.visible .entry callTwice(.param .u64 p)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [p];
	cvta.to.global.u64 %rd2, %rd1;
	ld.global.u32 %r1, [%rd2];
	{
	.param .b32 a0;
	st.param.b32 [a0], %r1;
	.param .b32 r0;
	call.uni (r0), twice, (a0);
	ld.param.b32 %r2, [r0];
	}
	st.global.u32 [%rd2], %r2;
	ret;
}
`

const linkCalleePTX = `
.version 7.0
.target sm_52
.address_size 64

.visible .func (.param .b32 r) twice(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [x];
	add.s32 %r2, %r1, %r1;
	st.param.b32 [r], %r2;
	ret;
}
`

// TestGPULinkPTX links two PTX inputs with the driver's JIT linker, loads
// the cubin and runs it; the caller alone is a *LinkError whose error log
// names the undefined function.
func TestGPULinkPTX(t *testing.T) {
	c := gpuContext(t)
	got, err := c.Link([]LinkInput{{Data: []byte(linkCallerPTX)}, {Kind: LinkPTX, Data: []byte(linkCalleePTX), Name: "callee.ptx"}},
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
	m, err := c.LoadModule(got.Image)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	k, err := m.Kernel("callTwice")
	if err != nil {
		t.Fatal(err)
	}
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

	_, err = c.Link([]LinkInput{{Data: []byte(linkCallerPTX), Name: "caller.ptx"}}, LinkOptions{})
	var le *LinkError
	if !errors.As(err, &le) {
		t.Fatalf("the caller alone: %v, want a *LinkError", err)
	}
	t.Logf("the caller alone: %v", err)
	if !strings.Contains(le.ErrorLog, "twice") || !strings.Contains(err.Error(), le.ErrorLog) {
		t.Fatalf("the error log %q does not name twice, or Error() lacks it", le.ErrorLog)
	}
}
