package cuda

import (
	"errors"
	"strings"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// The fake driver's kernel queries: a device of 2048 threads, 32 blocks
// and 100 KiB of shared memory per multiprocessor, 132 multiprocessors.
const (
	fakeSMThreads = 2048
	fakeSMBlocks  = 32
	fakeSMShared  = 100 << 10
	fakeSMs       = 132
)

func (f *fakeDriver) activeBlocks(fn cu.Function, block int32, shared uint64) (int32, error) {
	f.mu.Lock()
	f.queries++
	f.mu.Unlock()
	n := min(fakeSMThreads/block, fakeSMBlocks)
	if shared > 0 {
		n = min(n, int32(fakeSMShared/shared))
	}
	return n, nil
}

// potentialBlockSize searches as cuda_runtime.h's template does: from the
// largest block down by warps, keeping the first of the highest occupancy.
func (f *fakeDriver) potentialBlockSize(fn cu.Function, shared func(int32) uint64, sharedConst uint64, limit int32) (int32, int32, error) {
	if limit == 0 || limit > 1024 { // the driver's: min(limit, the kernel's maximum)
		limit = 1024
	}
	best, bestBlock, bestN := int32(0), int32(0), int32(0)
	for b := limit / 32 * 32; b > 0; b -= 32 {
		s := sharedConst
		if shared != nil {
			s = shared(b)
		}
		n, _ := f.activeBlocks(fn, b, s)
		if n*b > best {
			best, bestBlock, bestN = n*b, b, n
		}
	}
	return bestN * fakeSMs, bestBlock, nil
}

func (f *fakeDriver) funcAttr(fn cu.Function, a cu.FunctionAttribute) (int32, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries++
	if v, ok := f.attrs[a]; ok {
		return v, nil
	}
	return 0, cu.ErrorInvalidValue
}

func (f *fakeDriver) setFuncAttr(fn cu.Function, a cu.FunctionAttribute, v int32) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries++
	if a == cu.FuncAttributeMaxDynamicSharedSizeBytes && v > 227<<10 {
		return cu.ErrorInvalidValue
	}
	if f.attrs == nil {
		f.attrs = map[cu.FunctionAttribute]int32{}
	}
	f.attrs[a] = v
	return nil
}

// TestOccupancy: the occupancy queries reach the driver with the block and
// shared memory given, a Go function for the shared memory included, and
// bad input is a *ConfigError before the driver.
func TestOccupancy(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	m, k, x := fakeKernel(t, f, c)
	defer x.Close()
	for _, tc := range []struct{ block, shared, want int }{
		{256, 0, 8}, {1024, 0, 2}, {32, 0, 32}, {256, 40000, 2}, {128, 60 << 10, 1},
	} {
		n, err := k.MaxActiveBlocksPerSM(tc.block, tc.shared)
		if err != nil || n != tc.want {
			t.Fatalf("MaxActiveBlocksPerSM(%d, %d) = %d, %v; want %d", tc.block, tc.shared, n, err, tc.want)
		}
	}
	b, g, err := k.SuggestBlockSize(0, 0)
	if err != nil || b != 1024 || g != 2*fakeSMs {
		t.Fatalf("SuggestBlockSize(0, 0) = %d, %d, %v; want 1024, %d", b, g, err, 2*fakeSMs)
	}
	if b, _, err := k.SuggestBlockSize(0, 100); err != nil || b != 64 { // 32 blocks of 64: 2048 threads; 21 of 96: 2016
		t.Fatalf("SuggestBlockSize with limit 100 = %d, %v; want 64", b, err)
	}
	// 60 KiB for a block above 256 threads: one block, at most 1024
	// threads; 256 threads with none fill the multiprocessor.
	var asked []int
	b, g, err = k.SuggestBlockSizeFunc(func(block int) int {
		asked = append(asked, block)
		if block > 256 {
			return 60 << 10
		}
		return 0
	}, 0)
	if err != nil || b != 256 || g != 8*fakeSMs {
		t.Fatalf("SuggestBlockSizeFunc = %d, %d, %v; want 256, %d", b, g, err, 8*fakeSMs)
	}
	if len(asked) != 32 {
		t.Fatalf("the shared memory function was asked %d times, want 32", len(asked))
	}

	before := f.queries
	for _, bad := range []func() error{
		func() error { _, err := k.MaxActiveBlocksPerSM(0, 0); return err },
		func() error { _, err := k.MaxActiveBlocksPerSM(1025, 0); return err },
		func() error { _, err := k.MaxActiveBlocksPerSM(256, -1); return err },
		func() error { _, _, err := k.SuggestBlockSize(-1, 0); return err },
		func() error { _, _, err := k.SuggestBlockSize(0, -1); return err },
		func() error { _, _, err := k.SuggestBlockSizeFunc(nil, 0); return err },
	} {
		var ce *ConfigError
		if err := bad(); !errors.As(err, &ce) {
			t.Fatalf("%v, want a *ConfigError", err)
		}
	}
	if f.queries != before {
		t.Fatal("bad input reached the driver")
	}
	_, _, err = k.SuggestBlockSizeFunc(func(block int) int { return 64 - block }, 0)
	if err == nil || !strings.Contains(err.Error(), "shared memory function: -") {
		t.Fatalf("a negative size from the function: %v", err)
	}

	lk := &Kernel{name: "lib", lib: &Library{}}
	if _, err := lk.MaxActiveBlocksPerSM(256, 0); !errors.Is(err, errLibraryQuery) {
		t.Fatalf("a library's kernel: %v", err)
	}
	m.Close()
	if _, err := k.MaxActiveBlocksPerSM(256, 0); !errors.Is(err, ErrFreed) {
		t.Fatalf("after the module's Close: %v, want ErrFreed", err)
	}
}

