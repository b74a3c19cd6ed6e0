package cuda

// GPU tests of launch attributes, occupancy and kernel attributes; they
// skip without a device (gpuContext) or NVRTC (needNVRTC).

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// cudaInclude returns -I of the CUDA toolkit's include directory, for
// cooperative_groups.h (NVRTC does not carry it), from CUDA_HOME or
// CUDA_PATH, else the usual /usr/local/cuda; the test skips without one.
// CUDA 13 moved the CCCL headers that cooperative_groups.h includes
// (<nv/target>, <cuda/std/...>) to include/cccl: that directory too, where
// it exists (found on the H200: without it NVRTC 13 failed to compile).
func cudaInclude(t *testing.T) []string {
	t.Helper()
	for _, d := range []string{os.Getenv("CUDA_HOME"), os.Getenv("CUDA_PATH"), "/usr/local/cuda"} {
		if d == "" {
			continue
		}
		inc := filepath.Join(d, "include")
		if _, err := os.Stat(filepath.Join(inc, "cooperative_groups.h")); err == nil {
			opts := []string{"-I" + inc}
			if st, err := os.Stat(filepath.Join(inc, "cccl")); err == nil && st.IsDir() {
				opts = append(opts, "-I"+filepath.Join(inc, "cccl"))
			}
			return opts
		}
	}
	t.Skip("no CUDA toolkit include directory with cooperative_groups.h (set CUDA_HOME)")
	return nil
}

