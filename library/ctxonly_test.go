package library

import "testing"

// TestUnboundCtxOnly: NPP's rule for CUDA 13 (CtxOnly) leaves out a
// function whose _Ctx twin the headers declare, unless that twin is
// itself Unexported (nppiEvenLevelsHost_32s_Ctx: libnppist.so.13.0.1
// exports the plain form only); never in CUDA 12, never a _Ctx form or a
// function without a twin, never a library without the rule.
func TestUnboundCtxOnly(t *testing.T) {
	declared := func(s string) bool {
		switch s {
		case "nppiAdd_8u_C1RSfs_Ctx", "nppiEvenLevelsHost_32s_Ctx", "nppiSub_32s_C4RSfs_Ctx":
			return true
		}
		return false
	}
	for _, c := range []struct {
		d     *Desc
		major int
		sym   string
		want  bool
	}{
		{NPPIAL, 13, "nppiAdd_8u_C1RSfs", true},
		{NPPIAL, 12, "nppiAdd_8u_C1RSfs", false},
		{NPPIAL, 13, "nppiAdd_8u_C1RSfs_Ctx", false},
		{NPPIAL, 13, "nppiAnd_8u_C1R", false},         // no twin declared
		{NPPIAL, 13, "nppiSub_32s_C4RSfs", false},     // the twin is Unexported
		{NPPIST, 13, "nppiEvenLevelsHost_32s", false}, // the twin is Unexported
		{CuSOLVERMg, 13, "nppiAdd_8u_C1RSfs", false},  // no rule
	} {
		why, got := c.d.Unbound(c.major, c.sym, declared)
		if got != c.want || got != (why != "") {
			t.Errorf("%s.Unbound(%d, %s) = %q, %v; want %v", c.d.Key, c.major, c.sym, why, got, c.want)
		}
	}
}
