package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cugen/cugen/internal/doctor"
	"github.com/cugen/cugen/internal/gen"
)

// cmdDoctor prints, for every library and CUDA major, what a generated
// package would load, its version, the driver's and the devices, and
// what is wrong; it fails when something required is (see usage).
func cmdDoctor(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	var o doctor.Options
	fs.Func("major", "CUDA major to check (12 or 13; repeatable; default: both): the driver must support it", func(v string) error {
		m, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("not a CUDA major: %q", v)
		}
		o.Majors = append(o.Majors, m)
		return nil
	})
	fs.Func("lib", "library to check, by name or package (runtime or cudart; repeatable or comma-separated; default: all): it must load", func(v string) error {
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n != "" {
				o.Libs = append(o.Libs, n)
			}
		}
		return nil
	})
	fs.BoolVar(&o.Verbose, "v", false, "print every line: where each library loads from or every place tried, versions, devices, every problem (default: at most 25 lines)")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if root, _ := gen.ModuleRoot(); root != "" && len(o.Libs) == 0 {
		// In a module, the libraries it generated (none found: all).
		o.Generated, _ = doctor.Generated(root)
	}
	rep, err := doctor.Run(stdout, o)
	if err != nil {
		// Run's error is for options it does not know (-major 11, -lib
		// cudnn): a usage error, as a flag it cannot parse is, and one
		// line naming the known ones.
		fmt.Fprintln(stderr, err)
		return errFlagPrinted{err}
	}
	switch {
	case rep.Errors == 1:
		return fmt.Errorf("cugen doctor: 1 error (listed above)")
	case rep.Errors > 1:
		return fmt.Errorf("cugen doctor: %d errors (listed above)", rep.Errors)
	}
	return nil
}
