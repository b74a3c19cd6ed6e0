package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cugen/cugen/internal/layergen"
)

// cmdLayer writes the Go layer (layer/) for every CUDA major as
// generated/cudaN/cuda, or with -check lists the stale copies.
func cmdLayer(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("layer", flag.ContinueOnError)
	root := fs.String("root", ".", "root of the cugen module (the directory of its go.mod)")
	check := fs.Bool("check", false, "write nothing; fail listing the copies that differ from layer/")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *check {
		stale, err := layergen.Stale(*root)
		if err != nil {
			return err
		}
		if len(stale) > 0 {
			return errors.New("cugen layer: stale copies of layer/ (run cugen layer): " + strings.Join(stale, ", "))
		}
		fmt.Fprintln(stdout, "cugen layer: generated/cudaN/cuda are up to date")
		return nil
	}
	if err := layergen.Write(*root, stderr); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "cugen layer: layer/ -> %s\n", strings.Join(outDirs(), ", "))
	return nil
}

func outDirs() []string {
	var d []string
	for _, m := range layergen.Majors {
		d = append(d, layergen.OutDir(m))
	}
	return d
}
