//go:build !((linux && (amd64 || arm64)) || (windows && amd64))

package doctor

import (
	"errors"
	"io"
)

// Run fails: the libraries are loaded only on linux/amd64 and linux/arm64.
func Run(w io.Writer, o Options) (Report, error) {
	return Report{}, errors.New("cugen doctor: supported on linux/amd64 and linux/arm64 only")
}
