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
	// Arrays is where a pointer to pointers keeps its array, where the
	// library's C declares an array of device pointers as a parameter
	// (NPP's planar `const Npp8u * const pSrc[3]`, which C passes as the
	// array's address): HostMemory makes a DeviceMemory row's `T **`
	// a host array of device pointers, a *ffi.DevicePtr[T]. Zero leaves
	// the array in the row's Memory (cuBLAS's Aarray, a device array of
	// device pointers).
	Arrays Memory
}

// MemoryOf returns the rule of o.Memory for parameter param of the C
// function fn and the row's key: the row "fn.param" if there is one, else
// a function pattern's ("*Host.param", then "*Host.*"), else the row
// "param", else the longest pattern that matches param, else the
// library's default row "*". A pattern "pre*" matches a name that starts
// with pre and goes on with an upper-case letter (Hungarian notation:
// "hp*" matches hpBufferSize, not hpx); a pattern "*Suf" matches a name
// that ends with Suf after at least one character (pContoursPixelCountsListHost).
func (o *Overrides) MemoryOf(fn, param string) (MemoryRule, string, bool) {
	if r, ok := o.Memory[fn+"."+param]; ok {
		return r, fn + "." + param, true
	}
	// A function pattern: "*Host.x" for x of every function whose name
	// ends in Host, "*Host.*" for all its pointers (cusolverSp's CPU
	// functions).
	fbest := ""
	for k := range o.Memory {
		f, p, ok := strings.Cut(k, ".")
		if ok && strings.HasPrefix(f, "*") && (p == param || p == "*") && len(fn) > len(f)-1 && strings.HasSuffix(fn, f[1:]) {
			if fbest == "" || p != "*" {
				fbest = k
			}
		}
	}
	if fbest != "" {
		return o.Memory[fbest], fbest, true
	}
	if r, ok := o.Memory[param]; ok {
		return r, param, true
	}
	best := ""
	for k := range o.Memory {
		if len(k) > len(best) && !strings.Contains(k, ".") && memoryPatternMatches(k, param) {
			best = k
		}
	}
	if best != "" {
		return o.Memory[best], best, true
	}
	r, ok := o.Memory["*"]
	return r, "*", ok
}

// memoryPatternMatches reports whether the pattern k ("pre*" or "*Suf")
// matches the parameter name param.
func memoryPatternMatches(k, param string) bool {
	if len(k) < 2 {
		return false
	}
	if pre, ok := strings.CutSuffix(k, "*"); ok {
		rest, ok := strings.CutPrefix(param, pre)
		return ok && rest != "" && 'A' <= rest[0] && rest[0] <= 'Z'
	}
	if suf, ok := strings.CutPrefix(k, "*"); ok {
		return len(param) > len(suf) && strings.HasSuffix(param, suf)
	}
	return false
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
