// Package internal holds the generator's packages that are not its API,
// and this package's doc is their map: every package of the generator
// has a level, and imports only packages of lower levels. TestLevels
// reads the table below and fails on an import that breaks it, or on a
// package of the generator that the table does not place.
//
// Levels, lowest first (paths relative to the module; "." is the module's
// root package, which embeds headers.lock):
//
//	0  .  ffi  cuda/launcher  internal/bounded  internal/flock  internal/namedpipe  internal/panics
//	1  ffi/ffiimpl  parser/ir  internal/genfiles  internal/lock  internal/nvrtcffi
//	2  library  internal/apidiff  cugentest
//	3  parser  internal/libenv  internal/testset
//	4  emit
//	5  internal/carried  internal/layergen  internal/sysgen  internal/doctor
//	6  internal/gen
//	7  internal/kernels
//	8  cmd/cugen
//
// Levels 0-2 are leaves and the data they share: bounded reads, file
// locks, the FFI, the IR and the library registry. Level 3 turns C into
// IR (parser) and level 4 IR into Go (emit, the only importer of
// jennifer). Levels 5-7 are the pipeline's stages, each one command's
// work: carried IR, the layer, package sys, doctor, gen (a Config in,
// files out), kernels. cmd/cugen parses flags and prints.
package internal
