// Package nvtx marks ranges and instants of a Go program for NVIDIA's
// profilers (Nsight Systems, Nsight Compute, CUPTI-based tools) through
// the NVTX 3 protocol, with no library to install and no cgo.
//
//	defer nvtx.Range("train step")()
//	nvtx.Mark("checkpoint written")
//
//	d := nvtx.NewDomain("my-service")
//	d.Push(nvtx.Attributes{Message: "decode", Color: 0xff2a9d8f, Payload: int64(batch)})
//	...
//	d.Pop()
//
// # How it reaches the profiler
//
// NVTX 3 is header-only: in C, each call goes through a table of function
// pointers that starts out empty. On the first call, the headers read the
// environment variable NVTX_INJECTION64_PATH, which a profiler sets to its
// injection library, load that library, and call its
// InitializeInjectionNvtx2 with a function through which it fills the
// table. This package does the same in Go: the table lives in memory the
// Go collector does not manage, the three functions the injection calls
// back are Go funcs, and each NVTX call made later calls the injection's
// function from the table. With no profiler attached (the variable
// unset), every call returns after one atomic load.
//
// The other way was to bind libnvToolsExt, NVTX's version 2 library. The
// CUDA 13 toolkit no longer ships it, CUDA 12 ships it only for old
// programs, and it adds a library to find at run time; the protocol it
// speaks to profilers is the one this package speaks. So the package
// works the same with every CUDA major, and needs nothing besides the
// profiler itself.
//
// # Threads
//
// NVTX keeps one stack of pushed ranges per OS thread, and a goroutine
// moves between threads. [Push] therefore locks the calling goroutine to
// its thread (runtime.LockOSThread) and [Pop] unlocks it, so a Push and
// its Pop reach the same thread's stack; between them the goroutine stays
// on that thread. Calls nest as LockOSThread does. [Start] and [End]
// ranges are not tied to a thread: use them for work that spans
// goroutines.
//
// # Errors
//
// NVTX calls report nothing: a profiler that fails to load or to
// initialise leaves every call a no-op, as in C. [Status] says what
// happened at the first call (no profiler, the library loaded, or why it
// did not), for a program that wants to log it.
package nvtx
