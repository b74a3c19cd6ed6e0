package parser

import "github.com/cugen/cugen/library"

// Shadowed is parse.shadowed for a parse of libs whose C library
// directories are libcDirs.
func Shadowed(libcDirs []string, libs []*library.Desc, rel string) string {
	p := &parse{libcDirs: libcDirs, libs: libs}
	return p.shadowed(rel)
}
