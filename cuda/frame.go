package cuda

import (
	"errors"
	"runtime"
	"unsafe"
)

// Frame is a kernel's argument block packed at the offsets its parameters
// have, for [Kernel.LaunchFrame]: what the typed launchers of cugen
// kernels build, whose layout cugen proved against the compiled kernel
// when it generated them. Set each parameter once, in order, with [Arg]
// and [ArgBuffer]; a Frame holds up to 16 parameters in 256 bytes (cugen
// kernels uses Kernel.Launch for larger ones). A Frame is a value on the
// caller's stack: a launch through it allocates nothing.
type Frame struct {
	words [stackArgWords]uint64
	offs  [stackArgs]uint16
	bufs  [stackArgs]*devAlloc // the buffers, whose liveness and context the launch checks
	bidx  [stackArgs]uint8     // each buffer's parameter index
	n     uint8                // parameters set
	nb    uint8                // buffers among them
	bad   uint8                // 1 + the index of a parameter that did not fit; 0: none
	nilb  uint8                // 1 + the index of the first nil buffer; 0: none
}

// Arg sets parameter i, at byte offset off of the block, to v: a value of
// a plain type (a number, or a struct or array of numbers) of its C
// parameter's size.
func Arg[V any](f *Frame, i int, off uintptr, v V) {
	if i != int(f.n) || i >= stackArgs || off+unsafe.Sizeof(v) > stackArgWords*8 {
		f.misfit(i)
		return
	}
	*(*V)(unsafe.Add(unsafe.Pointer(&f.words), off)) = v
	f.offs[i] = uint16(off)
	f.n++
}

// ArgBuffer sets parameter i, at byte offset off, to b's device address;
// the launch checks that b is open and of the launch's context.
func ArgBuffer[T any](f *Frame, i int, off uintptr, b *Buffer[T]) {
	if i != int(f.n) || i >= stackArgs || off+8 > stackArgWords*8 {
		f.misfit(i)
		return
	}
	if b == nil {
		if f.nilb == 0 {
			f.nilb = uint8(i + 1)
		}
		f.n++
		return
	}
	*(*uint64)(unsafe.Add(unsafe.Pointer(&f.words), off)) = uint64(b.ptr)
	f.offs[i] = uint16(off)
	f.bufs[f.nb], f.bidx[f.nb] = b.a, uint8(i)
	f.nb++
	f.n++
}

// misfit records a parameter set out of order, or past the block.
func (f *Frame) misfit(i int) {
	if f.bad == 0 {
		f.bad = uint8(min(i, 254) + 1)
	}
}

var errFrameBuffer = errors.New("the buffer belongs to another context than the launch")

// LaunchFrame launches the kernel (cuLaunchKernel, or cuLaunchKernelEx
// when cfg sets attributes) with the arguments packed in f. Unlike
// [Kernel.Launch] it checks neither the count nor the sizes of the
// arguments, which its caller proved (a typed launcher of cugen kernels):
// only what can change at run time, that the module, the stream and each
// buffer are open and of one context. Like Launch it holds them until the
// launch is queued, allocates nothing, and inside a bound scope
// ([Context.Run]) neither locks nor binds.
func (k *Kernel) LaunchFrame(cfg Config, f *Frame) error {
	if f.bad != 0 {
		return &ArgError{Kernel: k.name, Index: int(f.bad) - 1, Type: "Frame", Reason: "set out of order or past the 256 bytes a Frame holds"}
	}
	if f.nilb != 0 {
		return &ArgError{Kernel: k.name, Index: int(f.nilb) - 1, Type: "*cuda.Buffer", Reason: "nil"}
	}
	if b := scopeHere(); b != nil { // scope.go: the thread is locked and bound
		g := enterLaunch()
		defer g.exit()
		return k.launchFrame(&cfg, f, g == nil, b)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g := enterLaunch() // launchguard.go
	defer g.exit()
	return k.launchFrame(&cfg, f, g == nil, nil)
}

// launchFrame is LaunchFrame on the locked thread, with a guard in flight
// or, with hold, counting the uses of the operands.
func (k *Kernel) launchFrame(cfg *Config, f *Frame, hold bool, sc *Bound) error {
	owner, ctx, err := k.begin(cfg.Stream, hold)
	if err != nil {
		return err
	}
	nb := int(f.nb)
	for i := range nb {
		r := f.bufs[i].r
		var why string
		switch {
		case !sameContext(r.ctx, ctx):
			why = errFrameBuffer.Error()
		case hold && !r.uses.acquire(), !hold && !r.uses.guarded():
			why = "the buffer was freed"
		}
		if why != "" {
			if hold {
				for j := range i {
					f.bufs[j].r.uses.release()
				}
			}
			k.end(owner, cfg.Stream, hold)
			return &ArgError{Kernel: k.name, Index: int(f.bidx[i]), Type: "*cuda.Buffer", Reason: why}
		}
	}
	var pp [stackArgs]unsafe.Pointer
	n := int(f.n)
	for i := range n {
		pp[i] = unsafe.Add(unsafe.Pointer(&f.words), f.offs[i])
	}
	err = k.launch(ctx, cfg, pp[:n], sc)
	if hold {
		for i := range nb {
			f.bufs[i].r.uses.release()
		}
	}
	k.end(owner, cfg.Stream, hold)
	return err
}
