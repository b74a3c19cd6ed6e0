// Command cugen generates Go packages from NVIDIA's CUDA headers, with no
// cgo: one package per library the headers declare (cu for the driver API,
// cudart for the runtime API, and one for each other description of package
// library: docs/libraries.md lists them), each opening its shared library
// (libcuda.so.1, libcudart.so.N, ...) at run time.
//
// Commands for users:
//
//	cugen gen -headers /usr/local/cuda/include -out ./cuda   one package per library: ./cuda/cu, ./cuda/cudart, ./cuda/nvrtc, ...
//	cugen gen -headers /usr/local/cuda/include -with .../nvidia/nccl/include -out ./cuda   nccl.h from NCCL's wheel
//	cugen gen -check ...             write nothing; fail listing what a gen would change
//	cugen gen -set 12.4 [-lock FILE] [-out generated/cuda12]   from a locked header set (the headers.lock cugen carries), emitted from the IR cugen carries of it: no download (-parse: fetched, verified, cached, parsed)
//	cugen gen -set 12.4 -lib cu,cudart,nvrtc -out cuda   only those libraries (and the packages they import)
//	cugen gen -ir FILE -origin TEXT -out DIR   generate from a saved IR
//	cugen gen -desc mylib.json -set 12.4 -with ./include -out ./cuda   a library of your own: ./cuda/mylib, and ./cuda/cu and ./cuda/cudart unless another gen line wrote them (-headers DIR in place of -set: your toolkit's)
//	cugen ir -headers DIR [-out F]   the parsed IR as JSON (gzip-compressed if F ends in .gz)
//	cugen diff -old set:12.4 -new set:13.0   what changed in the API between two header sets
//	cugen doctor [-major 12] [-lib cudart] [-v]   what is wrong, with advice, and a line per library group (in a module: the libraries it generated); -v: where each loads from, versions, devices
//	cugen kernels -src k.cu -out kernels   your kernels as typed Go functions: compiled by NVRTC now (no GPU), cubins and PTX embedded
//
// Commands for cugen's maintainers (they keep headers.lock, the cache and
// generated/ of this repository):
//
//	cugen headers -set 12.4          fetch and verify a locked header set, print its directory
//	cugen lock -set 12.4             pin every header the parse reads in headers.lock
//	cugen libs -lib libcudart12      fetch and verify a locked library package, print its directory (-lib nvrtc,cublas: gen's names, as -major 12 nvrtc cublas)
//	eval "$(cugen libs -major 12 nvrtc cublas)"   fetch what the libraries need to work, set CUGEN_LIBNVRTC, ..., LD_LIBRARY_PATH
//	eval "$(cugen libs -env -major 12)"   the same for every library Debian packages: make test's environment
//	cugen sys [-check]               write cuda/sys/X (the major-neutral packages) from generated/cudaN/X
//
// The usage (cugen with no command) lists every flag of every command, in
// the same two groups.
//
// Exit status: 0 on success, 1 when the command fails (doctor: when it
// finds something required missing or mismatched; see usage) (its error is the
// last line on stderr), 2 for a usage error (no or an unknown command, an
// unknown flag, one missing its value or with a value it does not take:
// doctor -major 11 or -lib cudnn; the usage is printed).
//
// gen also writes the Go layer, package cuda (cuda/ of this module, as
// the command carries it), as OUT/cuda: for the headers' major, its imports
// rewritten to OUT's import path, without its tests, its NCCL part only
// with package nccl; it needs cu and nvrtc (without them a note says why
// it is not written). -layer=false leaves it out; gen -check checks it.
//
// The command carries headers.lock and cuda/ (package cugen embeds them),
// so it works in any module. From a downstream module (go get -tool
// github.com/cugen/cugen/cmd/cugen; examples/downstream):
//
//	//go:generate go tool cugen gen -set 12.4 -lib cu,cudart,nvrtc -out cuda
//	go tool cugen gen -check -set 12.4 -lib cu,cudart,nvrtc -out cuda   (CI)
//
// Commit OUT (the packages and the layer); ignore OUT/.cugen.lock.
package main