// TestKernelAttributes: each attribute lands in its own field (the fake
// answers a different value for each), the newer ones are optional, and
// SetMaxDynamicSharedMemory sets the attribute Attributes reads back.
func TestKernelAttributes(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	m, k, x := fakeKernel(t, f, c)
	defer m.Close()
	defer x.Close()
	f.attrs = map[cu.FunctionAttribute]int32{
		cu.FuncAttributeMaxThreadsPerBlock:            768,
		cu.FuncAttributeNumRegs:                       40,
		cu.FuncAttributeSharedSizeBytes:               4096,
		cu.FuncAttributeConstSizeBytes:                12,
		cu.FuncAttributeLocalSizeBytes:                16,
		cu.FuncAttributeMaxDynamicSharedSizeBytes:     48 << 10,
		cu.FuncAttributePtxVersion:                    80,
		cu.FuncAttributeBinaryVersion:                 90,
		cu.FuncAttributePreferredSharedMemoryCarveout: -1,
		cu.FuncAttributeCacheModeCa:                   1,
	}
	a, err := k.Attributes()
	if err != nil {
		t.Fatal(err)
	}
	want := KernelAttributes{MaxThreadsPerBlock: 768, NumRegs: 40, SharedSizeBytes: 4096, ConstSizeBytes: 12,
		LocalSizeBytes: 16, MaxDynamicSharedSizeBytes: 48 << 10, PTXVersion: 80, BinaryVersion: 90,
		PreferredSharedMemoryCarveout: -1, CacheModeCA: true}
	if a != want {
		t.Fatalf("Attributes:\n got %+v\nwant %+v", a, want)
	}
	f.attrs[cu.FuncAttributeClusterSizeMustBeSet] = 1
	f.attrs[cu.FuncAttributeRequiredClusterWidth] = 2
	f.attrs[cu.FuncAttributeRequiredClusterHeight] = 1
	f.attrs[cu.FuncAttributeRequiredClusterDepth] = 1
	f.attrs[cu.FuncAttributeNonPortableClusterSizeAllowed] = 1
	if a, err = k.Attributes(); err != nil || !a.ClusterSizeMustBeSet || a.RequiredCluster != (Dim3{2, 1, 1}) || !a.NonPortableClusterSizeAllowed {
		t.Fatalf("cluster attributes: %+v, %v", a, err)
	}

	if err := k.SetMaxDynamicSharedMemory(100 << 10); err != nil {
		t.Fatal(err)
	}
	if a, err := k.Attributes(); err != nil || a.MaxDynamicSharedSizeBytes != 100<<10 {
		t.Fatalf("after SetMaxDynamicSharedMemory(100 KiB): %d, %v", a.MaxDynamicSharedSizeBytes, err)
	}
	if err := k.SetMaxDynamicSharedMemory(300 << 10); !errors.Is(err, cu.ErrorInvalidValue) || !strings.Contains(err.Error(), "kernel saxpy") {
		t.Fatalf("more than the device allows: %v, want the driver's error", err)
	}
	var ce *ConfigError
	if err := k.SetMaxDynamicSharedMemory(-1); !errors.As(err, &ce) {
		t.Fatalf("negative: %v, want a *ConfigError", err)
	}
	delete(f.attrs, cu.FuncAttributeNumRegs)
	if _, err := k.Attributes(); !errors.Is(err, cu.ErrorInvalidValue) {
		t.Fatalf("a required attribute refused: %v, want the driver's error", err)
	}
}

// TestSuggestBlockSizeLimitAbove: a block size limit above the device's
// maximum is an upper bound, as CUDA takes it (issue 40: cuda-samples pass
// 1,000,000): the answer is the one with no limit.
func TestSuggestBlockSizeLimitAbove(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	_, k, x := fakeKernel(t, f, c)
	defer x.Close()
	wantB, wantG, err := k.SuggestBlockSize(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{1025, 2048, 1000000, 1 << 40} {
		b, g, err := k.SuggestBlockSize(0, limit)
		if err != nil || b != wantB || g != wantG {
			t.Fatalf("SuggestBlockSize(0, %d) = %d, %d, %v; want %d, %d", limit, b, g, err, wantB, wantG)
		}
		b, g, err = k.SuggestBlockSizeFunc(func(int) int { return 0 }, limit)
		if err != nil || b != wantB || g != wantG {
			t.Fatalf("SuggestBlockSizeFunc(_, %d) = %d, %d, %v; want %d, %d", limit, b, g, err, wantB, wantG)
		}
	}
}
