package cuda

import (
	"errors"
	"fmt"
	"math/bits"
	"reflect"
	"runtime"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// Dim3 is a grid or block size. A zero dimension means 1, as C++'s dim3
// defaults do: Dim3{X: 256} is 256x1x1.
type Dim3 struct{ X, Y, Z uint32 }

func one(v uint32) uint32 {
	if v == 0 {
		return 1
	}
	return v
}

// Norm returns d with its zero dimensions set to 1.
func (d Dim3) Norm() Dim3 { return Dim3{one(d.X), one(d.Y), one(d.Z)} }

// Config is how a kernel is launched. A nil Stream is the context's legacy
// default stream.
//
// The fields after Stream are launch attributes; their zero values set
// none. A launch with any of them set goes through cuLaunchKernelEx, one
// without through cuLaunchKernel (the fast path).
type Config struct {
	Grid, Block Dim3
	SharedMem   uint32 // dynamic shared memory per block, in bytes
	Stream      *Stream

	// Cooperative launches the grid with all its blocks resident at once,
	// so they may synchronise (cooperative groups' grid.sync()); the
	// driver refuses a grid larger than fits the device
	// (cu.ErrorCooperativeLaunchTooLarge): see [Kernel.MaxActiveBlocksPerSM].
	Cooperative bool
	// Cluster is the thread block cluster's size in blocks (sm_90 and
	// newer); zero: no cluster. Each of Grid's dimensions must be a
	// multiple of Cluster's.
	Cluster Dim3
	// Priority is the launch's priority, overriding the stream's: lower is
	// higher, from the context's greatest (negative) to 0. Zero: the
	// stream's.
	Priority int32
	// ProgrammaticStreamSerialization lets this kernel start before the
	// previous kernel of the stream ends (programmatic dependent launch,
	// sm_90 and newer): the previous one's
	// cudaTriggerProgrammaticLaunchCompletion and this one's
	// cudaGridDependencySynchronize order them.
	ProgrammaticStreamSerialization bool
}

// hasAttrs reports whether c sets any launch attribute.
func (c *Config) hasAttrs() bool {
	return c.Cooperative || c.Cluster != (Dim3{}) || c.Priority != 0 || c.ProgrammaticStreamSerialization
}

// maxLaunchAttrs is the number of attributes a Config can set.
const maxLaunchAttrs = 4

// launchAttrs are a Config's attributes in cuLaunchKernelEx's form.
type launchAttrs struct {
	a [maxLaunchAttrs]cu.LaunchAttribute
	n int
}

// attrs returns c's attributes, checked against its grid.
func (c *Config) attrs(kernel string) (launchAttrs, error) {
	var la launchAttrs
	add := func(id cu.LaunchAttributeID) *cu.LaunchAttributeValue {
		la.a[la.n].Id = id
		la.n++
		return &la.a[la.n-1].Value
	}
	if c.Cooperative {
		*add(cu.LaunchAttributeCooperative).Cooperative() = 1
	}
	if c.Cluster != (Dim3{}) {
		cl, g := c.Cluster.Norm(), c.Grid.Norm()
		if g.X%cl.X != 0 || g.Y%cl.Y != 0 || g.Z%cl.Z != 0 {
			return la, &ConfigError{Kernel: kernel, Reason: fmt.Sprintf("the grid %dx%dx%d is not a multiple of the cluster %dx%dx%d", g.X, g.Y, g.Z, cl.X, cl.Y, cl.Z)}
		}
		d := add(cu.LaunchAttributeClusterDimension).ClusterDim()
		d.X, d.Y, d.Z = cl.X, cl.Y, cl.Z
	}
	if c.Priority != 0 {
		*add(cu.LaunchAttributePriority).Priority() = c.Priority
	}
	if c.ProgrammaticStreamSerialization {
		*add(cu.LaunchAttributeProgrammaticStreamSerialization).ProgrammaticStreamSerializationAllowed() = 1
	}
	return la, nil
}

// ConfigError is a launch configuration the layer refuses before the
// driver sees it.
type ConfigError struct {
	Kernel string
	Reason string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("cuda: kernel %s: launch configuration: %s", e.Kernel, e.Reason)
}

// ForN returns the configuration for one thread per element of n: blocks
// of block threads (256 when block is 0), as many as cover n.
func ForN(n, block int) Config {
	if block <= 0 {
		block = 256
	}
	grid := (n + block - 1) / block
	if n <= 0 {
		grid = 1
	}
	return Config{Grid: Dim3{X: uint32(grid)}, Block: Dim3{X: uint32(block)}}
}

// On returns c launching on s.
func (c Config) On(s *Stream) Config {
	c.Stream = s
	return c
}

// Param is one kernel parameter's place in the argument buffer.
type Param struct{ Offset, Size int }

// Kernel is a __global__ function of a module (CUfunction) or of a
// library (CUkernel).
type Kernel struct {
	fn     cu.Function // a CUkernel for a library's kernel
	name   string
	mod    *Module  // the module's context is the launch's
	lib    *Library // or the stream's context is
	params []Param
	known  bool
}

// Name returns the name the kernel was looked up by.
func (k *Kernel) Name() string { return k.name }

// Raw returns the driver's handle, for the cu package.
func (k *Kernel) Raw() cu.Function { return k.fn }

// Params returns the kernel's parameters, and false when the driver does
// not report them (before CUDA 12.4: Launch then checks only what each
// argument's Go type says).
func (k *Kernel) Params() ([]Param, bool) { return k.params, k.known }

// Stack space for the arguments of a launch; larger lists go to the heap.
const (
	stackArgWords = 32 // 256 bytes
	stackArgs     = 16
)

// Launch launches the kernel (cuLaunchKernel) with args packed at their C
// sizes and alignments (see the package doc for the Go types accepted).
// When the driver reports the kernel's parameters, the count and every
// size are checked first. A launch of up to 16 arguments in 256 bytes
// allocates nothing. The buffers among args, the kernel's module or
// library and cfg.Stream are in use until the launch is queued: a Close of
// one of them on another goroutine waits for it.
func (k *Kernel) Launch(cfg Config, args ...any) error {
	if b := scopeHere(); b != nil { // scope.go: the thread is locked and bound
		return k.launchIn(b, &cfg, args)
	}
	// The thread stays locked for the launch: its guard (launchguard.go)
	// is the thread's. The defers run on a panic too (a guard left in
	// flight would hold up every Close).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g := enterLaunch()
	defer g.exit()
	err := k.launchLocked(&cfg, args, g == nil, nil)
	runtime.KeepAlive(args) // the buffers, until the launch is queued
	return err
}

// launchIn is Launch in the scope b, on its locked thread.
func (k *Kernel) launchIn(b *Bound, cfg *Config, args []any) error {
	g := enterLaunch()
	defer g.exit()
	err := k.launchLocked(cfg, args, g == nil, b)
	runtime.KeepAlive(args)
	return err
}

// launchLocked is Launch on the locked thread, with a guard in flight or,
// when hold is set, counting the uses of the operands; sc is the thread's
// bound scope, or nil.
func (k *Kernel) launchLocked(cfg *Config, args []any, hold bool, sc *Bound) error {
	owner, ctx, err := k.begin(cfg.Stream, hold)
	if err != nil {
		return err
	}
	// One pass checks, packs and holds the arguments, into the stack when
	// they fit. No defer: every path below ends the uses itself.
	if len(args) <= stackArgs {
		var words [stackArgWords]uint64
		var ptrs [stackArgs]unsafe.Pointer
		var offs [stackArgs]int
		held, size, err := k.packArgs(args, words[:], offs[:len(args)], hold)
		if err == nil && size <= stackArgWords*8 {
			// The pointers are set here, not in pack: stored through a
			// parameter, they would make the buffers escape.
			for i := range args {
				ptrs[i] = unsafe.Add(unsafe.Pointer(&words[0]), offs[i])
			}
			err = k.launch(ctx, cfg, ptrs[:len(args)], sc)
			if hold {
				unhold(args, held)
			}
		} else if err == nil {
			err = k.launchHeap(ctx, cfg, args, size, hold, sc)
		}
		k.end(owner, cfg.Stream, hold)
		return err
	}
	_, size, err := k.packArgs(args, nil, nil, false) // measures: holds nothing
	if err == nil {
		err = k.launchHeap(ctx, cfg, args, size, hold, sc)
	}
	k.end(owner, cfg.Stream, hold)
	return err
}

// launchHeap is Launch of arguments of size bytes in a buffer on the heap.
func (k *Kernel) launchHeap(ctx *ctxState, cfg *Config, args []any, size int, hold bool, sc *Bound) error {
	buf := make([]uint64, (size+7)/8)
	offs := make([]int, len(args))
	held, _, err := k.packArgs(args, buf, offs, hold)
	if err != nil {
		return err
	}
	pp := make([]unsafe.Pointer, len(args))
	for i, o := range offs {
		pp[i] = unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), o)
	}
	err = k.launch(ctx, cfg, pp, sc)
	if hold {
		unhold(args, held)
	}
	return err
}

