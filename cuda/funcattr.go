package cuda

import (
	"fmt"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// KernelAttributes are what the driver reports of a kernel
// (cuFuncGetAttribute).
type KernelAttributes struct {
	MaxThreadsPerBlock int // the largest block it can launch with (registers and all)
	NumRegs            int // registers per thread
	SharedSizeBytes    int // static shared memory per block
	ConstSizeBytes     int // user constant memory
	LocalSizeBytes     int // local memory per thread
	// MaxDynamicSharedSizeBytes is the most dynamic shared memory a launch
	// may ask for: see [Kernel.SetMaxDynamicSharedMemory].
	MaxDynamicSharedSizeBytes int
	// PTXVersion and BinaryVersion are the PTX virtual architecture and
	// the binary architecture it was compiled for, major*10+minor (90:
	// sm_90).
	PTXVersion    int
	BinaryVersion int
	CacheModeCA   bool // compiled with -Xptxas --dlcm=ca
	// PreferredSharedMemoryCarveout is the preferred percentage of L1 for
	// shared memory, -1 for no preference.
	PreferredSharedMemoryCarveout int
	// ClusterSizeMustBeSet: the kernel must launch with a cluster
	// ([Config.Cluster]); RequiredCluster is the one its
	// __cluster_dims__ fixes (zero: none).
	ClusterSizeMustBeSet          bool
	RequiredCluster               Dim3
	NonPortableClusterSizeAllowed bool
}

// Attributes returns the kernel's attributes (cuFuncGetAttribute), in its
// module's context.
func (k *Kernel) Attributes() (KernelAttributes, error) {
	var a KernelAttributes
	ints := []struct {
		id cu.FunctionAttribute
		to *int
	}{
		{cu.FuncAttributeMaxThreadsPerBlock, &a.MaxThreadsPerBlock},
		{cu.FuncAttributeNumRegs, &a.NumRegs},
		{cu.FuncAttributeSharedSizeBytes, &a.SharedSizeBytes},
		{cu.FuncAttributeConstSizeBytes, &a.ConstSizeBytes},
		{cu.FuncAttributeLocalSizeBytes, &a.LocalSizeBytes},
		{cu.FuncAttributeMaxDynamicSharedSizeBytes, &a.MaxDynamicSharedSizeBytes},
		{cu.FuncAttributePtxVersion, &a.PTXVersion},
		{cu.FuncAttributeBinaryVersion, &a.BinaryVersion},
		{cu.FuncAttributePreferredSharedMemoryCarveout, &a.PreferredSharedMemoryCarveout},
	}
	var cacheCA, mustSet, nonPortable, cw, ch, cd int
	opt := []struct { // newer attributes: 0 where the driver does not know them
		id cu.FunctionAttribute
		to *int
	}{
		{cu.FuncAttributeCacheModeCa, &cacheCA},
		{cu.FuncAttributeClusterSizeMustBeSet, &mustSet},
		{cu.FuncAttributeRequiredClusterWidth, &cw},
		{cu.FuncAttributeRequiredClusterHeight, &ch},
		{cu.FuncAttributeRequiredClusterDepth, &cd},
		{cu.FuncAttributeNonPortableClusterSizeAllowed, &nonPortable},
	}
	err := k.query("attributes", func(d kernelDriver) error {
		for _, x := range ints {
			v, err := d.funcAttr(k.fn, x.id)
			if err != nil {
				return fmt.Errorf("attribute %d: %w", x.id, err)
			}
			*x.to = int(v)
		}
		for _, x := range opt {
			if v, err := d.funcAttr(k.fn, x.id); err == nil {
				*x.to = int(v)
			}
		}
		return nil
	})
	if err != nil {
		return KernelAttributes{}, err
	}
	a.CacheModeCA, a.ClusterSizeMustBeSet, a.NonPortableClusterSizeAllowed = cacheCA != 0, mustSet != 0, nonPortable != 0
	a.RequiredCluster = Dim3{uint32(cw), uint32(ch), uint32(cd)}
	return a, nil
}

// SetMaxDynamicSharedMemory lets launches of the kernel ask for up to
// bytes of dynamic shared memory (cuFuncSetAttribute of
// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES): above 48 KiB a kernel
// must opt in so. The driver refuses more than the device's
// per-block opt-in maximum less the kernel's static shared memory.
func (k *Kernel) SetMaxDynamicSharedMemory(bytes int) error {
	if bytes < 0 || bytes > 1<<31-1 {
		return &ConfigError{Kernel: k.name, Reason: fmt.Sprintf("dynamic shared memory of %d bytes", bytes)}
	}
	return k.query("SetMaxDynamicSharedMemory", func(d kernelDriver) error {
		return d.setFuncAttr(k.fn, cu.FuncAttributeMaxDynamicSharedSizeBytes, int32(bytes))
	})
}