func smCount(t *testing.T, c *Context) int {
	t.Helper()
	n, err := c.Device().Attribute(cu.DeviceAttributeMultiprocessorCount)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

const gridSyncSource = `
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Each thread writes its part of a, the grid synchronises, and each
// thread reads what the other end of the grid wrote.
extern "C" __global__ void mirror(int *a, int *b, int n)
{
    cg::grid_group g = cg::this_grid();
    for (int j = g.thread_rank(); j < n; j += g.size()) a[j] = j + 1;
    g.sync();
    for (int j = g.thread_rank(); j < n; j += g.size()) b[j] = a[n - 1 - j];
}
`

// TestGPUCooperativeLaunch: a cooperative launch of a full device's grid
// synchronises its grid (every element read after the grid's sync is the
// value another block wrote before it), and one grid too many is the
// driver's CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE.
func TestGPUCooperativeLaunch(t *testing.T) {
	c := gpuContext(t)
	needNVRTC(t)
	m, err := c.ModuleFromSource(Source{Code: gridSyncSource, Options: cudaInclude(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	k, err := m.Kernel("mirror")
	if err != nil {
		t.Fatal(err)
	}
	const block = 256
	perSM, err := k.MaxActiveBlocksPerSM(block, 0)
	if err != nil || perSM < 1 {
		t.Fatalf("MaxActiveBlocksPerSM: %d, %v", perSM, err)
	}
	grid := perSM * smCount(t, c)
	n := grid * block * 3
	a, err := Alloc[int32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Alloc[int32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	cfg := Config{Grid: Dim3{X: uint32(grid)}, Block: Dim3{X: block}, Cooperative: true}
	if err := k.Launch(cfg, a, b, int32(n)); err != nil {
		t.Fatal(err)
	}
	got := make([]int32, n)
	if err := b.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	for j, v := range got {
		if v != int32(n-j) {
			t.Fatalf("b[%d] = %d, want %d (grid %d of %d)", j, v, n-j, grid, block)
		}
	}
	cfg.Grid.X++
	if err := k.Launch(cfg, a, b, int32(n)); !errors.Is(err, cu.ErrorCooperativeLaunchTooLarge) {
		t.Fatalf("a cooperative grid one block too large: %v", err)
	}
}

const clusterSource = `
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void where(unsigned *out)
{
    cg::cluster_group cl = cg::this_cluster();
    if (threadIdx.x == 0) out[blockIdx.x] = cl.block_rank() | cl.num_blocks() << 8;
}
`

// TestGPUClusterLaunch: on sm_90 and newer, Config.Cluster groups the
// grid's blocks into clusters of that size (each block reads its rank and
// its cluster's size on the device); without it each block is its own.
func TestGPUClusterLaunch(t *testing.T) {
	c := gpuContext(t)
	needNVRTC(t)
	if major, _, err := c.Device().ComputeCapability(); err != nil || major < 9 {
		t.Skipf("thread block clusters need sm_90: %d, %v", major, err)
	}
	m, err := c.ModuleFromSource(Source{Code: clusterSource, Options: cudaInclude(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	k, err := m.Kernel("where")
	if err != nil {
		t.Fatal(err)
	}
	const grid = 16
	out, err := Alloc[uint32](c, grid)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	for _, cl := range []uint32{0, 2, 4, 8} {
		if err := k.Launch(Config{Grid: Dim3{X: grid}, Block: Dim3{X: 64}, Cluster: Dim3{X: cl}}, out); err != nil {
			t.Fatalf("cluster %d: %v", cl, err)
		}
		got := make([]uint32, grid)
		if err := out.CopyTo(got); err != nil {
			t.Fatal(err)
		}
		size := max(cl, 1)
		for i, v := range got {
			if rank, n := v&0xff, v>>8; rank != uint32(i)%size || n != size {
				t.Fatalf("cluster %d: block %d has rank %d of %d, want %d of %d", cl, i, rank, n, uint32(i)%size, size)
			}
		}
	}
	var ce *ConfigError
	if err := k.Launch(Config{Grid: Dim3{X: 6}, Block: Dim3{X: 64}, Cluster: Dim3{X: 4}}, out); !errors.As(err, &ce) {
		t.Fatalf("grid 6 in clusters of 4: %v, want a *ConfigError", err)
	}
}

// TestGPULaunchPriority: launches with a priority and with programmatic
// stream serialization (cuLaunchKernelEx) compute what cuLaunchKernel's
// do, and allocate nothing.
func TestGPULaunchPriority(t *testing.T) {
	c := gpuContext(t)
	saxpy, empty := gpuKernels(t, c)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 1000
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), 1
	}
	dx, err := AllocFrom(c, x)
	if err != nil {
		t.Fatal(err)
	}
	defer dx.Close()
	dy, err := AllocFrom(c, y)
	if err != nil {
		t.Fatal(err)
	}
	defer dy.Close()
	cfg := ForN(n, 128).On(s)
	cfg.Priority = -1
	if err := saxpy.Launch(cfg, float32(2), dx, dy, int32(n)); err != nil {
		t.Fatal(err)
	}
	cfg.Priority, cfg.ProgrammaticStreamSerialization = 0, true
	if err := saxpy.Launch(cfg, float32(2), dx, dy, int32(n)); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, n)
	if err := dy.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if want := 4*float32(i) + 1; v != want {
			t.Fatalf("y[%d] = %v, want %v", i, v, want)
		}
	}
	ecfg := Config{Grid: Dim3{X: 1}, Block: Dim3{X: 32}, Stream: s, Priority: -1}
	allocs := testing.AllocsPerRun(100, func() {
		if err := empty.Launch(ecfg); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a launch through cuLaunchKernelEx, want 0", allocs)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
}

// TestGPUOccupancy: the occupancy of saxpy from the driver is in the
// device's bounds, the suggested block size is at least as occupying as
// every other, and a shared memory function that makes blocks above 128
// threads impossible (more than the 48 KiB a kernel gets without opting
// in) steers the suggestion to 128 or fewer: the Go function ran.
func TestGPUOccupancy(t *testing.T) {
	c := gpuContext(t)
	saxpy, _ := gpuKernels(t, c)
	maxThreads, err := c.Device().Attribute(cu.DeviceAttributeMaxThreadsPerMultiprocessor)
	if err != nil {
		t.Fatal(err)
	}
	occ := func(block, shared int) int {
		t.Helper()
		n, err := saxpy.MaxActiveBlocksPerSM(block, shared)
		if err != nil {
			t.Fatal(err)
		}
		return n * block
	}
	if got := occ(256, 0); got < 256 || got > maxThreads {
		t.Fatalf("%d threads of saxpy per multiprocessor at blocks of 256, want 256 to %d", got, maxThreads)
	}
	// More shared memory than a block may have: no block fits (the driver
	// answers 0 or refuses the size).
	if n, err := saxpy.MaxActiveBlocksPerSM(256, 200<<10); err == nil && n != 0 {
		t.Fatalf("blocks of 200 KiB of shared memory without opting in: %d per multiprocessor, want 0", n)
	}
	block, minGrid, err := saxpy.SuggestBlockSize(0, 0)
	if err != nil || block <= 0 || block > 1024 || minGrid <= 0 {
		t.Fatalf("SuggestBlockSize: %d, %d, %v", block, minGrid, err)
	}
	best := occ(block, 0)
	for b := 32; b <= 1024; b += 32 {
		if o := occ(b, 0); o > best {
			t.Fatalf("blocks of %d occupy %d threads, more than the suggested %d's %d", b, o, block, best)
		}
	}
	calls := 0
	block, _, err = saxpy.SuggestBlockSizeFunc(func(b int) int {
		calls++
		if b > 128 {
			return 200 << 10
		}
		return 0
	}, 0)
	if err != nil || block <= 0 || block > 128 || calls == 0 {
		t.Fatalf("SuggestBlockSizeFunc: block %d, %v, the function called %d times; want at most 128", block, err, calls)
	}
}

const attrSource = `
extern "C" __global__ void __launch_bounds__(256) staged(float *p, int n)
{
    __shared__ float s[1024];
    extern __shared__ float dyn[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? p[i] : 0;
    dyn[threadIdx.x] = 1;
    __syncthreads();
    if (i < n) p[i] = s[blockDim.x - 1 - threadIdx.x] + dyn[threadIdx.x];
}
`

// TestGPUKernelAttributes: Attributes reads what the compiler put in the
// kernel (launch bounds, static shared memory, the architecture), and a
// launch with more than 48 KiB of dynamic shared memory fails until
// SetMaxDynamicSharedMemory opts in, then runs.
func TestGPUKernelAttributes(t *testing.T) {
	c := gpuContext(t)
	needNVRTC(t)
	major, minor, err := c.Device().ComputeCapability()
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.ModuleFromSource(Source{Code: attrSource})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	k, err := m.Kernel("staged")
	if err != nil {
		t.Fatal(err)
	}
	a, err := k.Attributes()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", a)
	if a.MaxThreadsPerBlock <= 0 || a.MaxThreadsPerBlock > 256 {
		t.Errorf("MaxThreadsPerBlock %d, want 1 to 256 (__launch_bounds__(256))", a.MaxThreadsPerBlock)
	}
	if a.SharedSizeBytes != 4096 {
		t.Errorf("SharedSizeBytes %d, want 4096", a.SharedSizeBytes)
	}
	if a.NumRegs <= 0 {
		t.Errorf("NumRegs %d", a.NumRegs)
	}
	if cc := major*10 + minor; a.BinaryVersion != cc {
		t.Errorf("BinaryVersion %d, want %d", a.BinaryVersion, cc)
	}
	if a.PTXVersion <= 0 || a.PTXVersion > major*10+minor {
		t.Errorf("PTXVersion %d", a.PTXVersion)
	}

	const n = 256
	p, err := AllocFrom(c, make([]float32, n))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	big := Config{Grid: Dim3{X: 1}, Block: Dim3{X: n}, SharedMem: 100 << 10}
	if err := k.Launch(big, p, int32(n)); !errors.Is(err, cu.ErrorInvalidValue) {
		t.Fatalf("100 KiB of dynamic shared memory before opting in: %v, want CUDA_ERROR_INVALID_VALUE", err)
	}
	if err := k.SetMaxDynamicSharedMemory(100 << 10); err != nil {
		t.Fatal(err)
	}
	if a, err := k.Attributes(); err != nil || a.MaxDynamicSharedSizeBytes != 100<<10 {
		t.Fatalf("MaxDynamicSharedSizeBytes %d, %v; want %d", a.MaxDynamicSharedSizeBytes, err, 100<<10)
	}
	if err := k.Launch(big, p, int32(n)); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, n)
	if err := p.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if v != 1 {
			t.Fatalf("p[%d] = %v, want 1", i, v)
		}
	}
}

// TestLaunchSourcesCompile: the CUDA C++ of the GPU tests above compiles
// with NVRTC for sm_90, without a device (it skips without NVRTC or the
// toolkit's cooperative_groups.h).
func TestLaunchSourcesCompile(t *testing.T) {
	needNVRTC(t)
	inc := cudaInclude(t)
	for _, src := range []string{gridSyncSource, clusterSource, attrSource} {
		if _, err := Compile(Source{Code: src, Arch: "sm_90", Options: inc}); err != nil {
			t.Fatal(err)
		}
	}
}
