package dnn

import (
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cudnn"
)

// backend is the part of cuDNN's backend API the package calls: cuDNN
// itself, or a fake that records the calls in the CPU tests.
type backend interface {
	create(t cudnn.BackendDescriptorType) (cudnn.BackendDescriptor, error)
	destroy(d cudnn.BackendDescriptor) error
	set(d cudnn.BackendDescriptor, name cudnn.BackendAttributeName, typ cudnn.BackendAttributeType, n int64, p unsafe.Pointer) error
	get(d cudnn.BackendDescriptor, name cudnn.BackendAttributeName, typ cudnn.BackendAttributeType, req int64, n *int64, p unsafe.Pointer) error
	finalize(d cudnn.BackendDescriptor) error
	execute(h cudnn.Handle, plan, pack cudnn.BackendDescriptor) error
}

// lib is cuDNN.
type lib struct{}

func (lib) create(t cudnn.BackendDescriptorType) (cudnn.BackendDescriptor, error) {
	var d cudnn.BackendDescriptor
	err := cudnn.BackendCreateDescriptor(t, &d)
	return d, err
}

func (lib) destroy(d cudnn.BackendDescriptor) error { return cudnn.BackendDestroyDescriptor(d) }

func (lib) set(d cudnn.BackendDescriptor, name cudnn.BackendAttributeName, typ cudnn.BackendAttributeType, n int64, p unsafe.Pointer) error {
	return cudnn.BackendSetAttribute(d, name, typ, n, p)
}

func (lib) get(d cudnn.BackendDescriptor, name cudnn.BackendAttributeName, typ cudnn.BackendAttributeType, req int64, n *int64, p unsafe.Pointer) error {
	return cudnn.BackendGetAttribute(d, name, typ, req, n, p)
}

func (lib) finalize(d cudnn.BackendDescriptor) error { return cudnn.BackendFinalize(d) }

func (lib) execute(h cudnn.Handle, plan, pack cudnn.BackendDescriptor) error {
	return cudnn.BackendExecute(h, plan, pack)
}

// lastError is cuDNN's text for the last failed call of this thread
// (cudnnGetLastErrorString), or "" when it has none.
func lastError() string {
	var buf [1024]byte
	cudnn.GetLastErrorString(&buf[0], uint64(len(buf)))
	n := 0
	for n < len(buf) && buf[n] != 0 {
		n++
	}
	return string(buf[:n])
}
