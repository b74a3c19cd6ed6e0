//go:build linux && (amd64 || arm64)

package nvtx

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"github.com/cugen/cugen/ffi"
	"github.com/ebitengine/purego"
)

// The NVTX 3 modules a tool asks for tables of (NvtxCallbackModule), with
// the number of entries of each table (NVTX_CBID_*_SIZE: entry 0 is
// unused). The order is the enum's, from 1.
var moduleSizes = [...]int{
	1: 16, // CORE
	2: 9,  // CUDA
	3: 15, // OPENCL
	4: 7,  // CUDART
	5: 16, // CORE2
	6: 7,  // SYNC
}

// Entries of the CORE (1) and CORE2 (5) tables this package calls
// (NVTX_CBID_CORE_* and NVTX_CBID_CORE2_*), as indexes of slots.
var (
	fnMarkEx        = slot(1, 1)
	fnMarkA         = slot(1, 2)
	fnStartEx       = slot(1, 4)
	fnStartA        = slot(1, 5)
	fnEnd           = slot(1, 7)
	fnPushEx        = slot(1, 8)
	fnPushA         = slot(1, 9)
	fnPop           = slot(1, 11)
	fnNameCategory  = slot(1, 12)
	fnNameOSThread  = slot(1, 14)
	fnDomainMarkEx  = slot(5, 1)
	fnDomainStartEx = slot(5, 2)
	fnDomainEnd     = slot(5, 3)
	fnDomainPushEx  = slot(5, 4)
	fnDomainPop     = slot(5, 5)
	fnDomainNameCat = slot(5, 8)
	fnDomainCreateA = slot(5, 12)
	fnDomainDestroy = slot(5, 14)
)

// slot returns the index in the slot array of entry i of module m's table.
func slot(m, i int) int {
	base := 0
	for k := 1; k < m; k++ {
		base += moduleSizes[k]
	}
	return base + i
}

// The memory the injection library is given: the two export tables, the
// slots it writes its functions into (one per entry of every module's
// table), and the tables of pointers to the slots. It is mapped outside
// the Go heap, never moves and is never freed: a tool keeps these
// addresses for the life of the process, as it keeps a C program's.
//
//	0    NvtxExportTableCallbacks    {struct_size, GetModuleFunctionTable}
//	16   NvtxExportTableVersionInfo  {struct_size, version, reserved0, SetInjectionNvtxVersion}
//	64   slots                       one uintptr per table entry
//	...  tables                      per module: &slot[i] for i in 1..size-1, NULL at 0 and at size
const (
	offCallbacks = 0
	offVersion   = 16
	offSlots     = 64
)

var (
	mem      []byte // the mapping
	slots    []uintptr
	tables   [len(moduleSizes)]uintptr // address of each module's table
	initOnce sync.Once
	on       atomic.Bool
	status   error
)

// errNoInit is the lookup's failure in a library that is no injection.
var errNoInit = errors.New("no InitializeInjectionNvtx2")

// errNoProfiler is Status's error when NVTX_INJECTION64_PATH is unset.
var errNoProfiler = errors.New("nvtx: no profiler attached (NVTX_INJECTION64_PATH is not set)")

// injectionPath is where the injection library is looked for (a variable
// for the tests).
var injectionPath = func() string { return os.Getenv("NVTX_INJECTION64_PATH") }

// Status returns nil if a profiler's injection library is attached, or
// why none is: not asked for (NVTX_INJECTION64_PATH unset), or the
// library could not be loaded or refused to initialise. It attaches the
// library if no NVTX call has yet.
func Status() error {
	attached()
	return status
}

// attached reports whether a profiler is attached, attaching it on the
// first call.
func attached() bool {
	if on.Load() {
		return true
	}
	initOnce.Do(attach)
	return on.Load()
}

// The C entry points the injection library calls, made once.
var (
	getExportTable = purego.NewCallback(func(id uintptr) uintptr {
		switch uint32(id) {
		case 1: // NVTX_ETID_CALLBACKS
			return uintptr(unsafe.Pointer(&mem[offCallbacks]))
		case 3: // NVTX_ETID_VERSIONINFO
			return uintptr(unsafe.Pointer(&mem[offVersion]))
		}
		return 0
	})
	getModuleFunctionTable = purego.NewCallback(func(module, outTable, outSize uintptr) uintptr {
		m := int(uint32(module))
		if m <= 0 || m >= len(moduleSizes) {
			return 0
		}
		if outSize != 0 {
			*(*uint32)(unsafe.Add(unsafe.Pointer(nil), outSize)) = uint32(moduleSizes[m])
		}
		if outTable != 0 {
			*(*uintptr)(unsafe.Add(unsafe.Pointer(nil), outTable)) = tables[m]
		}
		return 1
	})
	setInjectionVersion = purego.NewCallback(func(uintptr) uintptr { return 0 })
)