// begin begins a launch: it checks that the stream and the kernel's module
// or library (owner) are open, and with hold begins their uses (k.end ends
// them; without, the launch's guard keeps them open); it returns the
// context the launch is in. The buffers among the arguments are checked
// by pack.
func (k *Kernel) begin(s *Stream, hold bool) (owner *uses, ctx *ctxState, err error) {
	if s != nil {
		if !s.st.uses.begin(hold) {
			return nil, nil, fmt.Errorf("cuda: kernel %s: its stream: %w", k.name, ErrFreed)
		}
		ctx = s.st.ctx
	}
	what := "module"
	if k.lib != nil {
		owner, what = &k.lib.st.uses, "library"
		if s == nil {
			err = fmt.Errorf("cuda: kernel %s: %w", k.name, errLibraryStream)
		}
	} else {
		owner = &k.mod.r.uses
		if s != nil && s.st.ctx.ctx != k.mod.r.ctx.ctx {
			err = fmt.Errorf("cuda: kernel %s: %w", k.name, errStreamContext)
		}
		ctx = k.mod.r.ctx
	}
	if err == nil && !owner.begin(hold) {
		err = fmt.Errorf("cuda: kernel %s: its %s: %w", k.name, what, ErrFreed)
	}
	if err != nil {
		if s != nil && hold {
			s.st.uses.release()
		}
		return nil, nil, err
	}
	return owner, ctx, nil
}

