// Package cuda is the Go API for CUDA, over cugen's generated packages
// (cu, nvrtc, ...): devices and contexts safe to use from any goroutine,
// typed device memory (with the half types [Float16] and [BFloat16]),
// modules and kernels, checked kernel launches, streams a goroutine can
// wait on without blocking a thread, events, graphs, memory pools, IPC
// and NCCL.
//
//	ctx, err := cuda.NewContext(0) // device 0's primary context
//	defer ctx.Close()
//	mod, err := ctx.ModuleFromSource(cuda.Source{Code: src}) // CUDA C++ through NVRTC
//	vecAdd, err := mod.Kernel("vecAdd")
//	a, err := cuda.AllocFrom(ctx, hostA) // *Buffer[float32]
//	err = vecAdd.Launch(cuda.ForN(n, 256), a, b, c, int32(n))
//	err = c.CopyTo(hostC)
//
// # The CUDA major
//
// In cugen's module one import path serves every CUDA major: no build tag
// is CUDA 13, -tags cuda12 CUDA 12. The generated packages the API calls
// (and returns: [Context.Raw] is a cu.Context) come through cuda/sys/cu,
// cuda/sys/cudart, ..., aliases of the major's (package
// [github.com/cugen/cugen/cuda/sys]); a copy cugen gen writes into a
// module imports that module's one major (OUT/cu, ...) directly. Typed
// errors come back unchanged: errors.Is(err, cu.ErrorInvalidValue) works.
// A binary whose driver is older than its major fails at its first call
// with [ErrWrongMajor], naming the major to build for.
//
// # Packages
//
// Beside this one, over CUDA's math libraries, on [Buffer]s:
// [github.com/cugen/cugen/cuda/blas] (cuBLAS),
// [github.com/cugen/cugen/cuda/solver] (cuSOLVER),
// [github.com/cugen/cugen/cuda/sparse] (cuSPARSE),
// [github.com/cugen/cugen/cuda/fft] (cuFFT),
// [github.com/cugen/cugen/cuda/rand] (cuRAND) and
// [github.com/cugen/cugen/cuda/dnn] (cuDNN), which share their errors
// (one Error type, ErrClosed) through github.com/cugen/cugen/cuda/internal;
// [github.com/cugen/cugen/cuda/algo] (device-wide reduce, scan, radix
// sort and argsort: CUB's kernels, compiled when cugen generated them);
// [github.com/cugen/cugen/cuda/launcher] (a job's ranks from torchrun's,
// srun's, mpirun's variables) and [github.com/cugen/cugen/cuda/rendezvous]
// (rank 0's NCCL id handed out over TCP), behind [JoinCommFromEnv];
// and [github.com/cugen/cugen/cuda/sys] with its subpackages, the
// generated C API packages of the build's major.
//
// The reference (goroutines and the current context, lifetimes, memory,
// streams and graphs, kernel arguments, launch attributes, textures,
// NCCL, the math libraries' hooks) is docs/api.md of cugen's repository.
package cuda
