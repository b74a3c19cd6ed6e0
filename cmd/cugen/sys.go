package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cugen/cugen/internal/sysgen"
)

// cmdSys writes the major-neutral packages (cuda/sys/...) from the
// committed generated packages of every CUDA major, or with -check lists
// the stale files.
func cmdSys(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sys", flag.ContinueOnError)
	root := fs.String("root", ".", "root of the cugen module (the directory of its go.mod)")
	check := fs.Bool("check", false, "write nothing; fail listing the files of "+sysgen.Dir+" that differ from what cugen sys writes")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *check {
		stale, err := sysgen.Stale(*root)
		if err != nil {
			return err
		}
		if len(stale) > 0 {
			return errors.New("cugen sys: stale files (run cugen sys): " + strings.Join(stale, ", "))
		}
		fmt.Fprintf(stdout, "cugen sys: %s is up to date\n", sysgen.Dir)
		return nil
	}
	if err := sysgen.Write(*root, stderr); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "cugen sys: generated/cudaN/{%s} -> %s\n", strings.Join(sysgen.Packages, ","), sysgen.Dir)
	return nil
}