// begin begins a use of u with hold; without, it checks u is open, and
// marks it launched (a launch's guard keeps it open).
func (u *uses) begin(hold bool) bool {
	if hold {
		return u.acquire()
	}
	return u.guarded()
}

// end ends the uses begin began.
func (k *Kernel) end(owner *uses, s *Stream, hold bool) {
	if !hold {
		return
	}
	owner.release()
	if s != nil {
		s.st.uses.release()
	}
}

// launch calls cuLaunchKernel with the packed arguments pp in ctx, or
// cuLaunchKernelEx when cfg sets attributes. In the bound scope sc of
// ctx's context it binds nothing; in a scope of another context it makes
// the scope's current again after.
func (k *Kernel) launch(ctx *ctxState, cfg *Config, pp []unsafe.Pointer, sc *Bound) error {
	var h cu.Stream
	if cfg.Stream != nil {
		h = cfg.Stream.st.h
	}
	g, b := cfg.Grid.Norm(), cfg.Block.Norm()
	np := noescapeArgs(pp) // driver.go: the stack-packed arguments stay on the stack
	var err error
	if sc != nil && !cfg.hasAttrs() && sc.bound(ctx) {
		for try := 0; ; try++ {
			if err = ctx.drv.launch(k.fn, g, b, cfg.SharedMem, h, np); err == nil {
				break
			}
			sc.rebind() // the thread may have lost its context behind the scope's back
			if try > 0 || !errors.Is(err, cu.ErrorInvalidContext) {
				break
			}
		}
	} else if !cfg.hasAttrs() {
		// onThread, written out: no closure to call on the fast path. The
		// thread is locked (Launch).
		var remembered bool
		if remembered, err = ctx.bind(); err == nil {
			for try := 0; ; try++ {
				err = ctx.drv.launch(k.fn, g, b, cfg.SharedMem, h, np)
				if err == nil || !ctx.failed(err, remembered && try == 0) {
					break
				}
			}
		}
		if sc != nil {
			sc.rebind() // a launch of another context in the scope
		}
	} else {
		la, aerr := cfg.attrs(k.name)
		if aerr != nil {
			return aerr
		}
		err = onThread(ctx, func() error { return ctx.drv.launchEx(k.fn, g, b, cfg.SharedMem, h, la, np) })
	}
	if err != nil {
		return fmt.Errorf("cuda: kernel %s: %w", k.name, err)
	}
	return nil
}

// bufAt reads *a as the *Buffer[T] it is (kernelArg), through its T-free
// layout (a call of an interface method would make every argument escape).
func bufAt(a *any) *bufHeader {
	return (*bufHeader)((*[2]unsafe.Pointer)(unsafe.Pointer(a))[1])
}

