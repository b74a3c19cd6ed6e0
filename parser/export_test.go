package parser

import "github.com/cugen/cugen/library"

// Shadowed is parse.shadowed for a parse of libs whose C library
// directories are libcDirs.
func Shadowed(libcDirs []string, libs []*library.Desc, rel string) string {
	p := &parse{libcDirs: libcDirs, libs: libs}
	return p.shadowed(rel)
}

// WatchGates calls f each time a gate of the second pass opens (see
// pipeline.go) with where the first pass stood: the top-level #includes
// it had finished, and whether it had ended. Not safe with parses running
// in parallel.
func WatchGates(f func(after, units int, done bool)) (restore func()) {
	gateOpened = f
	return func() { gateOpened = nil }
}
