package main

import (
	"errors"
	"flag"
	"fmt"
	"github.com/cugen/cugen/internal/gen"
	"github.com/cugen/cugen/internal/libenv"
	"io"
	"slices"
	"strings"

	"github.com/cugen/cugen/internal/lock"
)

// cmdLibs fetches locked library packages into the cache. With -lib
// and gen's library names (nvrtc,cublas), as -major 12 with those names;
// with -lib and a Debian package's name, that package, printing its
// directory. With -major and
// library names (Go package names), what each library needs at run time
// (library.Desc LockLibs, and those of its Needs), printing the shell
// commands that use them. With -env -major 12, the same for every library
// Debian packages: the test environment of make test.
func cmdLibs(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("libs", flag.ContinueOnError)
	name := fs.String("lib", "", "libraries as gen's -lib names them (nvrtc,cublas: as -major 12 nvrtc cublas), or a Debian package of the lock file (libcudart12: print its directory)")
	major := fs.Int("major", 0, "the CUDA major of the library names given (12; CUDA 13's libraries are not Debian packages)")
	lockPath := fs.String("lock", "", "lock file (default: the headers.lock cugen carries, the one of its module)")
	env := fs.Bool("env", false, "with -major 12 and no names: every library Debian packages, the driver's and NVML's copies too (make test's environment, for tests without a GPU)")
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errFlagPrinted{err}
	}
	names := fs.Args()
	for _, n := range names {
		if strings.HasPrefix(n, "-") {
			return fmt.Errorf("cugen libs: flag %s after the library names: give the flags first (cugen libs -major 12 nvrtc)", n)
		}
	}
	if libs := strings.Split(*name, ","); *name != "" && !slices.ContainsFunc(libs, func(n string) bool { return libraryNamed(n) == nil }) {
		*name, names = "", append(names, libs...) // gen's names: -major 12's
		if *major == 0 {
			*major = 12 // the one Debian packages
		}
	}
	l, err := gen.ReadLock(*lockPath)
	if err != nil {
		return err
	}
	switch {
	case *name != "" && (len(names) > 0 || *major != 0 || *env):
		return errors.New("cugen libs: -lib NAME (a Debian package) or -major N with library names, not both")
	case *env && len(names) > 0:
		return fmt.Errorf("cugen libs: -env takes no library names (it prints every library's): %s", strings.Join(names, " "))
	case *env:
		return libenv.Write(l, *major, nil, true, stdout, stderr)
	case len(names) > 0 || *major != 0:
		return libenv.Write(l, *major, names, false, stdout, stderr)
	}
	if *name == "" {
		var names []string
		for _, e := range l.Entries {
			if e.Kind == lock.KindLib {
				names = append(names, e.Name)
			}
		}
		return fmt.Errorf("cugen libs: -lib NAME is required (the libraries of %s: %s), or -major 12 and library names (%s)",
			l.Path, strings.Join(names, ", "), strings.Join(libraryNames(), ", "))
	}
	e, err := l.Lib(*name)
	if err != nil {
		return err
	}
	dir, err := libenv.Fetch(e, nil)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, dir)
	return nil
}
