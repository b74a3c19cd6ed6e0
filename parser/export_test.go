package parser

import "github.com/cugen/cugen/library"

// StubHeaders are the headers the parser supplies (stubHeaders), for the
// tests that compile the same headers with gcc.
var StubHeaders = stubHeaders

// Shadowed is parse.shadowed for a parse of libs whose C library
// directories are libcDirs.
func Shadowed(libcDirs []string, libs []*library.Desc, rel string) string {
	p := &parse{libcDirs: libcDirs, libs: libs}
	return p.shadowed(rel)
}
