package e2e

import (
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/generated/cuda12/nvtx"
)

// TestNVTXWithoutTool: Debian's libnvtoolsext1 (NVTX v2) without a
// profiler's injection library (NVTX_INJECTION64_PATH unset): every call
// returns at once, a push or pop returns NVTX_NO_PUSH_POP_TRACKING (-2),
// a range start returns id 0 and a domain handle is NULL, as nvToolsExt.h
// documents for a tool that is not attached.
func TestNVTXWithoutTool(t *testing.T) {
	t.Setenv("NVTX_INJECTION64_PATH", "")
	cugentest.NeedLibrary(t, nvtx.SharedLibrary().Load())
	nvtx.NameOsThread(1, "main")
	nvtx.Mark("mark")
	if got := nvtx.RangePush("outer"); got != nvtx.NoPushPopTracking {
		t.Errorf("RangePush without a tool = %d, want NVTX_NO_PUSH_POP_TRACKING (%d)", got, nvtx.NoPushPopTracking)
	}
	if got := nvtx.RangePop(); got != nvtx.NoPushPopTracking {
		t.Errorf("RangePop without a tool = %d, want %d", got, nvtx.NoPushPopTracking)
	}
	if id := nvtx.RangeStart("span"); id != 0 {
		nvtx.RangeEnd(id)
		t.Errorf("RangeStart without a tool = %d, want 0", id)
	}
	if d := nvtx.DomainCreate("cugen"); d != 0 {
		nvtx.DomainDestroy(d)
		t.Errorf("DomainCreate without a tool = %#x, want NULL", d)
	}
}
