package library

import "testing"

// TestMemoryOf: a function's row wins over a function pattern's
// ("*Cpu.x", then "*Cpu.*"), that over a name's row, a name's over a
// pattern, the longest matching pattern over a shorter one, and a pattern
// over the default row "*". "pre*" wants an upper-case letter after pre
// (Hungarian notation), "*Suf" at least one character before Suf.
func TestMemoryOf(t *testing.T) {
	o := &Overrides{Memory: map[string]MemoryRule{
		"f.pSrc": {Memory: HostMemory, Why: "f"},
		"pDst":   {Memory: HostOrDeviceMemory, Why: "name"},
		"p*":     {Memory: DeviceMemory, Why: "p"},
		"hp*":    {Memory: HostMemory, Why: "hp"},
		"*Host":  {Memory: HostMemory, Why: "Host"},
		"*":      {Memory: DeviceMemory, Why: "default"},
		"*Cpu.*": {Memory: HostMemory, Why: "a Cpu function"},
		"*Cpu.x": {Memory: HostOrDeviceMemory, Why: "a Cpu function's x"},
	}}
	for _, c := range []struct{ fn, param, key string }{
		{"f", "pSrc", "f.pSrc"},
		{"g", "pSrc", "p*"},
		{"g", "pDst", "pDst"},
		{"g", "hpBufferSize", "hp*"},
		{"g", "pListHost", "*Host"}, // longer than p*
		{"g", "hpx", "*"},           // lower case after hp: no pattern
		{"g", "pixel", "*"},
		{"g", "Host", "*"}, // nothing before Host
		{"g", "p", "*"},
		{"solveCpu", "pSrc", "*Cpu.*"}, // a function pattern wins over a name's pattern
		{"solveCpu", "pDst", "*Cpu.*"}, // and over a name's row
		{"solveCpu", "x", "*Cpu.x"},    // its own parameter's row over its *
		{"Cpu", "pSrc", "p*"},          // nothing before Cpu
		{"f", "pSrc", "f.pSrc"},
	} {
		r, key, ok := o.MemoryOf(c.fn, c.param)
		if !ok || key != c.key || r != o.Memory[c.key] {
			t.Errorf("MemoryOf(%q, %q) = %v, %q, %v; want the row %q", c.fn, c.param, r, key, ok, c.key)
		}
	}
	delete(o.Memory, "*")
	if _, key, ok := o.MemoryOf("g", "pixel"); ok {
		t.Errorf("MemoryOf(g, pixel) with no default row: row %q, want none", key)
	}
}

// TestNPPMemoryRows: each NPP library classifies by the rule of
// npp_memory.go (every p name device, planar arrays of pointers a host
// array), and its exceptions are its own: nppist's per-channel results
// are device memory, nppif's per-channel bounds host memory.
func TestNPPMemoryRows(t *testing.T) {
	for _, c := range []struct {
		d           *Desc
		fn, param   string
		mem, arrays Memory
	}{
		{NPPIST, "nppiSum_8u_C1R_Ctx", "pSum", DeviceMemory, HostMemory},
		{NPPIST, "nppiMinMax_8u_C3R_Ctx", "aMin", DeviceMemory, 0},
		{NPPIF, "nppiFloodFillRange_8u_C3IR_Ctx", "aMin", HostMemory, 0},
		{NPPIST, "nppiSumGetBufferHostSize_8u_C1R_Ctx", "hpBufferSize", HostMemory, 0},
		{NPPITC, "nppiCompareC_8u_C3R_Ctx", "pConstants", HostMemory, 0},
		{NPPIAL, "nppiAddDeviceC_8u_C3RSfs_Ctx", "pConstants", DeviceMemory, HostMemory},
		{NPPIF, "nppiCompressedMarkerLabelsUFGetContoursBlockSegmentList_C1R_Ctx", "pContoursBlockSegmentListHost", HostMemory, 0},
		{NPPISU, "nppiMalloc_8u_C1", "pStepBytes", HostMemory, 0},
		{NPPC, "nppGetStreamContext", "pNppStreamContext", HostMemory, 0},
	} {
		r, key, ok := c.d.Overrides.MemoryOf(c.fn, c.param)
		if !ok || r.Memory != c.mem || r.Arrays != c.arrays || r.Why == "" {
			t.Errorf("%s: %s.%s: row %q %+v, want %v (arrays %v) with a reason", c.d.Key, c.fn, c.param, key, r, c.mem, c.arrays)
		}
	}
}
