package nvtx

import (
	"math"
	"runtime"
	"unsafe"
)

// Attributes describe a mark or a range beyond its message: what
// nvtxEventAttributes_t holds in C.
type Attributes struct {
	// Message is the text the profiler shows.
	Message string
	// Color is an ARGB color (0xAARRGGBB); 0 leaves the profiler's own.
	Color uint32
	// Category groups events; name a category with [NameCategory].
	Category uint32
	// Payload is a number shown with the event: nil for none, or an
	// int64, uint64, float64, int32, uint32, float32 or int. Another type
	// is shown as no payload.
	Payload any
}

// RangeID names a range from [Start] or [Domain.Start] for its [End].
type RangeID uint64

// Push starts a range named msg on the calling OS thread's stack of
// nested ranges, and locks the goroutine to that thread until its [Pop]
// (see the package doc). It returns the range's nesting level, from 0,
// or a negative number when no profiler records it.
func Push(msg string) int {
	if !attached() {
		return -1
	}
	runtime.LockOSThread()
	return pushA(msg)
}

// PushEx is [Push] with attributes.
func PushEx(a Attributes) int {
	if !attached() {
		return -1
	}
	runtime.LockOSThread()
	return call1(0, fnPushEx, a)
}

// Pop ends the innermost range the calling thread pushed, and undoes its
// [Push]'s lock of the goroutine to the thread. It returns the level of
// the range it ended, or a negative number when there was none.
func Pop() int {
	if !attached() {
		return -1
	}
	r := pop()
	runtime.UnlockOSThread()
	return r
}

// Range pushes a range named msg and returns the func that pops it:
//
//	defer nvtx.Range("load weights")()
func Range(msg string) func() {
	if !attached() {
		return func() {}
	}
	Push(msg)
	return func() { Pop() }
}

// Mark records an instant named msg.
func Mark(msg string) {
	if attached() {
		markA(msg)
	}
}

// MarkEx is [Mark] with attributes.
func MarkEx(a Attributes) {
	if attached() {
		call1(0, fnMarkEx, a)
	}
}

// Start starts a range that any goroutine may [End]: it is not on a
// thread's stack. It returns 0 when no profiler records it.
func Start(msg string) RangeID {
	if !attached() {
		return 0
	}
	return RangeID(startA(msg))
}

// StartEx is [Start] with attributes.
func StartEx(a Attributes) RangeID {
	if !attached() {
		return 0
	}
	return RangeID(callRange(0, fnStartEx, a))
}

// End ends the range id that [Start] started.
func End(id RangeID) {
	if attached() {
		end(0, fnEnd, uint64(id))
	}
}

// NameCategory gives category id a name in the profiler.
func NameCategory(id uint32, name string) {
	if attached() {
		nameCategory(0, id, name)
	}
}

// NameOSThread gives the OS thread tid (Linux's thread id, as gettid
// returns it) a name in the profiler.
func NameOSThread(tid uint32, name string) {
	if attached() {
		nameThread(tid, name)
	}
}

// Domain is a named scope of ranges, marks and categories, so that a
// library's events are told apart from its caller's. The zero Domain
// (and every Domain while no profiler is attached) records nothing.
type Domain struct{ h uintptr }

// NewDomain creates the domain name. Close destroys it.
func NewDomain(name string) *Domain {
	if !attached() {
		return &Domain{}
	}
	return &Domain{h: domainCreate(name)}
}

// Push starts a range on the calling OS thread's stack in d, locking the
// goroutine to the thread as [Push] does.
func (d *Domain) Push(a Attributes) int {
	if d.h == 0 {
		return -1
	}
	runtime.LockOSThread()
	return call1(d.h, fnDomainPushEx, a)
}

// Pop ends the innermost range of d the calling thread pushed.
func (d *Domain) Pop() int {
	if d.h == 0 {
		return -1
	}
	r := domainPop(d.h)
	runtime.UnlockOSThread()
	return r
}

// Mark records an instant in d.
func (d *Domain) Mark(a Attributes) {
	if d.h != 0 {
		call1(d.h, fnDomainMarkEx, a)
	}
}

// Start starts a range in d that any goroutine may End.
func (d *Domain) Start(a Attributes) RangeID {
	if d.h == 0 {
		return 0
	}
	return RangeID(callRange(d.h, fnDomainStartEx, a))
}

// End ends the range id that d's Start started.
func (d *Domain) End(id RangeID) {
	if d.h != 0 {
		end(d.h, fnDomainEnd, uint64(id))
	}
}

// NameCategory gives category id of d a name.
func (d *Domain) NameCategory(id uint32, name string) {
	if d.h != 0 {
		nameCategory(d.h, id, name)
	}
}

// Close destroys d; its later calls record nothing.
func (d *Domain) Close() {
	if d.h != 0 {
		domainDestroy(d.h)
		d.h = 0
	}
}

// The C layout of nvtxEventAttributes_t (version 3 of the struct, 48
// bytes on 64-bit targets), checked against gcc by TestAttributesLayout.
const (
	attrVersion      = 3
	attrSize         = 48
	offCategory      = 4
	offColorType     = 8
	offColor         = 12
	offPayloadType   = 16
	offPayload       = 24
	offMessageType   = 32
	offMessage       = 40
	colorARGB        = 1
	messageASCII     = 1
	payloadUint64    = 1
	payloadInt64     = 2
	payloadDouble    = 3
	payloadUint32    = 4
	payloadInt32     = 5
	payloadFloat     = 6
	payloadTypeNone  = 0
	attrVersionField = 0
)

// encode writes a's C struct into b (attrSize bytes), its message at msg
// (a NUL-terminated copy the caller keeps alive through the call).
func encode(b *[attrSize]byte, a *Attributes, msg unsafe.Pointer) {
	put16 := func(off int, v uint16) { *(*uint16)(unsafe.Pointer(&b[off])) = v }
	put32 := func(off int, v uint32) { *(*uint32)(unsafe.Pointer(&b[off])) = v }
	put64 := func(off int, v uint64) { *(*uint64)(unsafe.Pointer(&b[off])) = v }
	put16(attrVersionField, attrVersion)
	put16(2, attrSize)
	put32(offCategory, a.Category)
	if a.Color != 0 {
		put32(offColorType, colorARGB)
		put32(offColor, a.Color)
	}
	pt, pv := payloadOf(a.Payload)
	put32(offPayloadType, pt)
	put64(offPayload, pv)
	put32(offMessageType, messageASCII)
	put64(offMessage, uint64(uintptr(msg)))
}

// payloadOf returns the payload type and bits of v.
func payloadOf(v any) (uint32, uint64) {
	switch v := v.(type) {
	case int64:
		return payloadInt64, uint64(v)
	case int:
		return payloadInt64, uint64(int64(v))
	case uint64:
		return payloadUint64, v
	case float64:
		return payloadDouble, math.Float64bits(v)
	case int32:
		return payloadInt32, uint64(uint32(v))
	case uint32:
		return payloadUint32, uint64(v)
	case float32:
		return payloadFloat, uint64(math.Float32bits(v))
	}
	return payloadTypeNone, 0
}