// unhold ends the uses of the buffers pack held: args[i] for each bit i of
// held, and the buffers among args[64:].
func unhold(args []any, held uint64) {
	for held != 0 {
		i := bits.TrailingZeros64(held)
		held &= held - 1
		bufAt(&args[i]).a.r.uses.release()
	}
	for i := 64; i < len(args); i++ {
		if _, ok := args[i].(kernelArg); ok {
			bufAt(&args[i]).a.r.uses.release()
		}
	}
}

var (
	errStreamContext = errors.New("the stream belongs to another context than the kernel's module")
	errLibraryStream = errors.New("a library's kernel launches in its stream's context: set Config.Stream")
)

// ArgError is a kernel argument that does not fit the kernel.
type ArgError struct {
	Kernel string
	Index  int    // the argument's index in Launch's args, from 0
	Type   string // its Go type
	Reason string
}

func (e *ArgError) Error() string {
	return fmt.Sprintf("cuda: kernel %s: argument %d (%s): %s", e.Kernel, e.Index, e.Type, e.Reason)
}

// argShape returns the C size and alignment of a, and for the scalar types
// its bits (fixed) or, for the others, a pointer to its Go memory.
func argShape(a *any) (size, align int, bits uint64, mem unsafe.Pointer, buf *resource, err string) {
	switch v := (*a).(type) {
	case float32:
		return 4, 4, uint64(*(*uint32)(unsafe.Pointer(&v))), nil, nil, ""
	case int32:
		return 4, 4, uint64(uint32(v)), nil, nil, ""
	case uint32:
		return 4, 4, uint64(v), nil, nil, ""
	case float64:
		return 8, 8, *(*uint64)(unsafe.Pointer(&v)), nil, nil, ""
	case int64:
		return 8, 8, uint64(v), nil, nil, ""
	case uint64:
		return 8, 8, v, nil, nil, ""
	case cu.Deviceptr:
		return 8, 8, uint64(v), nil, nil, ""
	case uintptr:
		return 8, 8, uint64(v), nil, nil, ""
	case int8:
		return 1, 1, uint64(uint8(v)), nil, nil, ""
	case uint8:
		return 1, 1, uint64(v), nil, nil, ""
	case bool:
		if v {
			return 1, 1, 1, nil, nil, ""
		}
		return 1, 1, 0, nil, nil, ""
	case int16:
		return 2, 2, uint64(uint16(v)), nil, nil, ""
	case uint16:
		return 2, 2, uint64(v), nil, nil, ""
	case int:
		return 8, 8, uint64(v), nil, nil, "int"
	case uint:
		return 8, 8, uint64(v), nil, nil, "int"
	case kernelArg:
		// A *Buffer[T], whatever T: read through its T-free layout (a call
		// of an interface method would make every argument escape).
		// Its use begins in pack.
		h := bufAt(a)
		if h == nil {
			return 0, 0, 0, nil, nil, "nil"
		}
		return 8, 8, uint64(h.ptr), nil, h.a.r, ""
	case nil:
		return 0, 0, 0, nil, nil, "nil"
	}
	t := reflect.TypeOf(*a)
	switch t.Kind() {
	case reflect.Struct, reflect.Array, reflect.Complex64, reflect.Complex128,
		reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		if plainType(t) != nil {
			return 0, 0, 0, nil, nil, "pointers"
		}
		if t.Size() == 0 {
			return 0, 0, 0, nil, nil, "zero"
		}
		// A non-pointer value in an interface is boxed: the data word
		// points to it.
		return int(t.Size()), cAlign(t), 0, (*[2]unsafe.Pointer)(unsafe.Pointer(a))[1], nil, ""
	case reflect.Int, reflect.Uint:
		return 8, 8, 0, (*[2]unsafe.Pointer)(unsafe.Pointer(a))[1], nil, "int"
	}
	return 0, 0, 0, nil, nil, "pointers"
}

// kernelArg is what passes as a device address: a *Buffer[T], which has
// the layout of bufHeader for every T (TestBufHeaderLayout), or a
// *Texture or *Surface, whose first two fields are bufHeader's
// (TestTextureKernelArg): their resource and handle.
type kernelArg interface{ isBuffer() }

