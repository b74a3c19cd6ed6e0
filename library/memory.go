package library

import "strings"

// Memory is where a pointer parameter points, as the library's
// documentation says: the generated type follows it.
type Memory int

const (
	// HostMemory is memory the host reads or writes during the call: the
	// parameter stays a Go pointer (*float32, unsafe.Pointer).
	HostMemory Memory = iota + 1
	// DeviceMemory is memory the library's kernels read or write: the
	// parameter is an ffi.DevicePtr[T] (ffi.DeviceAddr for `void *`), a
	// plain integer, never a Go pointer.
	DeviceMemory
	// HostOrDeviceMemory is one value in host or device memory as a setting
	// of the handle says (cuBLAS's pointer mode): the parameter is an
	// ffi.HostOrDevice[T] (ffi.HostOrDeviceAddr for `void *`), made by
	// ffi.Host(&x) or ffi.Device(p).
	HostOrDeviceMemory
)

func (m Memory) String() string {
	switch m {
	case HostMemory:
		return "host"
	case DeviceMemory:
		return "device"
	case HostOrDeviceMemory:
		return "host or device"
	}
	return "unknown memory"
}

// MemoryRule is one row of Overrides.Memory: the memory and why.
type MemoryRule struct {
	Memory Memory
	// Why is the audit's reason: what the library's documentation says.
	Why string
}

// MemoryOf returns the rule of o.Memory for parameter param of the C
// function fn: the row "fn.param" if there is one, else the row "param".
func (o *Overrides) MemoryOf(fn, param string) (MemoryRule, bool) {
	if r, ok := o.Memory[fn+"."+param]; ok {
		return r, true
	}
	r, ok := o.Memory[param]
	return r, ok
}

// memoryRows adds a row for param of each function of fns to rows.
func memoryRows(rows map[string]MemoryRule, r MemoryRule, param string, fns ...string) {
	for _, fn := range fns {
		rows[fn+"."+param] = r
	}
}

// memoryNames adds a row for each name of the space-separated names.
func memoryNames(rows map[string]MemoryRule, r MemoryRule, names string) {
	for _, n := range strings.Fields(names) {
		rows[n] = r
	}
}
