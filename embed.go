// Package cugen carries, inside the cugen command, the files of this
// module that the command needs wherever it runs: the lock of the header
// sets and libraries (headers.lock) and the source of the Go layer
// (cuda/, package cuda, and its subpackages). So `go tool cugen gen -set
// 12.4` works in any module, with no checkout of cugen: the set is fetched
// from Debian, verified against the embedded lock and cached; and the
// layer is written next to the module's generated packages. Both are the files of the
// module the command is built from, so the checkout's headers.lock and
// cuda/ are, byte for byte, what the binary carries.
package cugen

import "embed"

// HeadersLock is headers.lock.
//
//go:embed headers.lock
var HeadersLock []byte

// Layer holds cuda/*.go, the hand-written Go layer over the generated
// packages of CUDA 12, and cuda/*/*.go, its subpackages (blas, ...;
// internal/layergen rewrites them for a major and an output, and skips
// testdata).
//
//go:embed cuda/*.go cuda/*/*.go
var Layer embed.FS

// IRs holds the IR of each header set of headers.lock that cugen carries
// (internal/carried lists which file is which set's), gzip-compressed:
// gen -set then needs no download and no parse.
//
//go:embed generated/ir/*.json.gz generated/cuda12/ir*.json.gz generated/cuda13/ir*.json.gz
var IRs embed.FS
