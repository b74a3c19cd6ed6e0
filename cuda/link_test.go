package cuda

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// fakeLinker is the fake driver's JIT linker: it writes its logs through
// the buffers cuLinkCreate was given, as the driver does, and links by
// concatenating its inputs after an ELF magic.
type fakeLinker struct {
	calls     int
	opts      []cu.JitOption
	vals      []uintptr // the caller's array, which the driver keeps
	inputs    []fakeLinkInput
	image     []byte
	destroyed int
}

type fakeLinkInput struct {
	typ  cu.JitInputType
	name string
	null bool
	data []byte
}

// fakeLinkBad in an input makes the fake linker refuse it.
const fakeLinkBad = "BAD"

func (f *fakeDriver) linkCreate(opts []cu.JitOption, vals []uintptr) (cu.LinkState, error) {
	f.link.calls++
	f.link.opts = append([]cu.JitOption(nil), opts...)
	f.link.vals = vals
	f.link.image = []byte("\x7fELF")
	return cu.LinkState(0x5000), nil
}

// linkLog appends s and a newline to the log of the buffer option opt.
func (f *fakeDriver) linkLog(opt cu.JitOption, s string) {
	for i, o := range f.link.opts {
		if o != opt {
			continue
		}
		p := *(*unsafe.Pointer)(unsafe.Pointer(&f.link.vals[i])) // the driver reads the slot as a pointer
		buf := unsafe.Slice((*byte)(p), f.link.vals[i+1])
		n := bytes.IndexByte(buf, 0)
		copy(buf[n:len(buf)-1], s+"\n")
		return
	}
	f.t.Errorf("no log buffer option %v", opt)
}

func (f *fakeDriver) linkAddData(ls cu.LinkState, typ cu.JitInputType, data []byte, name string, null bool) error {
	f.link.calls++
	f.link.inputs = append(f.link.inputs, fakeLinkInput{typ, name, null, bytes.Clone(data)})
	shown := name
	if null {
		shown = "(null)"
	}
	if bytes.Contains(data, []byte(fakeLinkBad)) {
		f.linkLog(cu.JitErrorLogBuffer, "ptxas fatal   : "+shown+": bad input")
		return cu.ErrorInvalidPtx
	}
	f.linkLog(cu.JitInfoLogBuffer, fmt.Sprintf("info    : added %v %s", typ, shown))
	f.link.image = append(f.link.image, data...)
	return nil
}

func (f *fakeDriver) linkComplete(ls cu.LinkState) ([]byte, error) {
	f.link.calls++
	for i, o := range f.link.opts {
		if o == cu.JitWallTime {
			f.link.vals[i] = uintptr(math.Float32bits(1.5)) // milliseconds, a float in the slot
		}
	}
	return bytes.Clone(f.link.image), nil
}

func (f *fakeDriver) linkDestroy(ls cu.LinkState) error {
	f.link.destroyed++
	return nil
}

