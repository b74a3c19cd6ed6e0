// Package main is a downstream module: it generates its own CUDA bindings
// with cugen, as any module does, from a header set cugen pins (set 12.4:
// Debian's CUDA 12.4 headers, fetched, verified against the headers.lock
// cugen carries and cached; no toolkit and no checkout of cugen needed):
//
//	go get -tool github.com/cugen/cugen/cmd/cugen   (once: the tool line in go.mod)
//	go generate ./...
//
// The go:generate line below writes the packages of the libraries it names
// with -lib, ./cuda/cu, ./cuda/cudart and ./cuda/nvrtc, and the Go layer
// over them, ./cuda/cuda (package cuda: contexts, buffers, NVRTC, kernel
// launches; cugen's cuda/, its imports rewritten to this module). cugen
// never touches a file it did not generate, such as this one.
//
// What a module commits: the generated directory (./cuda: its packages
// are code the module builds with, and each package's api.txt is the C API
// it binds, reviewed in a diff like any change). What it ignores:
// cuda/.cugen.lock, the lock two cugen runs take turns on. This example,
// in cugen's repository, ignores ./cuda as well, so that cugen's CI proves
// the generation works from a clean copy.
//
// Its CI checks the bindings, writing nothing:
//
//	go tool cugen gen -check -set 12.4 -lib cu,cudart,nvrtc -out cuda
//
// An upgrade is one edit: -set 12.4 becomes -set 12.5 here (and in the
// check). The check then fails, printing what the new headers change in
// the API (against cuda/cu/api.txt, ...) and each generated file that
// would change; go generate updates them and the check passes again.
// cugen's make test runs exactly this, from 12.4 to 12.5, in a copy of
// this module outside cugen's tree (make downstream).
//
// With a CUDA toolkit installed instead, -headers /usr/local/cuda/include
// takes its headers in place of -set.
package main

//go:generate go tool cugen gen -set 12.4 -lib cu,cudart,nvrtc -out cuda