// attach maps the tables and loads the injection library NVTX_INJECTION64_PATH
// names, as NVTX 3's nvtxInitializeInjectionLibrary does in C.
func attach() {
	path := injectionPath()
	if path == "" {
		status = errNoProfiler
		return
	}
	if err := layout(); err != nil {
		status = err
		return
	}
	// dlopen of a FIFO or a device blocks or worse: only a regular file.
	if fi, err := os.Stat(path); err != nil {
		status = fmt.Errorf("nvtx: injection library %s (NVTX_INJECTION64_PATH): %w", path, err)
		return
	} else if !fi.Mode().IsRegular() {
		status = fmt.Errorf("nvtx: injection library %s (NVTX_INJECTION64_PATH) is not a regular file", path)
		return
	}
	// dlerror's text is per thread: the load and the lookup, and the
	// reading of their errors, on one locked thread (as ffi loads)
	runtime.LockOSThread()
	h, err := purego.Dlopen(path, purego.RTLD_LAZY|purego.RTLD_LOCAL)
	var init uintptr
	if err == nil {
		init, err = purego.Dlsym(h, "InitializeInjectionNvtx2")
		if err != nil {
			err = errNoInit
		}
	}
	runtime.UnlockOSThread()
	if err != nil && h == 0 {
		status = fmt.Errorf("nvtx: loading the injection library (NVTX_INJECTION64_PATH): %w", err)
		return
	}
	if err != nil {
		purego.Dlclose(h)
		status = fmt.Errorf("nvtx: %s has no InitializeInjectionNvtx2: not an NVTX injection library", path)
		return
	}
	r, err := ffi.Call(init, getExportTable)
	if err != nil || int32(r) == 0 {
		purego.Dlclose(h)
		status = fmt.Errorf("nvtx: %s: InitializeInjectionNvtx2 returned 0 (the tool refused to attach)", path)
		return
	}
	on.Store(true)
}

// layout maps mem and fills the export tables and the module tables.
func layout() error {
	n := 0
	for _, s := range moduleSizes {
		n += s
	}
	size := offSlots + 8*n + 8*(n+len(moduleSizes))
	b, err := syscall.Mmap(-1, 0, (size+4095)&^4095, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return fmt.Errorf("nvtx: mapping the function tables: %w", err)
	}
	mem = b
	put := func(off int, v uintptr) { *(*uintptr)(unsafe.Pointer(&mem[off])) = v }
	put(offCallbacks, 16)
	put(offCallbacks+8, getModuleFunctionTable)
	put(offVersion, 24)
	*(*uint32)(unsafe.Pointer(&mem[offVersion+8])) = 3 // NVTX_VERSION
	put(offVersion+16, setInjectionVersion)
	slots = unsafe.Slice((*uintptr)(unsafe.Pointer(&mem[offSlots])), n)
	t := offSlots + 8*n
	base := 0
	for m := 1; m < len(moduleSizes); m++ {
		tables[m] = uintptr(unsafe.Pointer(&mem[t]))
		// entry 0 and the one past the end stay NULL: a tool that reads
		// off the end crashes rather than corrupting memory, as in C
		for i := 1; i < moduleSizes[m]; i++ {
			put(t+8*i, uintptr(unsafe.Pointer(&slots[base+i])))
		}
		t += 8 * (moduleSizes[m] + 1)
		base += moduleSizes[m]
	}
	return nil
}

// fn returns the injection's function for slot i, 0 for none.
func fn(i int) uintptr {
	return atomic.LoadUintptr(&slots[i])
}

// cstr is s as a NUL-terminated C string on the heap.
func cstr(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	heapSink.Store(&b[0])
	heapSink.Store(nil)
	return b
}

// heapSink makes cstr's bytes escape to the heap, where nothing moves, so
// that their address can go into an attributes struct.
var heapSink atomic.Pointer[byte]

func pushA(msg string) int {
	f := fn(fnPushA)
	if f == 0 {
		return -1
	}
	r, _ := ffi.Call(f, cstr(msg))
	return int(int32(r))
}

func pop() int {
	f := fn(fnPop)
	if f == 0 {
		return -1
	}
	r, _ := ffi.Call(f)
	return int(int32(r))
}

func domainPop(d uintptr) int {
	f := fn(fnDomainPop)
	if f == 0 {
		return -1
	}
	r, _ := ffi.Call(f, d)
	return int(int32(r))
}

func markA(msg string) {
	if f := fn(fnMarkA); f != 0 {
		ffi.Call(f, cstr(msg))
	}
}

func startA(msg string) uint64 {
	f := fn(fnStartA)
	if f == 0 {
		return 0
	}
	r, _ := ffi.Call(f, cstr(msg))
	return uint64(r)
}

// withAttrs calls f with the attributes a (after the domain d, unless 0).
func withAttrs(f, d uintptr, a *Attributes) uintptr {
	msg := cstr(a.Message)
	var b [attrSize]byte
	encode(&b, a, unsafe.Pointer(&msg[0]))
	var r uintptr
	if d != 0 {
		r, _ = ffi.Call(f, d, b[:])
	} else {
		r, _ = ffi.Call(f, b[:])
	}
	runtime.KeepAlive(msg) // the struct points at it
	return r
}

// call1 calls an int- or void-returning function of attributes.
func call1(d uintptr, i int, a Attributes) int {
	f := fn(i)
	if f == 0 {
		return -1
	}
	return int(int32(withAttrs(f, d, &a)))
}

func callRange(d uintptr, i int, a Attributes) uint64 {
	f := fn(i)
	if f == 0 {
		return 0
	}
	return uint64(withAttrs(f, d, &a))
}

func end(d uintptr, i int, id uint64) {
	f := fn(i)
	if f == 0 {
		return
	}
	if d != 0 {
		ffi.Call(f, d, id)
	} else {
		ffi.Call(f, id)
	}
}

func nameCategory(d uintptr, id uint32, name string) {
	if d != 0 {
		if f := fn(fnDomainNameCat); f != 0 {
			ffi.Call(f, d, id, cstr(name))
		}
		return
	}
	if f := fn(fnNameCategory); f != 0 {
		ffi.Call(f, id, cstr(name))
	}
}

func nameThread(tid uint32, name string) {
	if f := fn(fnNameOSThread); f != 0 {
		ffi.Call(f, tid, cstr(name))
	}
}

func domainCreate(name string) uintptr {
	f := fn(fnDomainCreateA)
	if f == 0 {
		return 0
	}
	r, _ := ffi.Call(f, cstr(name))
	return r
}

func domainDestroy(d uintptr) {
	if f := fn(fnDomainDestroy); f != 0 {
		ffi.Call(f, d)
	}
}
