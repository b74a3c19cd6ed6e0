// Package ffi holds what a user of cugen's generated CUDA packages meets
// beyond the generated API itself: the shared [Library] a package calls
// (cu.SharedLibrary and cudart.SharedLibrary return it), the errors calls
// return, and the checking helpers the generated packages re-export.
//
//   - Loading: a [Library] is opened lazily, at most once, on the first call
//     into it. If no candidate path opens, every call returns a [*LoadError]
//     naming each path tried and the environment variable that selects the
//     library (errors.Is [ErrNotLoaded]); a function the loaded library
//     does not export returns a [*SymbolError] naming the CUDA version that
//     introduced it, the loaded library's version ([LibraryDesc.Version])
//     and what to do (errors.Is [ErrNoSymbol]).
//     [Library.UsePerThreadDefaultStream] (or [DefaultStreamEnv]) binds the
//     per-thread default stream.
//   - Errors: a failing CUDA function returns a [*CallError], which carries
//     the C function name and unwraps to the generated result code, so
//     errors.Is works against generated constants (cudart.ErrorInvalidDevice).
//     A Go callback that panics while C runs it makes the call panic with a
//     [*CallbackPanic] once C has returned.
//   - Checking: [Check] prints an error the way the checkRuntime macro of
//     CUDA C++ code does, passing over the functions [Helper] marks;
//     [RunLocked] runs a function on an OS thread of its own, for CUDA's
//     per-thread context. The generated packages export them as cu.Check,
//     cu.CheckHelper, cu.OnPrimaryContext and the cudart equivalents.
//   - Device memory in the math packages (cuBLAS, cuBLASLt, cuBLASXt, cuFFT,
//     cufftXt, cuRAND, cuSPARSE, cuSOLVER's dense API and cuSOLVERMg) and
//     NPP's: a parameter the library documents as device memory is a
//     [DevicePtr] ([DeviceAddr] for `void *`), a plain 64-bit integer,
//     never a Go pointer, and a host array of device pointers (NPP's
//     planes, cuSOLVERMg's per-device arrays) a *DevicePtr; one the
//     handle's pointer mode (or a generator's kind, or where cuBLASXt finds
//     a matrix) puts in host or device memory is a [HostOrDevice], made by
//     [Host] or [Device]. A cu.Deviceptr converts to either device type
//     with no unsafe: ffi.DevicePtr[float32](d).
//   - Calling by hand, for tools such as cugen doctor: [Call] calls a C
//     function of integer and pointer arguments found with
//     [Library.Lookup]; [GoString] and [CStringLen] read a C string with a
//     bound, never past readable memory; [LibraryMajor], [PropertyMajor],
//     [ReadVersion] and [VersionText] read and check a library's version
//     (the generated load.go files use them, through ffiimpl);
//     [DriverAdvice] is the advice for a driver that is not found, as a
//     [*LoadError] gives it.
//
// # Where the libraries are found
//
// A [LibraryDesc] names the library's files (sonames, such as
// libcudart.so.12) and its override variable. If that variable
// (CUGEN_LIBCUDA, CUGEN_LIBCUDART) is set, its value is the only path
// tried. Otherwise the first file that opens, and is the library (see
// LibraryDesc.Identify and Validate), is the one loaded, searching in this
// order:
//
//  1. the dynamic loader's own search for the bare file name:
//     LD_LIBRARY_PATH, the ld.so.cache, the system directories;
//  2. $CUDA_PATH and then $CUDA_HOME: lib64 and targets/ARCH/lib (ARCH is
//     x86_64-linux; sbsa-linux and aarch64-linux on arm64) and the
//     description's ToolkitDirs (libNVVM's nvvm/lib64), then its own Dirs;
//  3. NVIDIA's Python wheels (LibraryDesc.Wheels: nvidia/cuda_runtime/lib
//     for CUDA 12's libcudart, nvidia/cu13/lib for CUDA 13's), found
//     without running Python in the site-packages directories of, in
//     order, the active virtualenv ($VIRTUAL_ENV/lib/python3*/site-packages,
//     or the virtualenv whose python3 is the first on PATH), conda ($CONDA_PREFIX/lib/python3*/site-packages), the user
//     ($PYTHONUSERBASE or ~/.local, lib/python3*/site-packages) and the
//     system (/usr/local/lib/python3*/dist-packages and site-packages,
//     /usr/lib/python3/dist-packages, /usr/lib/python3*/site-packages,
//     /usr/lib64/python3*/site-packages); python3* is taken newest version
//     first;
//  4. conda's $CONDA_PREFIX/lib;
//  5. the toolkit: /usr/local/cuda/lib64, then each /usr/local/cuda-X.Y
//     (targets/ARCH/lib, then lib64), newest version first, compared as
//     numbers (12.10 before 12.9), each followed by the ToolkitDirs;
//  6. for the driver only (LibraryDesc.WSL): /usr/lib/wsl/lib, where WSL
//     puts it.
//
// LibraryDesc.Root puts the fixed directories of this list (the system's
// site-packages, /usr/local/cuda*, /usr/lib/wsl/lib) under another root,
// for tests that lay out a system in a temporary directory.
//
// Only regular files, after following links, are handed to the dynamic
// loader: a path of the search or of the override variable that is a
// FIFO, a device, a socket or a directory is refused with its kind ("a
// named pipe (FIFO), not a library file"), and so is a bare file name
// when a directory of LD_LIBRARY_PATH holds such an entry under that name
// (the loader would open it and block reading it).
//
// When nothing loads, the [*LoadError] lists each file looked for with the
// reason it was not taken (the loader's error, "no such file", or why the
// file is not the library) and, in one list, each directory looked in that
// does not exist.
//
// The machinery the generated code is written with (frames, trampolines,
// callback tables, the version guard) is in package ffiimpl, which only
// generated code imports.
//
// It builds for linux/amd64, linux/arm64 and windows/amd64. Linux is the
// supported system. On Windows a library's DLL is named after its Linux
// soname (libcudart.so.12 is cudart64_12.dll, libcuda.so.1 the driver's
// nvcuda.dll) and searched for the Windows way; that port is tested under
// wine, against stand-in DLLs, not against NVIDIA's driver on Windows
// (make test-windows; docs/testing.md).
package ffi
