//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package nvrtcffi

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/cugen/cugen/ffi"
)

// The results this package gives itself, beside NVRTC's.
const (
	// Success is NVRTC_SUCCESS.
	Success int32 = 0
	// InvalidProgram is NVRTC_ERROR_INVALID_PROGRAM: a Program method
	// called on a nil Program, or one destroyed or never created, returns
	// it without calling NVRTC.
	InvalidProgram int32 = 4
	// NotCalled is a call that could not be made: the library did not
	// load, the symbol is missing, or ffi.Call refused the arguments.
	NotCalled int32 = -1
)

// Call calls the int-returning C function symbol of lib with the
// arguments of ffi.Call and returns its result as an int32 (an
// nvrtcResult; cugen doctor calls the driver's CUresult functions with it
// too). A nil lib, or a symbol that cannot be looked up or called, gives
// NotCalled.
func Call(lib *ffi.Library, symbol string, args ...any) int32 {
	if lib == nil {
		return NotCalled
	}
	fn, err := lib.Lookup(symbol)
	if err != nil {
		return NotCalled
	}
	r, err := ffi.Call(fn, args...)
	if err != nil {
		return NotCalled
	}
	return int32(r)
}

// Lib is a loaded (or loadable: it loads on the first call) NVRTC.
type Lib struct {
	lib *ffi.Library
}

// New returns the NVRTC of lib. A nil lib gives a Lib whose every call is
// NotCalled.
func New(lib *ffi.Library) *Lib { return &Lib{lib: lib} }

// Library returns the library New was given.
func (l *Lib) Library() *ffi.Library {
	if l == nil {
		return nil
	}
	return l.lib
}

// Call calls symbol of l's library (see [Call]).
func (l *Lib) Call(symbol string, args ...any) int32 {
	return Call(l.Library(), symbol, args...)
}

// Version is nvrtcVersion: NVRTC's major and minor version.
func (l *Lib) Version() ([2]int, int32) {
	var major, minor int32
	if r := l.Call("nvrtcVersion", &major, &minor); r != Success {
		return [2]int{}, r
	}
	return [2]int{int(major), int(minor)}, Success
}

// ErrorString is nvrtcGetErrorString's text of res, read with the bound
// max, and whether NVRTC gave one. NotCalled is no nvrtcResult: it has
// none.
func (l *Lib) ErrorString(res int32, max int) (string, bool) {
	lib := l.Library()
	if res == NotCalled || lib == nil {
		return "", false
	}
	fn, err := lib.Lookup("nvrtcGetErrorString")
	if err != nil {
		return "", false
	}
	p, err := ffi.Call(fn, res)
	if err != nil || p == 0 {
		return "", false
	}
	return ffi.GoString(p, max), true
}

// ErrorText says what res is: NVRTC's text of it ("NVRTC_ERROR_COMPILATION",
// read with the bound max), else "nvrtcResult 6", and for NotCalled "the
// call could not be made".
func (l *Lib) ErrorText(res int32, max int) string {
	if res == NotCalled {
		return "the call could not be made"
	}
	if s, ok := l.ErrorString(res, max); ok {
		return s
	}
	return fmt.Sprintf("nvrtcResult %d", res)
}

// Program is an nvrtcProgram. Its methods return InvalidProgram, without
// calling NVRTC, on a nil Program and after Destroy.
type Program struct {
	l *Lib
	h uintptr
}

// CreateProgram is nvrtcCreateProgram: src, named name in diagnostics,
// with no headers. Destroy the Program when done.
func (l *Lib) CreateProgram(src, name string) (*Program, int32) {
	return l.CreateProgramHeaders(src, name, nil)
}

// A Header is an in-memory header of a program: an #include of Name
// (spelled as the directive spells it) reads Text, and NVRTC opens no
// file for it.
type Header struct {
	Name, Text string
}

// CreateProgramHeaders is nvrtcCreateProgram with headers (its headers
// and includeNames arrays). Destroy the Program when done.
func (l *Lib) CreateProgramHeaders(src, name string, headers []Header) (*Program, int32) {
	var h uintptr
	texts, names := cstrArray(len(headers)), cstrArray(len(headers))
	for i, hd := range headers {
		texts.set(i, hd.Text)
		names.set(i, hd.Name)
	}
	r := l.Call("nvrtcCreateProgram", &h, cstr(src), cstr(name), int32(len(headers)), texts.ptrs, names.ptrs)
	runtime.KeepAlive(texts)
	runtime.KeepAlive(names)
	if r != Success {
		return nil, r
	}
	if h == 0 {
		return nil, InvalidProgram
	}
	return &Program{l: l, h: h}, Success
}

