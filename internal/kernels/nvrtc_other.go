//go:build !(linux && (amd64 || arm64))

package kernels

import "errors"

// NVRTC is NVRTC where cugen can call it: not on this platform yet.
type NVRTC struct {
	Major   int
	Version [2]int
}

// Output is one compile's result.
type Output struct {
	Image   []byte
	Lowered map[string]string
	Log     string
}

var errPlatform = errors.New("cugen kernels: calling NVRTC needs linux/amd64 or linux/arm64 for now")

// OpenNVRTC fails here.
func OpenNVRTC() (*NVRTC, error) { return nil, errPlatform }

// Compile fails here.
func (n *NVRTC) Compile(src, name string, headers []Header, opts, exprs []string) (*Output, error) {
	return nil, errPlatform
}

// Archs fails here.
func (n *NVRTC) Archs() ([]int, error) { return nil, errPlatform }
