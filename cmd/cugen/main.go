// Command cugen generates Go packages for the CUDA driver and runtime APIs
// from the CUDA headers. See README.md.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/cugen/cugen/parser"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "ir":
		err = cmdIR(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: cugen ir -headers DIR")
	os.Exit(2)
}

func cmdIR(args []string) error {
	fs := flag.NewFlagSet("ir", flag.ExitOnError)
	dir := fs.String("headers", "", "CUDA include directory")
	fs.Parse(args)
	api, err := parser.Parse(*dir)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(api)
}
