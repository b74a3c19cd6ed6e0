package gen

import (
	"errors"

	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"
)

// genDesc is gen -desc: a library description of the user's, generated
// with the driver and runtime descriptions (cu and cudart go to OUT
// beside it: its package imports their types, cudart.Stream for a
// cudaStream_t). Its zero value is a gen without -desc.
type genDesc struct{ file *library.DescFile }

// readDesc reads -desc; "" is none.
func readDesc(file, irFile string) (genDesc, error) {
	if file == "" {
		return genDesc{}, nil
	}
	if irFile != "" {
		return genDesc{}, errors.New("cugen: -desc goes with -headers (an -ir file was parsed without the description)")
	}
	f, err := library.ReadDescFile(file)
	if err != nil {
		return genDesc{}, err
	}
	return genDesc{f}, nil
}

// libraries are the descriptions parsed and generated: nil (library.All)
// without -desc.
func (g genDesc) libraries() []*library.Desc {
	if g.file == nil {
		return nil
	}
	return []*library.Desc{library.Driver, library.Runtime, g.file.Desc}
}

// checkAPI holds the description to the parsed headers
// (library.DescFile.CheckAPI).
func (g genDesc) checkAPI(api *ir.API) error {
	if g.file == nil {
		return nil
	}
	return g.file.CheckAPI(api)
}