// cstrs is a C array of pointers to NUL-terminated copies on the heap
// (const char **): ptrs is what a call takes, keep holds what it points
// to, alive as long as the cstrs (ffi.Call copies the array, not what it
// points to). An empty one passes NULL.
type cstrs struct {
	ptrs []byte
	keep [][]byte
}

func cstrArray(n int) *cstrs {
	return &cstrs{ptrs: make([]byte, 8*n), keep: make([][]byte, n)}
}

func (c *cstrs) set(i int, s string) {
	c.keep[i] = cstr(s)
	*(*uintptr)(unsafe.Pointer(&c.ptrs[8*i])) = uintptr(unsafe.Pointer(&c.keep[i][0]))
}

func (p *Program) ok() bool { return p != nil && p.h != 0 }

// Destroy is nvrtcDestroyProgram. Destroying a nil or destroyed Program
// does nothing.
func (p *Program) Destroy() int32 {
	if !p.ok() {
		return Success
	}
	r := p.l.Call("nvrtcDestroyProgram", &p.h)
	p.h = 0
	return r
}

// AddNameExpression is nvrtcAddNameExpression: after the compile,
// LoweredName gives expr's lowered (mangled) name.
func (p *Program) AddNameExpression(expr string) int32 {
	if !p.ok() {
		return InvalidProgram
	}
	return p.l.Call("nvrtcAddNameExpression", p.h, cstr(expr))
}

// Compile is nvrtcCompileProgram with opts ("-arch=sm_90"); none pass
// NULL.
func (p *Program) Compile(opts []string) int32 {
	if !p.ok() {
		return InvalidProgram
	}
	c := cstrArray(len(opts))
	for i, o := range opts {
		c.set(i, o)
	}
	r := p.l.Call("nvrtcCompileProgram", p.h, int32(len(opts)), c.ptrs)
	runtime.KeepAlive(c)
	return r
}

// LoweredName is nvrtcGetLoweredName: the lowered name of a name
// expression added before the compile, read with the bound max ("" for
// a NULL name).
func (p *Program) LoweredName(expr string, max int) (string, int32) {
	if !p.ok() {
		return "", InvalidProgram
	}
	var s uintptr
	if r := p.l.Call("nvrtcGetLoweredName", p.h, cstr(expr), &s); r != Success {
		return "", r
	}
	return ffi.GoString(s, max), Success
}

// Log is the compile log (nvrtcGetProgramLogSize, nvrtcGetProgramLog) as
// NVRTC writes it, its NUL included; nil, with no error, when NVRTC
// reports a size of 0. A size over limit is an error, and nothing is
// allocated for it.
func (p *Program) Log(limit int) ([]byte, error) {
	return p.bytes("nvrtcGetProgramLogSize", "nvrtcGetProgramLog", limit)
}

// PTX is the PTX of a compile for a virtual architecture (nvrtcGetPTXSize,
// nvrtcGetPTX), bounded as Log is.
func (p *Program) PTX(limit int) ([]byte, error) {
	return p.bytes("nvrtcGetPTXSize", "nvrtcGetPTX", limit)
}

// CUBIN is the cubin of a compile for a real architecture
// (nvrtcGetCUBINSize, nvrtcGetCUBIN), bounded as Log is.
func (p *Program) CUBIN(limit int) ([]byte, error) {
	return p.bytes("nvrtcGetCUBINSize", "nvrtcGetCUBIN", limit)
}

// bytes reads one of NVRTC's size-then-buffer outputs.
func (p *Program) bytes(sizeFn, getFn string, limit int) ([]byte, error) {
	if !p.ok() {
		return nil, fmt.Errorf("%s: no program (nil or destroyed)", sizeFn)
	}
	var size uintptr
	if r := p.l.Call(sizeFn, p.h, &size); r != Success {
		return nil, fmt.Errorf("%s: %s", sizeFn, p.l.ErrorText(r, maxErrorText))
	}
	switch {
	case size == 0:
		return nil, nil
	case limit <= 0 || size > uintptr(limit):
		return nil, fmt.Errorf("%s reports %d bytes, more than the %d read", sizeFn, size, max(limit, 0))
	}
	buf := make([]byte, size)
	if r := p.l.Call(getFn, p.h, buf); r != Success {
		return nil, fmt.Errorf("%s: %s", getFn, p.l.ErrorText(r, maxErrorText))
	}
	return buf, nil
}

// maxErrorText bounds the NVRTC texts in this package's own errors.
const maxErrorText = 4 << 10

func cstr(s string) []byte { return append([]byte(s), 0) }
