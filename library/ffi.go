//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package library

import "github.com/cugen/cugen/ffi"

// LibraryDesc returns the ffi.LibraryDesc the generated package declares
// for s (its load.go literal, as a value), with driver as its Driver when
// s.NeedsDriver. cugen doctor loads libraries through it.
func (s LoadSpec) LibraryDesc(driver *ffi.Library) ffi.LibraryDesc {
	d := ffi.LibraryDesc{
		Name:        s.Name,
		EnvVar:      s.EnvVar,
		Files:       s.Files,
		Wheels:      s.Wheels,
		ToolkitDirs: s.ToolkitDirs,
		WSL:         s.WSL,
		Identify:    s.Identify,
	}
	switch c := s.Check; c.Func {
	case "PropertyMajor":
		d.Validate = ffi.PropertyMajor(c.Title, c.Symbol, c.Major)
	case "LibraryMajor":
		d.Validate = ffi.LibraryMajor(c.Title, c.Symbol, c.TwoInts, c.Major)
	case "StructMajor":
		d.Validate = ffi.StructMajor(c.Title, c.Symbol, c.Major)
	}
	if c := s.Check; c.InDependency {
		d.Validate = ffi.InDependency(c.Symbol, d.Validate)
	}
	if v := s.Version; v.Symbol != "" {
		d.Version = ffi.VersionText(v.Prefix, v.Symbol, int(v.Form))
	}
	if s.NeedsDriver {
		d.Driver = driver
	}
	return d
}
