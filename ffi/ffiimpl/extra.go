package ffiimpl

import "unsafe"

// The launch markers of cuLaunchKernel's extra array (cuda.h's
// CU_LAUNCH_PARAM_END, CU_LAUNCH_PARAM_BUFFER_POINTER and
// CU_LAUNCH_PARAM_BUFFER_SIZE, defined as ((void *)0x00), 0x01 and 0x02).
const (
	launchParamEnd           = 0
	launchParamBufferPointer = 1
	launchParamBufferSize    = 2
)

// Extra is the C `extra` array of cuLaunchKernel and cuLaunchKernelEx for a
// packed argument buffer, with the size it points to:
//
//	{CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END}, size
//
// Its words are uintptrs, so the garbage collector never reads the markers
// 1 and 2 as pointers: an unsafe.Pointer holding one makes the runtime
// throw "invalid pointer found on stack" when it moves the stack. Generated
// code declares one per call, like a [Frame], and passes Set's result:
//
//	var extraC ffiimpl.Extra
//	...
//	frame.Int(extraC.Set(extra))
//	ffiimpl.Call(fn, &frame)
//	runtime.KeepAlive(extra)
//	runtime.KeepAlive(&extraC)
//
// The buffer's address is stored as a uintptr, which keeps nothing alive
// and is not updated if a stack moves: Set follows the stack invariant of
// [Frame] (call it after everything that calls a function, with nothing
// but Frame methods between it and the call), and the caller keeps buf
// alive with runtime.KeepAlive after the call. CUDA copies the arguments
// when the launch is enqueued, so the buffer may be reused once the call
// returns.
type Extra [6]uintptr

// Set fills e for buf and returns the address to pass as extra, or 0 (NULL)
// for a nil buf. A non-nil empty buf is a buffer of size 0.
//
//go:nosplit
func (e *Extra) Set(buf []byte) uintptr {
	if buf == nil {
		return 0
	}
	e[0] = launchParamBufferPointer
	e[1] = uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	e[2] = launchParamBufferSize
	e[3] = uintptr(unsafe.Pointer(&e[5]))
	e[4] = launchParamEnd
	e[5] = uintptr(len(buf))
	return uintptr(unsafe.Pointer(e))
}

// Pointer returns the address a as an unsafe.Pointer, for a C `void *`
// parameter given memory that is not Go's: a device address (cu.Deviceptr)
// or memory C allocated. The collector ignores addresses outside Go's heap,
// which such memory always is. Generated code exports it as
// cu.Deviceptr.Pointer; a Go object's address must never come through here.
func Pointer(a uintptr) unsafe.Pointer {
	return unsafe.Add(nil, a)
}

// heapExtra is an [Extra] that outlives the call it is made in, with the
// buffer it points to.
type heapExtra struct {
	words Extra
	buf   []byte // keeps the buffer alive as long as the words are
}

// ExtraWords returns the first of the extra words for buf, for a struct
// member that holds an extra array (the Extra member of the kernel node
// parameters), or nil for a nil buf. The words and buf live in one heap
// object that the returned pointer keeps alive, so they stay valid for as
// long as the struct holding the pointer does; nothing needs pinning.
func ExtraWords(buf []byte) *uintptr {
	if buf == nil {
		return nil
	}
	h := &heapExtra{buf: buf}
	h.words.Set(buf)
	return &h.words[0]
}
