package cuda

import (
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// driver is the layer's seam to the CUDA driver: every driver call of
// package cuda made in a context goes through the driver its ctxState
// holds, set once when the state is made: realDriver (the generated
// package cu) for a context of NewContext, a fake in the tests
// (fakeDriver, lifetime_test.go: it checks no resource is freed twice or
// after its context, and records what each call was given). No code
// outside the tests knows which it holds. The calls that need no context
// (cuInit, the device queries, cuLibrary*) are direct; TestDriverSeam
// lists them and fails on any other call of package cu outside
// realDriver's methods.
//
// A launch costs one indirect call (launch or launchEx); their argument
// lists are passed hidden from escape analysis (noescapeArgs), so that
// an interface call does not move a launch's stack-packed arguments to
// the heap.
type driver interface {
	destroy(r *resource) error
	releaseContext(s *ctxState) error
	synchronize() error
	memGetInfo() (free, total uint64, err error)
	memAlloc(bytes uint64) (cu.Deviceptr, error)
	hostAlloc(bytes uint64) (unsafe.Pointer, error)
	function(m cu.Module, name string) (cu.Function, error)
	paramInfo(fn cu.Function, i uint64) (off, size uint64, err error)
	// launch is cuLaunchKernel; pp does not outlive the call.
	launch(fn cu.Function, grid, block Dim3, shared uint32, s cu.Stream, pp []unsafe.Pointer) error
	// launchEx is cuLaunchKernelEx with the attributes la; pp does not
	// outlive the call.
	launchEx(fn cu.Function, grid, block Dim3, shared uint32, s cu.Stream, la launchAttrs, pp []unsafe.Pointer) error
	moduleDriver                        // module.go
	copyDriver                          // memory.go
	memDriver                           // mempool.go
	kernelDriver                        // occupancy.go
	ipcDriver                           // ipc.go
	vmmDriver                           // vmm.go
	arrayDriver                         // array.go
	enablePeer(s, peer *ctxState) error // cuCtxEnablePeerAccess(peer), s current
	bindDriver                          // bindcache.go
	streamDriver                        // streamopts.go
	linkDriver                          // link.go
	graphDriver                         // graphbuild.go
}

// realDriver is the driver: the calls of package cu.
type realDriver struct{}

func (d realDriver) destroy(r *resource) error {
	switch r.kind {
	case kindMem:
		return cu.MemFree(cu.Deviceptr(r.h))
	case kindHost:
		return cu.MemFreeHost(r.p)
	case kindModule:
		return cu.ModuleUnload(cu.Module(r.h))
	case kindEvent:
		return cu.EventDestroy(cu.Event(r.h))
	case kindGraph:
		return cu.GraphDestroy(cu.Graph(r.h))
	case kindGraphExec:
		return cu.GraphExecDestroy(cu.GraphExec(r.h))
	case kindComm:
		return destroyComm(r.h)
	case kindMemAsync, kindPool, kindHostReg:
		return d.destroyMem(r)
	case kindLib:
		return destroyLib(r)
	case kindIPCMem:
		return cu.IpcCloseMemHandle(cu.Deviceptr(r.h))
	case kindAddr, kindPhys:
		return d.destroyVMM(r)
	case kindArray, kindTexture, kindSurface:
		return d.destroyArray(r)
	}
	return nil
}

// destroyComm frees an NCCL communicator's rank (ncclCommDestroy). nccl.go
// sets it: a module's copy of the layer leaves that file out when the
// module has no package nccl (cugen gen -lib), and with it every way to
// make a communicator, so this package needs NCCL only through nccl.go.
var destroyComm func(h uint64) error

func (realDriver) releaseContext(s *ctxState) error { return cu.DevicePrimaryCtxRelease(s.dev) }

func (realDriver) synchronize() error { return cu.CtxSynchronize() }

func (realDriver) memAlloc(bytes uint64) (cu.Deviceptr, error) { return cu.MemAlloc(bytes) }

func (realDriver) hostAlloc(bytes uint64) (unsafe.Pointer, error) {
	return cu.MemHostAlloc(bytes, cu.MemhostallocPortable)
}

func (realDriver) function(m cu.Module, name string) (cu.Function, error) {
	return cu.ModuleGetFunction(m, name)
}

func (realDriver) enablePeer(_, peer *ctxState) error { return cu.CtxEnablePeerAccess(peer.ctx, 0) }

func (realDriver) paramInfo(fn cu.Function, i uint64) (uint64, uint64, error) {
	return cu.FuncGetParamInfo(fn, i)
}

func (realDriver) memGetInfo() (uint64, uint64, error) { return cu.MemGetInfo() }

func (realDriver) launch(fn cu.Function, g, b Dim3, shared uint32, h cu.Stream, pp []unsafe.Pointer) error {
	return cu.LaunchKernel(fn, g.X, g.Y, g.Z, b.X, b.Y, b.Z, shared, h, pp, nil)
}

func (realDriver) launchEx(fn cu.Function, g, b Dim3, shared uint32, h cu.Stream, la launchAttrs, pp []unsafe.Pointer) error {
	lc := cu.LaunchConfig{
		GridDimX: g.X, GridDimY: g.Y, GridDimZ: g.Z,
		BlockDimX: b.X, BlockDimY: b.Y, BlockDimZ: b.Z,
		SharedMemBytes: shared, HStream: h,
		Attrs: &la.a[0], NumAttrs: uint32(la.n),
	}
	return cu.LaunchKernelEx(&lc, fn, pp, nil)
}

// noescape returns p, hidden from escape analysis as noescapeArgs hides
// a launch's arguments: for a host pointer the driver reads or writes
// during a synchronous call only.
func noescape(p unsafe.Pointer) unsafe.Pointer {
	x := uintptr(p)
	return *(*unsafe.Pointer)(unsafe.Pointer(&x))
}

// noescapeArgs returns pp, hidden from escape analysis, as the runtime's
// noescape hides a pointer: passed to an interface method as it is, pp
// and the stack-packed words its pointers point into would move to the
// heap on every launch. It is safe because no driver keeps pp past the
// call, and pp stays a pointer (the runtime moves it with the stack):
// only its provenance is hidden, between two instructions that make no
// call. TestLaunchNoAllocs and TestLaunchExNoAllocs hold a launch to no
// allocation.
func noescapeArgs(pp []unsafe.Pointer) []unsafe.Pointer {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(pp)))
	return unsafe.Slice(*(**unsafe.Pointer)(unsafe.Pointer(&p)), len(pp))
}
