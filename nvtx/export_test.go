//go:build linux && (amd64 || arm64)

package nvtx

import "sync"

// reattach forgets the attached library and makes the next call attach
// the one at path ("" for none), as a new process would.
func reattach(path string) {
	initOnce = sync.Once{}
	on.Store(false)
	status = nil
	injectionPath = func() string { return path }
}
