package cuda

// The table below is made from CUdevice_attribute (generated/cuda13/cu's
// DeviceAttribute, the larger enum; cuda12's is a prefix of it): one field
// per value, named after the constant that is not deprecated, a bool for
// the yes/no attributes (named *Supported or Can*, and those
// device_test.go's yesNo lists), else an int.
// TestDevicePropertiesTable checks it against both majors' enums.

// DeviceProperties is every attribute of a device (cuDeviceGetAttribute),
// as [Device.Properties] reads them. An attribute the driver does not know
// (an older driver) is left zero.
type DeviceProperties struct {
	// MaxThreadsPerBlock is CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: maximum
	// number of threads per block.
	MaxThreadsPerBlock int
	// MaxBlockDimX is CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: maximum block
	// dimension X.
	MaxBlockDimX int
	// MaxBlockDimY is CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: maximum block
	// dimension Y.
	MaxBlockDimY int
	// MaxBlockDimZ is CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: maximum block
	// dimension Z.
	MaxBlockDimZ int
	// MaxGridDimX is CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: maximum grid
	// dimension X.
	MaxGridDimX int
	// MaxGridDimY is CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: maximum grid
	// dimension Y.
	MaxGridDimY int
	// MaxGridDimZ is CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: maximum grid
	// dimension Z.
	MaxGridDimZ int
	// MaxSharedMemoryPerBlock is
	// CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: maximum shared memory
	// available per block in bytes.
	MaxSharedMemoryPerBlock int
	// TotalConstantMemory is CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: memory
	// available on device for __constant__ variables in a CUDA C kernel in
	// bytes.
	TotalConstantMemory int
	// WarpSize is CU_DEVICE_ATTRIBUTE_WARP_SIZE: warp size in threads.
	WarpSize int
	// MaxPitch is CU_DEVICE_ATTRIBUTE_MAX_PITCH: maximum pitch in bytes
	// allowed by memory copies.
	MaxPitch int
	// MaxRegistersPerBlock is CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK:
	// maximum number of 32-bit registers available per block.
	MaxRegistersPerBlock int
	// ClockRate is CU_DEVICE_ATTRIBUTE_CLOCK_RATE: typical clock frequency in
	// kilohertz.
	ClockRate int
	// TextureAlignment is CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT: alignment
	// requirement for textures.
	TextureAlignment int
	// GpuOverlap is CU_DEVICE_ATTRIBUTE_GPU_OVERLAP: device can possibly copy
	// memory and execute a kernel concurrently.
	GpuOverlap bool
	// MultiprocessorCount is CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: number
	// of multiprocessors on device.
	MultiprocessorCount int
	// KernelExecTimeout is CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT: specifies
	// whether there is a run time limit on kernels.
	KernelExecTimeout bool
	// Integrated is CU_DEVICE_ATTRIBUTE_INTEGRATED: device is integrated with
	// host memory.
	Integrated bool
	// CanMapHostMemory is CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY: device can
	// map host memory into CUDA address space.
	CanMapHostMemory bool
	// ComputeMode is CU_DEVICE_ATTRIBUTE_COMPUTE_MODE: compute mode (See
	// Computemode for details).
	ComputeMode int
	// MaximumTexture1DWidth is CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH:
	// maximum 1D texture width.
	MaximumTexture1DWidth int
	// MaximumTexture2DWidth is CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH:
	// maximum 2D texture width.
	MaximumTexture2DWidth int
	// MaximumTexture2DHeight is CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT:
	// maximum 2D texture height.
	MaximumTexture2DHeight int
	// MaximumTexture3DWidth is CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH:
	// maximum 3D texture width.
	MaximumTexture3DWidth int
	// MaximumTexture3DHeight is CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT:
	// maximum 3D texture height.
	MaximumTexture3DHeight int
	// MaximumTexture3DDepth is CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH:
	// maximum 3D texture depth.
	MaximumTexture3DDepth int
	// MaximumTexture2DLayeredWidth is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH: maximum 2D layered
	// texture width.
	MaximumTexture2DLayeredWidth int
	// MaximumTexture2DLayeredHeight is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT: maximum 2D layered
	// texture height.
	MaximumTexture2DLayeredHeight int
	// MaximumTexture2DLayeredLayers is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS: maximum layers in
	// a 2D layered texture.
	MaximumTexture2DLayeredLayers int
	// SurfaceAlignment is CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT: alignment
	// requirement for surfaces.
	SurfaceAlignment int
	// ConcurrentKernels is CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS: device can
	// possibly execute multiple kernels concurrently.
	ConcurrentKernels bool
	// EccEnabled is CU_DEVICE_ATTRIBUTE_ECC_ENABLED: device has ECC support
	// enabled.
	EccEnabled bool
	// PciBusId is CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: pCI bus ID of the device.
	PciBusId int
	// PciDeviceId is CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: pCI device ID of the
	// device.
	PciDeviceId int
	// TccDriver is CU_DEVICE_ATTRIBUTE_TCC_DRIVER: device is using TCC driver
	// model.
	TccDriver bool
	// MemoryClockRate is CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: peak memory
	// clock frequency in kilohertz.
	MemoryClockRate int
	// GlobalMemoryBusWidth is CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH:
	// global memory bus width in bits.
	GlobalMemoryBusWidth int
	// L2CacheSize is CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: size of L2 cache in
	// bytes.
	L2CacheSize int
	// MaxThreadsPerMultiprocessor is
	// CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: maximum resident
	// threads per multiprocessor.
	MaxThreadsPerMultiprocessor int
	// AsyncEngineCount is CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT: number of
	// asynchronous engines.
	AsyncEngineCount int
	// UnifiedAddressing is CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: device
	// shares a unified address space with the host.
	UnifiedAddressing bool
	// MaximumTexture1DLayeredWidth is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH: maximum 1D layered
	// texture width.
	MaximumTexture1DLayeredWidth int
	// MaximumTexture1DLayeredLayers is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS: maximum layers in
	// a 1D layered texture.
	MaximumTexture1DLayeredLayers int
	// CanTex2DGather is CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER: deprecated, do
	// not use.
	CanTex2DGather bool
	// MaximumTexture2DGatherWidth is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH: maximum 2D texture
	// width if CUDA_ARRAY3D_TEXTURE_GATHER is set.
	MaximumTexture2DGatherWidth int
	// MaximumTexture2DGatherHeight is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT: maximum 2D texture
	// height if CUDA_ARRAY3D_TEXTURE_GATHER is set.
	MaximumTexture2DGatherHeight int
	// MaximumTexture3DWidthAlternate is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE: alternate maximum
	// 3D texture width.
	MaximumTexture3DWidthAlternate int
	// MaximumTexture3DHeightAlternate is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE: alternate
	// maximum 3D texture height.
	MaximumTexture3DHeightAlternate int
	// MaximumTexture3DDepthAlternate is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE: alternate maximum
	// 3D texture depth.
	MaximumTexture3DDepthAlternate int
	// PciDomainId is CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: pCI domain ID of the
	// device.
	PciDomainId int
	// TexturePitchAlignment is CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT:
	// pitch alignment requirement for textures.
	TexturePitchAlignment int
	// MaximumTexturecubemapWidth is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH: maximum cubemap
	// texture width/height.
	MaximumTexturecubemapWidth int
	// MaximumTexturecubemapLayeredWidth is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH: maximum
	// cubemap layered texture width/height.
	MaximumTexturecubemapLayeredWidth int
	// MaximumTexturecubemapLayeredLayers is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS: maximum
	// layers in a cubemap layered texture.
	MaximumTexturecubemapLayeredLayers int
	// MaximumSurface1DWidth is CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH:
	// maximum 1D surface width.
	MaximumSurface1DWidth int
	// MaximumSurface2DWidth is CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH:
	// maximum 2D surface width.
	MaximumSurface2DWidth int
	// MaximumSurface2DHeight is CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT:
	// maximum 2D surface height.
	MaximumSurface2DHeight int
	// MaximumSurface3DWidth is CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH:
	// maximum 3D surface width.
	MaximumSurface3DWidth int
	// MaximumSurface3DHeight is CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT:
	// maximum 3D surface height.
	MaximumSurface3DHeight int
	// MaximumSurface3DDepth is CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH:
	// maximum 3D surface depth.
	MaximumSurface3DDepth int
	// MaximumSurface1DLayeredWidth is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH: maximum 1D layered
	// surface width.
	MaximumSurface1DLayeredWidth int
	// MaximumSurface1DLayeredLayers is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS: maximum layers in
	// a 1D layered surface.
	MaximumSurface1DLayeredLayers int
	// MaximumSurface2DLayeredWidth is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH: maximum 2D layered
	// surface width.
	MaximumSurface2DLayeredWidth int
	// MaximumSurface2DLayeredHeight is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT: maximum 2D layered
	// surface height.
	MaximumSurface2DLayeredHeight int
	// MaximumSurface2DLayeredLayers is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS: maximum layers in
	// a 2D layered surface.
	MaximumSurface2DLayeredLayers int
	// MaximumSurfacecubemapWidth is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH: maximum cubemap
	// surface width.
	MaximumSurfacecubemapWidth int
	// MaximumSurfacecubemapLayeredWidth is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH: maximum
	// cubemap layered surface width.
	MaximumSurfacecubemapLayeredWidth int
	// MaximumSurfacecubemapLayeredLayers is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS: maximum
	// layers in a cubemap layered surface.
	MaximumSurfacecubemapLayeredLayers int
	// MaximumTexture1DLinearWidth is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH: deprecated, do not
	// use.
	MaximumTexture1DLinearWidth int
	// MaximumTexture2DLinearWidth is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH: maximum 2D linear
	// texture width.
	MaximumTexture2DLinearWidth int
	// MaximumTexture2DLinearHeight is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT: maximum 2D linear
	// texture height.
	MaximumTexture2DLinearHeight int
	// MaximumTexture2DLinearPitch is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH: maximum 2D linear
	// texture pitch in bytes.
	MaximumTexture2DLinearPitch int
	// MaximumTexture2DMipmappedWidth is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH: maximum mipmapped
	// 2D texture width.
	MaximumTexture2DMipmappedWidth int
	// MaximumTexture2DMipmappedHeight is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT: maximum
	// mipmapped 2D texture height.
	MaximumTexture2DMipmappedHeight int
	// ComputeCapabilityMajor is CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
	// major compute capability version number.
	ComputeCapabilityMajor int
	// ComputeCapabilityMinor is CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
	// minor compute capability version number.
	ComputeCapabilityMinor int
	// MaximumTexture1DMipmappedWidth is
	// CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH: maximum mipmapped
	// 1D texture width.
	MaximumTexture1DMipmappedWidth int
	// StreamPrioritiesSupported is
	// CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED: device supports stream
	// priorities.
	StreamPrioritiesSupported bool
	// GlobalL1CacheSupported is CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED:
	// device supports caching globals in L1.
	GlobalL1CacheSupported bool
	// LocalL1CacheSupported is CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED:
	// device supports caching locals in L1.
	LocalL1CacheSupported bool
	// MaxSharedMemoryPerMultiprocessor is
	// CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: maximum shared
	// memory available per multiprocessor in bytes.
	MaxSharedMemoryPerMultiprocessor int
	// MaxRegistersPerMultiprocessor is
	// CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: maximum number of
	// 32-bit registers available per multiprocessor.
	MaxRegistersPerMultiprocessor int
	// ManagedMemory is CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: device can allocate
	// managed memory on this system.
	ManagedMemory bool
	// MultiGpuBoard is CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD: device is on a
	// multi-GPU board.
	MultiGpuBoard bool
	// MultiGpuBoardGroupId is CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID:
	// unique id for a group of devices on the same multi-GPU board.
	MultiGpuBoardGroupId int
	// HostNativeAtomicSupported is
	// CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED: link between the
	// device and the host supports all native atomic operations.
	HostNativeAtomicSupported bool
	// SingleToDoublePrecisionPerfRatio is
	// CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO: ratio of
	// single precision performance (in floating-point operations per second)
	// to double precision performance.
	SingleToDoublePrecisionPerfRatio int
	// PageableMemoryAccess is CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS:
	// device supports coherently accessing pageable memory without calling
	// cudaHostRegister on it.
	PageableMemoryAccess bool
	// ConcurrentManagedAccess is
	// CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS: device can coherently
	// access managed memory concurrently with the CPU.
	ConcurrentManagedAccess bool
	// ComputePreemptionSupported is
	// CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED: device supports
	// compute preemption.
	ComputePreemptionSupported bool
	// CanUseHostPointerForRegisteredMem is
	// CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM: device can
	// access host registered memory at the same virtual address as the CPU.
	CanUseHostPointerForRegisteredMem bool
	// CanUseStreamMemOpsV1 is CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1:
	// deprecated, along with v1 MemOps API, StreamBatchMemOp and related APIs
	// are supported.
	CanUseStreamMemOpsV1 bool
	// CanUse64BitStreamMemOpsV1 is
	// CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1: deprecated, along
	// with v1 MemOps API, 64-bit operations are supported in StreamBatchMemOp
	// and related APIs.
	CanUse64BitStreamMemOpsV1 bool
	// CanUseStreamWaitValueNorV1 is
	// CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1: deprecated, along
	// with v1 MemOps API, StreamWaitValueNor is supported.
	CanUseStreamWaitValueNorV1 bool
	// CooperativeLaunch is CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH: device
	// supports launching cooperative kernels via LaunchCooperativeKernel.
	CooperativeLaunch bool
	// CooperativeMultiDeviceLaunch is
	// CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH: deprecated,
	// LaunchCooperativeKernelMultiDevice is deprecated.
	CooperativeMultiDeviceLaunch bool
	// MaxSharedMemoryPerBlockOptin is
	// CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: maximum optin
	// shared memory per block.
	MaxSharedMemoryPerBlockOptin int
	// CanFlushRemoteWrites is CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES: the
	// StreamWaitValueFlush flag and the StreamMemOpFlushRemoteWrites MemOp are
	// supported on the device.
	CanFlushRemoteWrites bool
	// HostRegisterSupported is CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED:
	// device supports host memory registration via cudaHostRegister.
	HostRegisterSupported bool
	// PageableMemoryAccessUsesHostPageTables is
	// CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES: device
	// accesses pageable memory via the host's page tables.
	PageableMemoryAccessUsesHostPageTables bool
	// DirectManagedMemAccessFromHost is
	// CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST: the host can
	// directly access managed memory on the device without migration.
	DirectManagedMemAccessFromHost bool
	// VirtualMemoryManagementSupported is
	// CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED: device supports
	// virtual memory management APIs like MemAddressReserve, MemCreate, MemMap
	// and related APIs.
	VirtualMemoryManagementSupported bool
	// HandleTypePosixFileDescriptorSupported is
	// CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED: device
	// supports exporting memory to a posix file descriptor with
	// MemExportToShareableHandle, if requested via MemCreate.
	HandleTypePosixFileDescriptorSupported bool
	// HandleTypeWin32HandleSupported is
	// CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED: device supports
	// exporting memory to a Win32 NT handle with MemExportToShareableHandle,
	// if requested via MemCreate.
	HandleTypeWin32HandleSupported bool
	// HandleTypeWin32KmtHandleSupported is
	// CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED: device
	// supports exporting memory to a Win32 KMT handle with
	// MemExportToShareableHandle, if requested via MemCreate.
	HandleTypeWin32KmtHandleSupported bool
	// MaxBlocksPerMultiprocessor is
	// CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: maximum number of
	// blocks per multiprocessor.
	MaxBlocksPerMultiprocessor int
	// GenericCompressionSupported is
	// CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED: device supports
	// compression of memory.
	GenericCompressionSupported bool
	// MaxPersistingL2CacheSize is
	// CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE: maximum L2 persisting
	// lines capacity setting in bytes.
	MaxPersistingL2CacheSize int
	// MaxAccessPolicyWindowSize is
	// CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE: maximum value of
	// CUaccessPolicyWindownum_bytes.
	MaxAccessPolicyWindowSize int
	// GpuDirectRdmaWithCudaVmmSupported is
	// CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED: device
	// supports specifying the GPUDirect RDMA flag with MemCreate.
	GpuDirectRdmaWithCudaVmmSupported bool
	// ReservedSharedMemoryPerBlock is
	// CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK: shared memory
	// reserved by CUDA driver per block in bytes.
	ReservedSharedMemoryPerBlock int
	// SparseCudaArraySupported is
	// CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED: device supports sparse
	// CUDA arrays and sparse CUDA mipmapped arrays.
	SparseCudaArraySupported bool
	// ReadOnlyHostRegisterSupported is
	// CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED: device supports
	// using the MemHostRegister flag CU_MEMHOSTERGISTER_READ_ONLY to register
	// memory that must be mapped as read-only to the GPU.
	ReadOnlyHostRegisterSupported bool
	// TimelineSemaphoreInteropSupported is
	// CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED: external
	// timeline semaphore interop is supported on the device.
	TimelineSemaphoreInteropSupported bool
	// MemoryPoolsSupported is CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED:
	// device supports using the MemAllocAsync and cuMemPool family of APIs.
	MemoryPoolsSupported bool
	// GpuDirectRdmaSupported is CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED:
	// device supports GPUDirect RDMA APIs, like nvidia_p2p_get_pages (see
	// https://docs.nvidia.com/cuda/gpudirect-rdma for more information).
	GpuDirectRdmaSupported bool
	// GpuDirectRdmaFlushWritesOptions is
	// CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS: the returned
	// attribute shall be interpreted as a bitmask, where the individual bits
	// are described by the FlushGPUDirectRDMAWritesOptions enum.
	GpuDirectRdmaFlushWritesOptions int
	// GpuDirectRdmaWritesOrdering is
	// CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING: gPUDirect RDMA
	// writes to the device do not need to be flushed for consumers within the
	// scope indicated by the returned attribute.
	GpuDirectRdmaWritesOrdering int
	// MempoolSupportedHandleTypes is
	// CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES: handle types
	// supported with mempool based IPC.
	MempoolSupportedHandleTypes int
	// ClusterLaunch is CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH: indicates device
	// supports cluster launch.
	ClusterLaunch bool
	// DeferredMappingCudaArraySupported is
	// CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED: device
	// supports deferred mapping CUDA arrays and CUDA mipmapped arrays.
	DeferredMappingCudaArraySupported bool
	// CanUse64BitStreamMemOps is
	// CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS: 64-bit operations are
	// supported in StreamBatchMemOp and related MemOp APIs.
	CanUse64BitStreamMemOps bool
	// CanUseStreamWaitValueNor is
	// CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR: streamWaitValueNor is
	// supported by MemOp APIs.
	CanUseStreamWaitValueNor bool
	// DmaBufSupported is CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED: device
	// supports buffer sharing with dma_buf mechanism.
	DmaBufSupported bool
	// IpcEventSupported is CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED: device
	// supports IPC Events.
	IpcEventSupported bool
	// MemSyncDomainCount is CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT: number
	// of memory domains the device supports.
	MemSyncDomainCount int
	// TensorMapAccessSupported is
	// CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED: device supports
	// accessing memory using Tensor Map.
	TensorMapAccessSupported bool
	// HandleTypeFabricSupported is
	// CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED: device supports
	// exporting memory to a fabric handle with cuMemExportToShareableHandle()
	// or requested with cuMemCreate().
	HandleTypeFabricSupported bool
	// UnifiedFunctionPointers is
	// CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS: device supports unified
	// function pointers.
	UnifiedFunctionPointers bool
	// NumaConfig is CU_DEVICE_ATTRIBUTE_NUMA_CONFIG: nUMA configuration of a
	// device: value is of type DeviceNumaConfig enum.
	NumaConfig int
	// NumaId is CU_DEVICE_ATTRIBUTE_NUMA_ID: nUMA node ID of the GPU memory.
	NumaId int
	// MulticastSupported is CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED: device
	// supports switch multicast and reduction operations.
	MulticastSupported bool
	// MpsEnabled is CU_DEVICE_ATTRIBUTE_MPS_ENABLED: indicates if contexts
	// created on this device will be shared via MPS.
	MpsEnabled bool
	// HostNumaId is CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID: nUMA ID of the host node
	// closest to the device.
	HostNumaId int
	// D3D12CigSupported is CU_DEVICE_ATTRIBUTE_D3D12_CIG_SUPPORTED: device
	// supports CIG with D3D12.
	D3D12CigSupported bool
	// MemDecompressAlgorithmMask is
	// CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK: the returned valued
	// shall be interpreted as a bitmask, where the individual bits are
	// described by the MemDecompressAlgorithm enum.
	MemDecompressAlgorithmMask int
	// MemDecompressMaximumLength is
	// CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH: the returned valued
	// is the maximum length in bytes of a single decompress operation that is
	// allowed.
	MemDecompressMaximumLength int
	// VulkanCigSupported is CU_DEVICE_ATTRIBUTE_VULKAN_CIG_SUPPORTED: device
	// supports CIG with Vulkan.
	VulkanCigSupported bool
	// GpuPciDeviceId is CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID: the combined
	// 16-bit PCI device ID and 16-bit PCI vendor ID.
	GpuPciDeviceId int
	// GpuPciSubsystemId is CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID: the
	// combined 16-bit PCI subsystem ID and 16-bit PCI subsystem vendor ID.
	GpuPciSubsystemId int
	// HostNumaVirtualMemoryManagementSupported is
	// CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
	// device supports HOST_NUMA location with the virtual memory management
	// APIs like MemCreate, MemMap and related APIs.
	HostNumaVirtualMemoryManagementSupported bool
	// HostNumaMemoryPoolsSupported is
	// CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED: device supports
	// HOST_NUMA location with the MemAllocAsync and cuMemPool family of APIs.
	HostNumaMemoryPoolsSupported bool
	// HostNumaMultinodeIpcSupported is
	// CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED: device supports
	// HOST_NUMA location IPC between nodes in a multi-node system.
	HostNumaMultinodeIpcSupported bool
	// HostMemoryPoolsSupported is
	// CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED: device suports HOST
	// location with the MemAllocAsync and cuMemPool family of APIs.
	HostMemoryPoolsSupported bool
	// HostVirtualMemoryManagementSupported is
	// CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED: device
	// supports HOST location with the virtual memory management APIs like
	// MemCreate, MemMap and related APIs.
	HostVirtualMemoryManagementSupported bool
	// HostAllocDmaBufSupported is
	// CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED: device supports page-
	// locked host memory buffer sharing with dma_buf mechanism.
	HostAllocDmaBufSupported bool
	// OnlyPartialHostNativeAtomicSupported is
	// CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED: link
	// between the device and the host supports only some native atomic
	// operations.
	OnlyPartialHostNativeAtomicSupported bool
}

// devAttrs are the attributes of DeviceProperties' fields, in order.
var devAttrs = [...]uint16{
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
	33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
	49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64,
	65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80,
	81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96,
	97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112,
	113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128,
	129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144,
	145, 146, 147,
}