type bufHeader struct {
	a    *devAlloc
	ptr  cu.Deviceptr
	n    int
	view bool
}

// argError explains argShape's complaint about args[i].
func (k *Kernel) argError(args []any, i int, why string) error {
	e := &ArgError{Kernel: k.name, Index: i, Type: typeOf(args[i])}
	switch why {
	case "int":
		if k.known && i < len(k.params) {
			e.Reason = fmt.Sprintf("Go's %s is 8 bytes and the kernel's parameter is %d: convert it to the C type's size (int32 for int)", e.Type, k.params[i].Size)
		} else {
			e.Reason = fmt.Sprintf("Go's %s has no C size of its own and the driver does not report the kernel's parameters: pass int32 or int64", e.Type)
		}
	case "freed":
		e.Reason = "the buffer was freed"
		switch args[i].(type) {
		case *Texture, *Surface:
			e.Reason = "closed"
		}
	case "nil":
		e.Reason = "nil"
	case "zero":
		e.Reason = "a type of size 0, which no C++ parameter has (an empty struct is 1 byte there)"
	case "pointers":
		e.Reason = "holds Go pointers, which a kernel cannot use (pass a *Buffer or a cu.Deviceptr)"
	default:
		e.Reason = why
	}
	return e
}

// pack checks args against the kernel, writes them into buf at their
// offsets (offs) and begins a use of each buffer among them (held: bit i
// for args[i] below 64; every buffer of args[64:]), in one pass. It
// returns the bytes the arguments take: when that is more than buf holds
// (a nil buf measures), nothing is held and buf is only partly written.
// On an error nothing is held.
func (k *Kernel) pack(args []any, buf []uint64, offs []int) (held uint64, end int, err error) {
	return k.packArgs(args, buf, offs, true)
}

// packArgs is pack; without hold it only checks that the buffers are open
// (a launch's guard keeps them open) and holds nothing.
func (k *Kernel) packArgs(args []any, buf []uint64, offs []int, hold bool) (held uint64, end int, err error) {
	if k.known && len(args) != len(k.params) {
		return 0, 0, fmt.Errorf("cuda: kernel %s takes %d arguments, got %d", k.name, len(k.params), len(args))
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(buf))), len(buf)*8)
	over := false
	for i := range args {
		size, align, bits, mem, r, why := argShape(&args[i])
		if why != "" && (why != "int" || !k.known || k.params[i].Size != 8) {
			if hold {
				unhold(args[:i], held)
			}
			return 0, 0, k.argError(args, i, why)
		}
		off := end
		if align > 1 {
			off = (end + align - 1) &^ (align - 1)
		}
		if k.known {
			p := k.params[i]
			if p.Size != size {
				if hold {
					unhold(args[:i], held)
				}
				return 0, 0, &ArgError{Kernel: k.name, Index: i, Type: typeOf(args[i]),
					Reason: fmt.Sprintf("%d bytes, but the kernel's parameter %d is %d bytes", size, i, p.Size)}
			}
			off = p.Offset
		}
		end = max(end, off+size)
		if over || off+size > len(b) {
			if !over {
				over = true
				if hold {
					unhold(args[:i], held)
				}
				held = 0
			}
			if r != nil && r.uses.closed() {
				return 0, 0, k.argError(args, i, "freed")
			}
			continue
		}
		if r != nil && !hold {
			if !r.uses.guarded() {
				return 0, 0, k.argError(args, i, "freed")
			}
		} else if r != nil {
			if !r.uses.acquire() {
				unhold(args[:i], held)
				return 0, 0, k.argError(args, i, "freed")
			}
			if i < 64 {
				held |= 1 << i
			}
		}
		dst := b[off : off+size]
		switch {
		case mem != nil:
			copy(dst, unsafe.Slice((*byte)(mem), size))
		case size == 8:
			*(*uint64)(unsafe.Pointer(&dst[0])) = bits
		case size == 4:
			*(*uint32)(unsafe.Pointer(&dst[0])) = uint32(bits)
		case size == 2:
			*(*uint16)(unsafe.Pointer(&dst[0])) = uint16(bits)
		case size == 1:
			dst[0] = byte(bits)
		}
		offs[i] = off
	}
	return held, end, nil
}

// typeOf names a's type without letting a escape (as fmt's %T would).
func typeOf(a any) string {
	t := reflect.TypeOf(a)
	if t == nil {
		return "nil"
	}
	return t.String()
}
