// Package sample holds what the programs under examples/ share: the error
// check every one of them exits through (Check, the samples'
// checkCudaErrors), the ports of NVIDIA's cuda-samples' helper behaviour
// (device selection and its printed line, the C library's rand()), and the
// timing of the math library examples (Timed, TimedEach).
package sample

import (
	"fmt"
	"os"

	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cudart"
)

// Check is the samples' checkCudaErrors: for a non-nil err it prints, on
// stderr, the line that called Check, the C function that failed and the
// error's C name and message (cudart.Check's report), then exits with
// status 1. cudart.CheckHelper makes the report name Check's caller, not
// this function.
func Check(err error) {
	cudart.CheckHelper()
	if !cudart.Check(err) {
		os.Exit(1)
	}
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
