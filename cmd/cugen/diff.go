package main

import (
	"encoding/json"
	"errors"
	"flag"
	"io"
	"strings"

	"github.com/cugen/cugen/internal/apidiff"
	"github.com/cugen/cugen/internal/gen"
	"github.com/cugen/cugen/parser/ir"
)

// cmdDiff prints what changed in the CUDA API between two header sets:
//
//	cugen diff -old set:11.8 -new set:12.4 [-lock FILE] [-json]
//	cugen diff -old /usr/local/cuda-12.4/include -new /usr/local/cuda/include
func cmdDiff(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	oldArg := fs.String("old", "", "old headers: a CUDA include directory, set:NAME of the lock file, or ir:FILE")
	newArg := fs.String("new", "", "new headers: a CUDA include directory, set:NAME of the lock file, or ir:FILE")
	lockPath := fs.String("lock", "", "lock file for set:NAME (default: the headers.lock cugen carries)")
	asJSON := fs.Bool("json", false, "write the report as JSON")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *oldArg == "" || *newArg == "" {
		return errors.New("cugen diff: -old and -new are required")
	}
	oldAPI, err := parseHeaders(*oldArg, *lockPath, stderr)
	if err != nil {
		return err
	}
	newAPI, err := parseHeaders(*newArg, *lockPath, stderr)
	if err != nil {
		return err
	}
	r := apidiff.Compare(oldAPI, newAPI)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return r.WriteText(stdout)
}

// parseHeaders parses a header directory, or the lock entry named by
// "set:NAME", fetched and verified, or reads "ir:FILE" (cugen ir output, for
// a header set that exists only on another machine).
func parseHeaders(arg, lockPath string, stderr io.Writer) (*ir.API, error) {
	if file, ok := strings.CutPrefix(arg, "ir:"); ok {
		return gen.ReadIR(file)
	}
	src := &gen.Source{Lock: lockPath}
	if name, ok := strings.CutPrefix(arg, "set:"); ok {
		src.Set = name
	} else {
		src.Headers = arg
	}
	api, _, err := src.Parse(stderr)
	return api, err
}
