// Package sample holds what the ports of NVIDIA's cuda-samples under
// examples/ share: the samples' helper behaviour (checkCudaErrors, device
// selection and its printed line, the C library's rand()) and the few
// conversions today's generated API still needs. Each conversion sits in one
// function here, so that when the API changes only that function changes.
package sample

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"unsafe"

	"github.com/cugen/cugen/generated/cuda13/cu"
	"github.com/cugen/cugen/generated/cuda13/cudart"
)

// Check is the samples' checkCudaErrors: for a non-nil err it prints the
// caller's file:line and the error (which names the C function, the error's
// C name and the library's message) on stderr and exits with status 1.
//
// It prints by itself instead of calling cudart.Check or cu.Check: today
// those report their own caller with a fixed skip, so wrapped here they would
// name this line, and cudart.Check's text says "runtime error" for a driver
// call too (issue 12, bug 9).
func Check(err error) {
	if err == nil {
		return
	}
	file, line := "?", 0
	if _, f, l, ok := runtime.Caller(1); ok {
		file, line = filepath.Base(f), l
	}
	fmt.Fprintf(os.Stderr, "CUDA error at %s:%d: %v\n", file, line, err)
	os.Exit(1)
}

// KernelFunc turns a kernel handle from cudaLibraryGetKernel into the
// `const void *func` that cudaLaunchKernel, cudaKernelNodeParams.func and
// cudaFuncGetAttributes take: CUDA documents that a cudaKernel_t may be
// passed there. Today cudart.Kernel is a uintptr and those parameters are
// unsafe.Pointer, and converting with unsafe.Pointer(k) is flagged by go vet
// (issue 12, bug 6); unsafe.Add from nil makes the same pointer value
// without a conversion. The handle is memory of the CUDA library, never of
// Go, so the garbage collector has nothing to track in it. When Kernel
// becomes passable as is, callers pass the handle and this function goes.
func KernelFunc(k cudart.Kernel) unsafe.Pointer {
	return unsafe.Add(unsafe.Pointer(nil), uintptr(k))
}

// Dim3 is C++'s dim3(x): {x, 1, 1}. A Go composite literal leaves the
// unnamed fields 0, an invalid launch configuration (issue 12, bug 8).
func Dim3(x uint32) cudart.Dim3 {
	return cudart.Dim3{X: x, Y: 1, Z: 1}
}

// archNames maps a compute capability (major<<4 | minor) to the
// architecture's name, as helper_cuda.h's table does.
var archNames = []struct {
	sm   int32
	name string
}{
	{0x30, "Kepler"}, {0x32, "Kepler"}, {0x35, "Kepler"}, {0x37, "Kepler"},
	{0x50, "Maxwell"}, {0x52, "Maxwell"}, {0x53, "Maxwell"},
	{0x60, "Pascal"}, {0x61, "Pascal"}, {0x62, "Pascal"},
	{0x70, "Volta"}, {0x72, "Xavier"}, {0x75, "Turing"},
	{0x80, "Ampere"}, {0x86, "Ampere"}, {0x87, "Ampere"}, {0x89, "Ada"},
	{0x90, "Hopper"},
	{0xa0, "Blackwell"}, {0xa1, "Blackwell"}, {0xa3, "Blackwell"},
	{0xb0, "Blackwell"}, {0xc0, "Blackwell"}, {0xc1, "Blackwell"},
}

// ArchName returns the architecture name of compute capability
// major.minor; for one it does not know it says so, as the samples do, and
// returns the newest name.
func ArchName(major, minor int32) string {
	for _, a := range archNames {
		if a.sm == major<<4+minor {
			return a.name
		}
	}
	last := archNames[len(archNames)-1].name
	fmt.Printf("MapSMtoArchName for SM %d.%d is undefined.  Default to use %s\n", major, minor, last)
	return last
}

// FindCudaDevice is the runtime samples' findCudaDevice without a -device
// flag: it makes device 0 the calling thread's current device and prints
// its architecture. (The samples pick the device of most GFLOP/s, which is
// device 0 on a machine of one GPU or of identical ones.) The caller must
// have locked its goroutine to the OS thread.
func FindCudaDevice() int32 {
	const dev = 0
	Check(cudart.SetDevice(dev))
	major, err := cudart.DeviceGetAttribute(cudart.DevAttrComputeCapabilityMajor, dev)
	Check(err)
	minor, err := cudart.DeviceGetAttribute(cudart.DevAttrComputeCapabilityMinor, dev)
	Check(err)
	fmt.Printf("GPU Device %d: %q with compute capability %d.%d\n\n", dev, ArchName(major, minor), major, minor)
	return dev
}

// FindCudaDeviceDrv is the driver samples' findCudaDeviceDRV without a
// -device flag: device 0 (see FindCudaDevice), with its name printed. cuInit
// must have been called.
func FindCudaDeviceDrv() cu.Device {
	dev, err := cu.DeviceGet(0)
	Check(err)
	name, err := cu.DeviceGetName(dev)
	Check(err)
	fmt.Printf("> Using CUDA Device [%d]: %s\n", 0, name)
	return dev
}

// RandMax is glibc's RAND_MAX.
const RandMax = 2147483647

// CRand is glibc's rand(): the additive feedback generator behind random(3)
// (TYPE_3: degree 31, separation 3) with srand's seeding, so the ports fill
// their inputs with exactly the numbers the C samples use. The zero value is
// not usable; call NewCRand.
type CRand struct {
	r    [34]int32 // the last 34 states, a ring
	next int       // ring slot of the oldest state, where the next one goes
}

// NewCRand returns the generator srand(seed) sets up; a program that never
// calls srand uses seed 1.
func NewCRand(seed uint32) *CRand {
	if seed == 0 {
		seed = 1 // as glibc
	}
	var r [344]int32 // states 0..343; rand() returns states 344, 345, ... shifted right by 1
	r[0] = int32(seed)
	for i := 1; i < 31; i++ {
		// 16807 * r[i-1] % 2147483647 without overflow (Schrage's method), as glibc.
		hi, lo := r[i-1]/127773, r[i-1]%127773
		w := 16807*lo - 2836*hi
		if w < 0 {
			w += 2147483647
		}
		r[i] = w
	}
	for i := 31; i < 34; i++ {
		r[i] = r[i-31]
	}
	for i := 34; i < len(r); i++ {
		r[i] = int32(uint32(r[i-31]) + uint32(r[i-3])) // glibc discards these 310 states
	}
	g := &CRand{}
	copy(g.r[:], r[len(r)-34:])
	return g
}

// Int returns the next rand() value, in [0, RandMax].
func (g *CRand) Int() int32 {
	// state j = state j-31 + state j-3; the ring holds states j-34 .. j-1,
	// state j-34 in slot k, so j-31 is in slot k+3 and j-3 in slot k+31.
	k := g.next
	v := uint32(g.r[(k+3)%34]) + uint32(g.r[(k+31)%34])
	g.r[k] = int32(v)
	g.next = (k + 1) % 34
	return int32(v >> 1)
}

// Float32 returns rand() / (float)RAND_MAX, computed in float as C does.
func (g *CRand) Float32() float32 {
	return float32(g.Int()) / float32(RandMax)
}
