// Package cuda is the Go API for CUDA on top of cugen's generated driver
// package (cu): devices and contexts safe to use from any goroutine, typed
// device memory, modules and kernels, checked kernel launches, streams that
// a goroutine can wait on without blocking a thread, and events.
//
// Import the copy for your CUDA major: github.com/cugen/cugen/generated/cuda13/cuda
// (or cuda12). Both are written by cugen from one source, so they offer the
// same API; each calls its own major's cu package, whose typed errors it
// returns unchanged (errors.Is(err, cu.ErrorInvalidValue) works).
//
//	ctx, err := cuda.NewContext(0) // device 0's primary context
//	defer ctx.Close()
//	mod, err := ctx.ModuleFromSource(cuda.Source{Code: src}) // CUDA C++ through NVRTC
//	// or ctx.LoadModule(ptx): PTX, cubin or fatbin bytes
//	vecAdd, err := mod.Kernel("vecAdd")
//	a, err := cuda.AllocFrom(ctx, hostA) // *Buffer[float32]
//	...
//	err = vecAdd.Launch(cuda.ForN(n, 256), a, b, c, int32(n))
//	err = c.CopyTo(hostC)
//
// # Goroutines and the current context
//
// CUDA's current context belongs to the OS thread, and Go moves goroutines
// between threads. Every method here that calls CUDA locks the goroutine to
// its thread for the length of the call (runtime.LockOSThread, nested
// locks are fine), makes its context current there if it is not already
// (a cuCtxSetCurrent when another context was current), calls, and
// unlocks. So a [Context] and everything made from it may be used from any
// goroutine, concurrently, without the caller locking anything. What it
// leaves behind: the thread's current context stays the last one bound.
// The layer remembers, per OS thread, the context it made current there,
// and asks the driver (cuCtxGetCurrent) only when it did not, or cannot
// know: so make a context current by hand (cu.CtxSetCurrent,
// cu.CtxPushCurrent, cudart's SetDevice) only inside [Context.Do], which
// forgets its thread's when it returns, or call [ForgetCurrent] after.
// For calls of your own on the raw cu package, use [Context.Do], which
// runs a function with the context current on a locked thread. Raw handles: [Context.Raw], [Device.Raw], [Buffer.Ptr],
// [Stream.Raw], [Event.Raw], [Module.Raw], [Kernel.Raw], [Comm.Raw].
//
// # Lifetimes
//
// Every resource (buffer, host buffer, module, library, stream, event,
// graph, NCCL communicator) is released exactly once: by its Close method
// (Free and Unload are deprecated names of it), or, when it becomes
// unreachable without one, by a cleanup (runtime.AddCleanup; for a
// [Buffer], a finalizer, set only once it outlives 64 newer buffers or a
// garbage collection, so a buffer closed soon costs none) on the garbage
// collector's schedule, which hands the release to a goroutine of
// the context's own (a release may wait for the device, and the runtime's
// cleanup goroutine must not block). A second Close returns [ErrFreed], as
// does any use after Close. Each method counts itself as a use of the
// resources it calls the driver with, as os.File does, for the length of
// the call: a Close racing a Launch or a copy on another goroutine waits
// for it to return, then releases. (A Launch counts no uses: it marks its
// thread busy, and the Close of a resource that was ever launched waits
// for the launches in flight.) Each resource holds a reference to its
// context: the primary context is released (cuDevicePrimaryCtxRelease)
// only when the Context is closed and every resource made from it is
// released, whatever the order, so no release ever reaches a destroyed
// context. A Context's Close does not wait for the calls in flight through
// it (a Close inside [Context.Do] would wait for itself): the last of them
// drops the reference. Views ([Buffer.Slice]) share their parent's memory
// and cannot be closed themselves.
//
// # Memory
//
// [Alloc] is cuMemAlloc. [AllocAsync] allocates in stream order on a
// stream from the device's current pool, and the buffer's Close frees it
// with cuMemFreeAsync on that stream without waiting: the way to allocate
// in a loop. [MemPool] is a memory pool (or the device's default) with its
// release threshold, trim, statistics and peer access; [AllocFromPool]
// allocates from it. [AllocManaged] is unified memory, a Buffer with a host
// view ([Buffer.Host]), prefetch and advice. [Register] page-locks a Go
// slice until Close, for fast asynchronous copies; [AllocPitched] is a 2D
// array with a row pitch and cuMemcpy2D copies. Pools and registrations
// are resources as buffers are: closed once, by Close or their cleanup.
//
// A [CachingAllocator] ([Context.NewCachingAllocator], [AllocCached]) is
// the opt-in cache CuPy's MemoryPool and PyTorch's allocator are: a
// buffer's Close puts its block on its stream's list for its size class,
// and the next allocation of that class on that stream takes it back with
// no driver call (a lock and a map lookup). Reuse stays on the block's
// stream, whose order makes it safe, as cuMemFreeAsync's does; a buffer
// used on other streams needs its own stream to wait for them before its
// Close, as with AllocAsync. The cache is bounded (MaxCached), emptied by
// Trim and Close and when the driver runs out of memory, and a closed
// buffer of it answers ErrFreed like any other, its block already
// another's.
//
// # Between processes, and virtual memory
//
// On Linux, [Buffer.ExportIPC] and [OpenIPC] share Alloc's memory with
// another process, [Context.NewIPCEvent] and [Context.OpenIPCEvent] an
// event, and an [IPCMemPool], its descriptor sent over a Unix socket
// ([SendFiles], [ReceiveFiles]) and opened by [Context.ImportMemPool],
// the stream-ordered buffers allocated from it ([ExportPoolPointer],
// [ImportPoolPointer]). The handles are bytes carrying the view's offset
// and length and the element size, checked on import ([ErrIPCHandle]).
// [Context.ReserveAddress], [Context.NewPhysMem] and [AddressRange.Map]
// are virtual memory management; [RangeBuffer] is a Buffer over mapped
// memory and [Growable] a buffer that grows in place. Sizes and offsets
// off the granularity are a [VMMError] before any driver call.
//
// # Streams, graphs and Go memory
//
// Asynchronous copies from and to Go slices pin the slice's memory
// (runtime.Pinner) and record an event after the copy on the stream; the
// stream unpins it once the event has completed, which it checks at its
// next operation, Synchronize, Wait or Close. So the memory stays alive and
// in place while the GPU may read or write it, with no thread blocked and
// no host function in the stream's way. Between [Stream.BeginCapture] and
// [Stream.EndCapture] the memory is instead pinned for the graph's life: a
// CUDA user object retained by the graph (and by each instance of it)
// unpins it when the last of them is destroyed. [Stream.HostFunc]'s Go
// functions live as long, through the same mechanism in package cu.
//
// # Building graphs
//
// [NewGraph] starts an empty graph to build node by node: [Graph.AddKernel]
// (its arguments checked and packed as [Kernel.Launch] does them),
// [AddCopy] between Buffers and HostBuffers, [AddFill], [Graph.AddHost]
// (a Go func), [Graph.AddChild], [Graph.AddEventRecord] and
// [Graph.AddEventWait], [AddAlloc] and [AddFree] (memory the graph
// allocates), and the conditional nodes [Graph.AddIf], [Graph.AddIfElse],
// [Graph.AddWhile] and [Graph.AddSwitch], whose bodies are graphs to fill
// and whose [Condition] a kernel sets with cudaGraphSetConditional (link
// such code with [Context.ModuleWithDeviceRuntime]). Each Add takes the
// nodes it depends on. The graph, its clones and its instances keep the
// buffers, modules and funcs of its nodes reachable. An instance
// ([Graph.InstantiateFlags]) can be uploaded, updated from a graph of the
// same shape ([GraphExec.Update], an [UpdateError] when the driver
// refuses) and have its nodes' parameters set ([GraphExec.SetKernelArgs],
// [SetCopy], [SetFill]). A node of another graph, a closed graph or a
// wrong argument is a typed error ([GraphError], [ArgError]) before the
// driver sees it.
//
// # Kernel arguments
//
// [Kernel.Launch] packs each argument at its exact C size and alignment:
// int8..int64, uint8..uint64, float32, float64, bool, uintptr and
// cu.Deviceptr as the C types of the same size, a *Buffer[T] (device, pool
// or managed memory) as its device address, and any struct or array type
// without Go pointers as its Go memory, a *Texture or *Surface as its
// 64-bit handle (a cudaTextureObject_t or cudaSurfaceObject_t parameter),
// held for the launch as buffers are (the same layout as C's on amd64 and
// arm64 when its fields are the same types). Any other pointer is refused,
// *HostBuffer[T], *Registered[T] and *Pitched[T] among them: pass a
// [Pitched] as its [Pitched.Ptr]; host memory is not a kernel argument here
// (for memory both sides use, allocate managed memory: [AllocManaged]). Go's
// int and uint are not accepted where the kernel's parameter is not 8 bytes:
// pass int32(n) for a C int. Where the driver has cuFuncGetParamInfo (CUDA
// 12.4 and newer), the argument count and each argument's size are checked
// against the kernel's own parameters, and an error names the bad argument.
//
// # Launch attributes, occupancy and kernel attributes
//
// [Config]'s attribute fields (Cooperative, Cluster, Priority,
// ProgrammaticStreamSerialization) launch through cuLaunchKernelEx; a
// Config without them keeps cuLaunchKernel. [Kernel.MaxActiveBlocksPerSM]
// and [Kernel.SuggestBlockSize] (or [Kernel.SuggestBlockSizeFunc], with the
// dynamic shared memory as a Go function of the block size) ask the
// driver's occupancy calculator; [Kernel.Attributes] returns the kernel's
// registers, shared, constant and local sizes and architectures, and
// [Kernel.SetMaxDynamicSharedMemory] opts in to more than 48 KiB.
//
// [Devices] lists the devices; [Device.Properties] returns every device
// attribute as a typed field, [Device.UUID] and [Device.PCIBusID] identify
// one, and [Context.EnablePeerAccess] lets one context reach another's
// memory where [Device.CanAccessPeer] says the devices can.
//
// # Arrays, textures and surfaces
//
// [AllocArray] makes a CUDA array of T (1D, 2D, 3D, layered, cubemap; see
// [ArrayDesc]) whose format follows from T: uint8..int32 or float32, alone
// or 2 or 4 of one kind ([4]uint8, [2]float32). Its copies move the whole
// array from or to Go slices, pinned host buffers and device buffers,
// synchronously or on a stream. [Array.Texture] makes a texture object
// with the filtering, addressing and read mode of [TextureOptions], which
// are checked against the format first; [Array.Surface] a surface object
// kernels write through. [BufferTexture] and [PitchedTexture] make
// textures over device memory (tex1Dfetch, tex2D). Pass a texture or
// surface to a kernel as it is. Memory with textures or surfaces open over
// it refuses its Close ([ErrInUse]).
//
// # Several GPUs: NCCL
//
// A [Comm] is one rank of an NCCL communicator on its context's device.
// [NewComms] makes one rank per context in this process; [JoinComm] makes
// this process's rank of a communicator spread over processes or machines,
// from an id one rank makes with nccl.GetUniqueId and sends to the others.
// The collectives are typed: [AllReduce], [AllGather], [ReduceScatter],
// [Broadcast], [Reduce], [Send] and [Recv] take *Buffer[T] of an [Element]
// type (NCCL's data type follows from T), check lengths, ranks and
// contexts, and queue on a stream; [Group] launches the calls it wraps as
// one. Each rank calls them from its own goroutine:
//
//	comms, err := cuda.NewComms(ctx0, ctx1)
//	// on rank i's goroutine, with x and s of ctx i:
//	err = cuda.AllReduce(comms[i], s, x, x, nccl.Sum)
//
// # The math libraries
//
// Packages beside this one put CUDA's math libraries on buffers: blas
// (.../cuda/blas, cuBLAS), and the others of its family. They stand on two
// hooks that a package of your own over a library can use too: a [Handle]
// owns a library's object (a cuBLAS handle, a cuFFT plan) as a resource of
// a context, destroyed once, by Close or a cleanup, before the context is
// released; [Stream.Call] runs a library call on a stream with the
// context current, holding the stream and its operands ([Operand]: a
// *Buffer[T], a Handle) as uses for the call and refusing a closed, nil or
// foreign one before it, with no allocation.
package cuda
