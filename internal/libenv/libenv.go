// Package libenv is cugen libs -major: it fetches the Debian packages
// that libraries need at run time (library.Desc.LockLibs, and those of
// their Needs), verified against the lock, and prints the shell lines
// that make a generated package find them.
package libenv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cugen/cugen/internal/lock"
	"github.com/cugen/cugen/library"
)

// Fetch fetches e into the cache, or finds it there; logw (nil:
// discarded) gets the progress of a download.
func Fetch(e *lock.Entry, logw io.Writer) (string, error) {
	return lock.Fetch(context.Background(), e, "", logw) // "": the default cache
}

// Write fetches the run-time libraries of the libraries named (Go
// package names) for CUDA major, and prints for a shell to eval: an
// export of each named library's variable (CUGEN_LIBNVRTC) to its shared
// object, and, when a named library needs others the loader finds by
// soname (NVRTC's builtins, cuBLAS's cuBLASLt), an LD_LIBRARY_PATH with
// their directories first.
//
// With env (no names), it does that for every library with a locked
// Debian package, and the driver's libraries too (libcuda, NVML), whose
// Debian copies load without a GPU: the environment make test runs its
// tests in. Their directory stays off LD_LIBRARY_PATH (the variable
// names the file): nvJitLink 12.4 opens libcuda.so.1 itself when the
// loader finds one, and a driver without a device makes nvJitLinkCreate
// fail with NVJITLINK_ERROR_INTERNAL. The runtime's directory goes on it,
// as the toolkit's lib64 is on a CUDA machine's; no other library's does,
// so the tests of the search (internal/doctor's TestNVTXAdvice) find
// those only through their variables.
func Write(l *lock.Lock, major int, names []string, env bool, stdout, stderr io.Writer) error {
	if len(names) == 0 && !env {
		return fmt.Errorf("cugen libs: -major %d: name the libraries (%s)", major, strings.Join(library.Packages(library.All), ", "))
	}
	var descs []*library.Desc
	for _, n := range names {
		d := library.Named(library.All, n)
		if d == nil {
			return fmt.Errorf("cugen libs: no library %q (the libraries: %s; -lib NAME takes a Debian package of %s)", n, strings.Join(library.Packages(library.All), ", "), l.Path)
		}
		if !d.Load.PerMajor() {
			return fmt.Errorf("cugen libs: %s: %s comes with the NVIDIA driver, which must match the kernel module: install the driver (-lib %s fetches Debian's copy, for tests without a GPU)",
				n, strings.Join(d.Load.FilesFor(0), " or "), strings.Join(d.LockLibs, ", "))
		}
		if !slices.Contains(descs, d) {
			descs = append(descs, d)
		}
	}
	if env {
		for _, d := range library.All {
			if len(d.LockLibs) > 0 { // not cuDNN, cuSPARSELt (Desc.Unlocked)
				descs = append(descs, d)
			}
		}
	}
	switch major {
	case 12:
	case 13:
		var ways []string
		for _, d := range descs {
			if pip := d.Load.PipPackage(13); pip != "" {
				ways = append(ways, fmt.Sprintf("%s: pip install %s", d.Package, pip))
			}
		}
		text := "cugen libs: -major 13: Debian has no CUDA 13 packages, so cugen locks none: CUDA 13's libraries come from the CUDA 13 toolkit or NVIDIA's pip wheels"
		if len(ways) > 0 {
			text += " (" + strings.Join(ways, "; ") + ")"
		}
		return errors.New(text + "; set each library's variable (CUGEN_LIB...) to its file, or let the search find them")
	case 0:
		if env {
			return errors.New("cugen libs: -env: -major 12 is required (the CUDA major of the libraries)")
		}
		return fmt.Errorf("cugen libs: %s: -major 12 is required (the CUDA major of the libraries)", strings.Join(names, " "))
	default:
		return fmt.Errorf("cugen libs: -major %d: cugen fetches the libraries of CUDA 12 (Debian's packages)", major)
	}

	// What to fetch: each named library's packages and those of the
	// libraries it needs; the directories the loader must search are
	// those of every package but the named library's own shared object.
	type pkg struct {
		entry *lock.Entry
		dir   string
		path  bool // on LD_LIBRARY_PATH
	}
	var pkgs []*pkg
	add := func(d *library.Desc, name string, path bool) error {
		for _, p := range pkgs {
			if p.entry.Name == name {
				p.path = p.path || path
				return nil
			}
		}
		e, err := l.Lib(name)
		if err != nil {
			return fmt.Errorf("cugen libs: %s: %w", d.Package, err)
		}
		pkgs = append(pkgs, &pkg{entry: e, path: path})
		return nil
	}
	own := map[*library.Desc]string{} // a named library's package holding its shared object
	for _, d := range descs {
		if len(d.LockLibs) == 0 || len(d.Load.FilesFor(12)) == 0 {
			return fmt.Errorf("cugen libs: %s: no Debian package is locked for it", d.Package)
		}
		run, err := d.RunTime(library.All)
		if err != nil {
			return fmt.Errorf("cugen libs: %w", err)
		}
		for _, r := range run {
			for i, name := range r.LockLibs {
				path := (r != d || i > 0 || env && r == library.Runtime) && r.Load.PerMajor()
				if err := add(r, name, path); err != nil {
					return err
				}
			}
		}
		own[d] = d.LockLibs[0]
	}
	for _, p := range pkgs {
		dir, err := Fetch(p.entry, stderr)
		if err != nil {
			return err
		}
		p.dir = dir
	}
	dirOf := func(name string) string {
		for _, p := range pkgs {
			if p.entry.Name == name {
				return p.dir
			}
		}
		return ""
	}
	done := map[string]bool{} // cuBLASXt is libcublas too: one line for CUGEN_LIBCUBLAS
	for _, d := range descs {
		if !done[d.Load.EnvVar] {
			done[d.Load.EnvVar] = true
			fmt.Fprintf(stdout, "export %s=%s\n", d.Load.EnvVar, shellQuote(filepath.Join(dirOf(own[d]), d.Load.FilesFor(12)[0])))
		}
	}
	var dirs []string
	for _, p := range pkgs {
		if p.path && !slices.Contains(dirs, p.dir) {
			// Fetch checked the cache's directory; this is where a
			// ':' would split the list, so it is checked where it is made.
			if err := lock.CheckListDir(p.dir); err != nil {
				return fmt.Errorf("cugen libs: LD_LIBRARY_PATH: %s: %w", p.dir, err)
			}
			dirs = append(dirs, p.dir)
		}
	}
	if len(dirs) > 0 {
		fmt.Fprintf(stdout, "export LD_LIBRARY_PATH=%s\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"\n", shellQuote(strings.Join(dirs, ":")))
	}
	return nil
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