// TestLink: Link hands the driver each input with its kind and name (NULL
// for none), the options as JIT option pairs and log buffers it keeps
// for the link, and returns the image, both logs and the wall time; the
// link state is destroyed.
func TestLink(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	a := []byte(".version 7.0\n.target sm_52\n.address_size 64\n.extern .func f();\n")
	b := []byte(".version 7.0\n.target sm_52\n.address_size 64\n.visible .func f() { ret; }\n")
	cubin := []byte("\x7fELF cubin")
	got, err := c.Link([]LinkInput{{Data: a}, {Kind: LinkPTX, Data: b, Name: "b.ptx"}, {Data: cubin, Name: "c.cubin"}},
		LinkOptions{MaxRegisters: 32, OptimizationLevel: OptimizationNone, Target: 90, LogVerbose: true, PreferBinary: true})
	if err != nil {
		t.Fatal(err)
	}
	in := f.link.inputs
	if len(in) != 3 || in[0].typ != cu.JitInputPtx || !in[0].null || in[1].typ != cu.JitInputPtx || in[1].null || in[1].name != "b.ptx" || in[2].typ != cu.JitInputCubin {
		t.Fatalf("inputs: %+v", in)
	}
	if !bytes.Equal(in[0].data, append(a, 0)) {
		t.Fatal("the PTX was not NUL-terminated")
	}
	want := map[cu.JitOption]uintptr{cu.JitMaxRegisters: 32, cu.JitOptimizationLevel: 0, cu.CuJitTarget: 90, cu.JitLogVerbose: 1,
		cu.JitFallbackStrategy: uintptr(cu.PreferBinary), cu.JitInfoLogBufferSizeBytes: jitLogSize, cu.JitErrorLogBufferSizeBytes: jitLogSize}
	for i, o := range f.link.opts {
		if v, ok := want[o]; ok {
			if f.link.vals[i] != v {
				t.Errorf("option %v = %d, want %d", o, f.link.vals[i], v)
			}
			delete(want, o)
		}
		if o == cu.JitLto {
			t.Error("CU_JIT_LTO set with no LTO-IR input")
		}
	}
	if len(want) > 0 {
		t.Errorf("options not given: %v", want)
	}
	if !bytes.Equal(got.Image, append(append(append([]byte("\x7fELF"), a...), 0), append(append(b, 0), cubin...)...)) {
		t.Fatalf("image %q", got.Image)
	}
	wantInfo := "info    : added CU_JIT_INPUT_PTX (null)\ninfo    : added CU_JIT_INPUT_PTX b.ptx\ninfo    : added CU_JIT_INPUT_CUBIN c.cubin"
	if got.InfoLog != wantInfo || got.ErrorLog != "" {
		t.Fatalf("logs: info %q, error %q", got.InfoLog, got.ErrorLog)
	}
	if got.WallTime != 1500*time.Microsecond {
		t.Fatalf("WallTime %v, want 1.5ms", got.WallTime)
	}
	if f.link.destroyed != 1 {
		t.Fatalf("link state destroyed %d times", f.link.destroyed)
	}

	// LTO-IR sets CU_JIT_LTO.
	if _, err := c.Link([]LinkInput{{Kind: LinkLTOIR, Data: []byte("BC\xc0\xde")}}, LinkOptions{}); err != nil {
		t.Fatal(err)
	}
	lto := false
	for i, o := range f.link.opts {
		lto = lto || o == cu.JitLto && f.link.vals[i] == 1
	}
	if !lto || f.link.inputs[len(f.link.inputs)-1].typ != cu.JitInputNvvm {
		t.Fatalf("an LTO-IR input: options %v", f.link.opts)
	}
}

// TestLinkErrors: a refused input is a *LinkError naming it, carrying the
// error log, which its Error includes, and the link state is destroyed;
// bad input and options are errors before the driver.
func TestLinkErrors(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	_, err := c.Link([]LinkInput{{Data: []byte(".version 7.0\n")}, {Data: []byte(".version 7.0 " + fakeLinkBad), Name: "bad.ptx"}}, LinkOptions{})
	var le *LinkError
	if !errors.As(err, &le) || !errors.Is(err, cu.ErrorInvalidPtx) {
		t.Fatalf("%v, want a *LinkError of CUDA_ERROR_INVALID_PTX", err)
	}
	if le.Step != `input 1 (PTX "bad.ptx")` || le.ErrorLog != "ptxas fatal   : bad.ptx: bad input" || !strings.Contains(le.InfoLog, "added CU_JIT_INPUT_PTX (null)") {
		t.Fatalf("LinkError %+v", le)
	}
	if !strings.Contains(err.Error(), "ptxas fatal   : bad.ptx: bad input") {
		t.Fatalf("Error() lacks the error log: %s", err)
	}
	if f.link.destroyed != 1 {
		t.Fatalf("link state destroyed %d times", f.link.destroyed)
	}

	calls := f.link.calls
	ptx := []byte(".version 7.0\n")
	for _, tc := range []struct {
		in   []LinkInput
		o    LinkOptions
		want string
	}{
		{nil, LinkOptions{}, "no inputs"},
		{[]LinkInput{{Data: nil, Name: "x"}}, LinkOptions{}, `input 0 (auto "x"): empty`},
		{[]LinkInput{{Kind: 99, Data: ptx}}, LinkOptions{}, "unknown kind 99"},
		{[]LinkInput{{Kind: LinkPTX, Data: []byte("\x7fELF")}}, LinkOptions{}, "the bytes are a cubin"},
		{[]LinkInput{{Data: []byte(".ver\x00sion")}}, LinkOptions{}, "NUL byte"},
		{[]LinkInput{{Data: ptx}}, LinkOptions{OptimizationLevel: 5}, "OptimizationLevel 5"},
		{[]LinkInput{{Data: ptx}}, LinkOptions{MaxRegisters: -1}, "negative MaxRegisters"},
		{[]LinkInput{{Data: ptx}}, LinkOptions{Target: -90}, "Target -90"},
		{[]LinkInput{{Data: ptx}}, LinkOptions{LogSize: -1}, "LogSize -1"},
	} {
		if _, err := c.Link(tc.in, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Link(%v, %+v) = %v, want an error with %q", tc.in, tc.o, err, tc.want)
		}
	}
	if f.link.calls != calls {
		t.Fatal("bad input reached the driver")
	}
}
