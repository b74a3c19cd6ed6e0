/*
 * ABI fixture for cugen's emit tests: a small driver API whose functions
 * have the signature shapes of the real cuda.h (and a few more that stress
 * the calling convention). emit/testdata/abi/abi.c implements it; the
 * generated package is emit/internal/abitest/cu. Not NVIDIA's file.
 */
#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#define CUDA_VERSION 12040
#define CUDAAPI
#define CUDA_CB

/* API names that link to versioned symbols, as in the real header. */
#define cuCtxCreate        cuCtxCreate_v2
#define cuIpcOpenMemHandle cuIpcOpenMemHandle_v2
#define cuMemPrefetchAsync cuMemPrefetchAsync_v2
/* A non-versioned alias macro: a Go function of its own calls cuAbiFail. */
#define cuAbiFailAlias     cuAbiFail
#define cuStreamGetCaptureInfo cuStreamGetCaptureInfo_v2
#define cuGraphInstantiate cuGraphInstantiateWithFlags

typedef __SIZE_TYPE__ size_t;

typedef unsigned long long CUdeviceptr_v2;
typedef CUdeviceptr_v2 CUdeviceptr;                          /**< CUDA device pointer */
typedef int CUdevice_v1;                                     /**< CUDA device */
typedef CUdevice_v1 CUdevice;                                /**< CUDA device */
typedef struct CUctx_st *CUcontext;                          /**< A regular context handle */
typedef struct CUmod_st *CUmodule;                           /**< CUDA module */
typedef struct CUfunc_st *CUfunction;                        /**< CUDA function */
typedef struct CUkern_st *CUkernel;                          /**< CUDA kernel */
typedef struct CUevent_st *CUevent;                          /**< CUDA event */
typedef struct CUstream_st *CUstream;                        /**< CUDA stream */

/**
 * CUDA definition of UUID
 */
typedef struct CUuuid_st {
    char bytes[16];
} CUuuid;

/**
 * CUDA IPC mem handle
 */
typedef struct CUipcMemHandle_st {
    char reserved[64];
} CUipcMemHandle_v1;
typedef CUipcMemHandle_v1 CUipcMemHandle;

/**
 * Specifies the type of location
 */
typedef enum CUmemLocationType_enum {
    CU_MEM_LOCATION_TYPE_INVALID = 0x0,
    CU_MEM_LOCATION_TYPE_DEVICE = 0x1,  /**< Location is a device location */
    CU_MEM_LOCATION_TYPE_HOST = 0x2,    /**< Location is host */
    CU_MEM_LOCATION_TYPE_MAX = 0x7FFFFFFF
} CUmemLocationType;

/**
 * Specifies a memory location.
 */
typedef struct CUmemLocation_st {
    CUmemLocationType type; /**< Specifies the location type */
    int id;                 /**< identifier for a given this location's ::CUmemLocationType. */
} CUmemLocation_v1;
typedef CUmemLocation_v1 CUmemLocation;

/**
 * Fixture: an enum with a negative value, so a signed Go type.
 */
typedef enum CUabiSign_enum {
    CU_ABI_SIGN_NEGATIVE = -2,
    CU_ABI_SIGN_ZERO = 0,
    CU_ABI_SIGN_POSITIVE = 3
} CUabiSign;

/**
 * Fixture: integer and floating members in one struct passed by value
 * (System V: one INTEGER and one SSE eightbyte).
 */
typedef struct CUabiMixed_st {
    int i;    /**< an integer */
    float f;  /**< shares the first eightbyte with i */
    double d; /**< the second eightbyte */
} CUabiMixed;

/**
 * Fixture: a homogeneous float aggregate (AAPCS64 HFA, System V SSE).
 */
typedef struct CUabiFloat3_st {
    float x;
    float y;
    float z;
} CUabiFloat3;

/**
 * Error codes
 */
typedef enum cudaError_enum {
    /**
     * The API call returned with no errors.
     */
    CUDA_SUCCESS = 0,
    /**
     * This indicates that one or more of the parameters passed to the API call
     * is not within an acceptable range of values.
     */
    CUDA_ERROR_INVALID_VALUE = 1,
    /**
     * The API call failed because it was unable to allocate enough memory.
     */
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    /**
     * This indicates that the device ordinal supplied by the user does not
     * correspond to a valid CUDA device.
     */
    CUDA_ERROR_INVALID_DEVICE = 101,
    /**
     * This indicates that an unknown internal error has occurred.
     */
    CUDA_ERROR_UNKNOWN = 999
} CUresult;

/**
 * CUDA host function
 * \param userData Argument value passed to the function
 */
typedef void (CUDA_CB *CUhostFn)(void *userData);

/**
 * CUDA stream callback
 * \param hStream The stream the callback was added to, as passed to ::cuStreamAddCallback.  May be NULL.
 * \param status ::CUDA_SUCCESS or any persistent error on the stream.
 * \param userData User parameter provided at registration.
 */
typedef void (CUDA_CB *CUstreamCallback)(CUstream hStream, CUresult status, void *userData);

/**
 * \brief Gets the string description of an error code
 *
 * \param error - Error code to convert to string
 * \param pStr - Address of the string pointer.
 */
CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pStr);

/**
 * \brief Gets the string representation of an error code enum name
 *
 * \param error - Error code to convert to string
 * \param pStr - Address of the string pointer.
 */
CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr);

/**
 * \brief Fixture: records integers of every width as the callee sees them
 *
 * Thirteen arguments: some go on the stack on both ABIs.
 */
CUresult CUDAAPI cuAbiIntegers(signed char i8, unsigned char u8, short i16, unsigned short u16,
                               int i32, unsigned int u32, long long i64, unsigned long long u64,
                               size_t size, CUdeviceptr dptr, CUdevice dev, CUabiSign sign,
                               CUmemLocationType loc);

/**
 * \brief Fixture: returns \p result, to test the error path
 *
 * \param result - The result to return
 */
CUresult CUDAAPI cuAbiFail(CUresult result);

/** Like CUtensorMap: a struct whose C alignment (64) exceeds any Go variable's. */
typedef struct CUabiAligned_st {
    unsigned long long words[16];
} __attribute__((aligned(64))) CUabiAligned;

/**
 * \brief Fills an aligned struct; fails unless \p out is 64-byte aligned
 *
 * \param out - Returned struct, words[i] = seed + i
 * \param seed - First value
 */
CUresult CUDAAPI cuAbiAlignedOut(CUabiAligned *out, unsigned long long seed);

/**
 * \brief Adds to every word of an aligned struct in place; fails unless \p tensorMap is 64-byte aligned
 *
 * The fixture reads nothing through a misaligned pointer: it returns
 * ::CUDA_ERROR_INVALID_VALUE first.
 *
 * \param tensorMap - The struct, read and written
 * \param add       - Added to each word
 */
CUresult CUDAAPI cuAbiAlignedInOut(CUabiAligned *tensorMap, unsigned long long add);

/**
 * \brief Sums the words of an aligned struct; fails unless \p tensorMap is 64-byte aligned
 *
 * \param tensorMap - The struct, only read
 * \param sum       - Returned sum of the words
 */
CUresult CUDAAPI cuAbiAlignedIn(const CUabiAligned *tensorMap, unsigned long long *sum);

/**
 * \brief Returns a handle to a compute device
 *
 * The fixture returns \p ordinal itself, and ::CUDA_ERROR_INVALID_VALUE
 * when \p ordinal is 99.
 *
 * \param device  - Returned device handle
 * \param ordinal - Device number to get handle for
 */
CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal);

/**
 * \brief Create a CUDA context
 *
 * \param pctx  - Returned context handle of the new context
 * \param flags - Context creation flags
 * \param dev   - Device to create context on
 */
CUresult CUDAAPI cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);

/**
 * \brief Binds the specified CUDA context to the calling CPU thread
 *
 * \param ctx - Context to bind to the calling CPU thread
 */
CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx);

/**
 * \brief Return an UUID for the device
 *
 * \param uuid - Returned UUID
 * \param dev  - Device to get identifier string for
 */
CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);

/**
 * \brief Returns an identifier string for the device
 *
 * \param name - Returned identifier string for the device
 * \param len  - Maximum length of string to store in \p name
 * \param dev  - Device to get identifier string for
 */
CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev);

/**
 * \brief Return an LUID and device node mask for the device
 *
 * Return identifying information (\p luid and \p deviceNodeMask) to allow
 * matching device with graphics APIs.
 *
 * \param luid - Returned LUID
 * \param deviceNodeMask - Returned device node mask
 * \param dev  - Device to get identifier string for
 */
CUresult CUDAAPI cuDeviceGetLuid(char *luid, unsigned int *deviceNodeMask, CUdevice dev);

/**
 * \brief Computes the elapsed time between two events
 *
 * \param pMilliseconds - Time between \p hStart and \p hEnd in ms
 * \param hStart        - Starting event
 * \param hEnd          - Ending event
 */
CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);

/**
 * \brief Returns a function handle
 *
 * The fixture's handle is the FNV-1a hash of \p name xor \p hmod.
 *
 * \param hfunc - Returned function handle
 * \param hmod  - Module to retrieve function from
 * \param name  - Name of function to retrieve
 */
CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);

/**
 * \brief Prefetches memory to the specified destination location
 *
 * \param devPtr   - Pointer to be prefetched
 * \param count    - Size in bytes
 * \param location - Location to prefetch to
 * \param flags    - flags for future use, must be zero now.
 * \param hStream  - Stream to enqueue prefetch operation
 */
CUresult CUDAAPI cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags, CUstream hStream);

/**
 * \brief Gets an interprocess memory handle for an existing device memory allocation
 *
 * \param pHandle - Pointer to user allocated ::CUipcMemHandle to return the handle in.
 * \param dptr    - Base pointer to previously allocated device memory
 */
CUresult CUDAAPI cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr);

/**
 * \brief Opens an interprocess memory handle exported from another process
 *
 * \param pdptr  - Returned device pointer
 * \param handle - ::CUipcMemHandle to open
 * \param Flags  - Flags for this operation. Must be specified as ::CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS
 */
CUresult CUDAAPI cuIpcOpenMemHandle_v2(CUdeviceptr *pdptr, CUipcMemHandle handle, unsigned int Flags);

/**
 * \brief Fixture: records ten floating-point and eight integer arguments, interleaved
 *
 * More floating-point arguments than registers: the last two go on the
 * stack between integer stack arguments.
 */
CUresult CUDAAPI cuAbiFloats(int i0, float f0, double d0, long long i1, float f1, double d1,
                             unsigned int i2, float f2, double d2, short i3, float f3, double d3,
                             unsigned char i4, float f4, double d4, size_t i5, CUdeviceptr i6, int i7);

/**
 * \brief Fixture: records structs passed by value and echoes one
 *
 * \param m     - A mixed integer/float struct
 * \param v     - A float-only struct
 * \param after - An integer after the structs
 * \param echo  - Returned copy of \p m with every member doubled
 */
CUresult CUDAAPI cuAbiStructs(CUabiMixed m, CUabiFloat3 v, int after, CUabiMixed *echo);

/**
 * \brief Fixture: records pointer arguments; doubles \p counter and stores \p p through \p slots
 *
 * \param p       - A pointer the fixture records
 * \param cp      - A pointer to const data; the fixture records its first byte
 * \param slots   - Array of pointers; the fixture stores \p p into the first
 * \param counter - Counter the fixture doubles in place
 */
CUresult CUDAAPI cuAbiPointers(void *p, const void *cp, void **slots, unsigned int *counter);

/**
 * \brief Enqueues a host function call in a stream
 *
 * The fixture calls \p fn from a new thread; on the NULL stream it calls
 * \p fn before returning, on the calling thread; on stream 0xBAD it fails
 * with ::CUDA_ERROR_INVALID_VALUE and never calls \p fn.
 *
 * \param hStream  - Stream to enqueue function call in
 * \param fn       - The function to call once preceding stream operations are complete
 * \param userData - User-specified data to be passed to the function
 */
CUresult CUDAAPI cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);

#define CU_LAUNCH_PARAM_END_AS_INT            0x00
#define CU_LAUNCH_PARAM_END                   ((void*)CU_LAUNCH_PARAM_END_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT 0x01
#define CU_LAUNCH_PARAM_BUFFER_POINTER        ((void*)CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT    0x02
#define CU_LAUNCH_PARAM_BUFFER_SIZE           ((void*)CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT)

/**
 * \brief Launches a CUDA function
 *
 * The fixture records \p f, the dimensions, \p sharedMemBytes and
 * \p hStream, then \p kernelParams (NULL: 0; else the int its first entry
 * points to) and \p extra (NULL: 0; else 1, the buffer size, the FNV-1a
 * hash of the buffer and its first 8 bytes). It fails with
 * ::CUDA_ERROR_INVALID_VALUE if \p extra is not the array of
 * ::CU_LAUNCH_PARAM_BUFFER_POINTER, ::CU_LAUNCH_PARAM_BUFFER_SIZE and
 * ::CU_LAUNCH_PARAM_END the header describes.
 *
 * \param f              - Kernel to launch
 * \param gridDimX       - Width of grid in blocks
 * \param gridDimY       - Height of grid in blocks
 * \param gridDimZ       - Depth of grid in blocks
 * \param blockDimX      - X dimension of each thread block
 * \param blockDimY      - Y dimension of each thread block
 * \param blockDimZ      - Z dimension of each thread block
 * \param sharedMemBytes - Dynamic shared-memory size per thread block in bytes
 * \param hStream        - Stream identifier
 * \param kernelParams   - Array of pointers to kernel parameters
 * \param extra          - Extra options
 */
CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra);

/* Registered callbacks: kept until unregistered. */
typedef struct CUasyncCallbackEntry_st *CUasyncCallbackHandle;
typedef struct CUasyncNotificationInfo_st {
    int type;
    unsigned long long bytesOverBudget;
} CUasyncNotificationInfo;
typedef void (*CUasyncCallback)(CUasyncNotificationInfo *info, void *userData, CUasyncCallbackHandle callback);

/**
 * \brief Registers \p callbackFunc until ::cuDeviceUnregisterAsyncNotification
 *
 * \param device - Device
 * \param callbackFunc - The function to register
 * \param userData - Passed to the function
 * \param callback - Returned handle of the registration
 */
CUresult CUDAAPI cuDeviceRegisterAsyncNotification(CUdevice device, CUasyncCallback callbackFunc, void *userData, CUasyncCallbackHandle *callback);

/**
 * \brief Unregisters a callback
 *
 * \param device - Device
 * \param callback - The registration to end
 */
CUresult CUDAAPI cuDeviceUnregisterAsyncNotification(CUdevice device, CUasyncCallbackHandle callback);

/**
 * \brief Fixture: calls every registered callback with \p bytes, on this thread
 *
 * \param bytes - bytesOverBudget of the notification
 */
CUresult CUDAAPI cuAbiFireAsync(unsigned long long bytes);

/* A synchronous callback without userData. */
typedef size_t (CUDA_CB *CUoccupancyB2DSize)(int blockSize);

/**
 * \brief Fixture: calls \p blockSizeToDynamicSMemSize for 32, 64 and 128 threads (NULL: uses \p dynamicSMemSize)
 *
 * \param minGridSize - Returned sum of the three shared memory sizes
 * \param blockSize - Returned block size with the least shared memory
 * \param func - Kernel (unused)
 * \param blockSizeToDynamicSMemSize - Shared memory for a block size
 * \param dynamicSMemSize - Shared memory for every block size when \p blockSizeToDynamicSMemSize is NULL
 * \param blockSizeLimit - Unused
 */
CUresult CUDAAPI cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func, CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize, int blockSizeLimit);

/**
 * \brief Add a callback to a compute stream
 *
 * The fixture calls \p callback from a new thread with \p hStream and a
 * status of \p flags.
 *
 * \param hStream  - Stream to add callback to
 * \param callback - The function to call once preceding stream operations are complete
 * \param userData - User specified data to be passed to the callback function
 * \param flags    - Reserved for future use, must be 0
 */
CUresult CUDAAPI cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags);

/**
 * \brief Block for the current context's tasks to complete
 *
 * The fixture waits until every callback it started has returned.
 */
CUresult CUDAAPI cuCtxSynchronize(void);

/* Graphs, stream capture and user objects: enough of them to run a Go
 * callback recorded by stream capture on every launch of a graph. */
typedef struct CUgraph_st *CUgraph;                          /**< CUDA graph */
typedef struct CUgraphNode_st *CUgraphNode;                  /**< CUDA graph node */
typedef struct CUgraph_st *CUgraphExec;                      /**< CUDA executable graph */
typedef struct CUuserObject_st *CUuserObject;                /**< CUDA user object for graphs */

typedef enum CUstreamCaptureStatus_enum {
    CU_STREAM_CAPTURE_STATUS_NONE        = 0, /**< Stream is not capturing */
    CU_STREAM_CAPTURE_STATUS_ACTIVE      = 1, /**< Stream is actively capturing */
    CU_STREAM_CAPTURE_STATUS_INVALIDATED = 2  /**< Stream is part of a capture sequence that has been invalidated */
} CUstreamCaptureStatus;

typedef enum CUstreamCaptureMode_enum {
    CU_STREAM_CAPTURE_MODE_GLOBAL       = 0,
    CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,
    CU_STREAM_CAPTURE_MODE_RELAXED      = 2
} CUstreamCaptureMode;

typedef enum CUuserObject_flags_enum {
    CU_USER_OBJECT_NO_DESTRUCTOR_SYNC = 1 /**< Indicates the destructor execution is not synchronized by any CUDA handle. */
} CUuserObject_flags;

typedef enum CUuserObjectRetain_flags_enum {
    CU_GRAPH_USER_OBJECT_MOVE = 1 /**< Transfer references from the caller rather than creating new references. */
} CUuserObjectRetain_flags;

/**
 * \brief Begins graph capture on a stream
 *
 * The fixture captures host functions launched into \p hStream.
 *
 * \param hStream - Stream in which to initiate capture
 * \param mode    - Capture mode
 */
CUresult CUDAAPI cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode);
#define cuStreamBeginCapture cuStreamBeginCapture_v2

/**
 * \brief Ends capture on a stream, returning the captured graph
 *
 * \param hStream - Stream to query
 * \param phGraph - The captured graph
 */
CUresult CUDAAPI cuStreamEndCapture(CUstream hStream, CUgraph *phGraph);

/**
 * \brief Query a stream's capture state
 *
 * \param hStream - The stream to query
 * \param captureStatus_out - Location to return the capture status of the stream; required
 * \param id_out - Optional location to return an id for the capture sequence.
 * \param graph_out - Optional location to return the graph being captured into.
 * \param dependencies_out - Optional location to store a pointer to an array of nodes.
 * \param numDependencies_out - Optional location to store the size of the array
 *        returned in dependencies_out.
 */
CUresult CUDAAPI cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
        unsigned long long *id_out, CUgraph *graph_out, const CUgraphNode **dependencies_out, size_t *numDependencies_out);

/**
 * \brief Create a user object
 *
 * The fixture calls \p destroy with \p ptr on the thread that drops the last reference.
 *
 * \param object_out      - Location to return the user object handle
 * \param ptr             - The pointer to pass to the destroy function
 * \param destroy         - Callback to free the user object when it is no longer in use
 * \param initialRefcount - The initial refcount to create the object with, typically 1.
 * \param flags           - Currently it is required to pass ::CU_USER_OBJECT_NO_DESTRUCTOR_SYNC
 */
CUresult CUDAAPI cuUserObjectCreate(CUuserObject *object_out, void *ptr, CUhostFn destroy,
                                    unsigned int initialRefcount, unsigned int flags);

/**
 * \brief Release a reference to a user object
 *
 * \param object - The object to release
 * \param count  - The number of references to release
 */
CUresult CUDAAPI cuUserObjectRelease(CUuserObject object, unsigned int count);

/**
 * \brief Retain a reference to a user object from a graph
 *
 * \param graph  - The graph to associate the reference with
 * \param object - The user object to retain a reference for
 * \param count  - The number of references to add to the graph
 * \param flags  - The optional flag ::CU_GRAPH_USER_OBJECT_MOVE transfers references
 */
CUresult CUDAAPI cuGraphRetainUserObject(CUgraph graph, CUuserObject object, unsigned int count, unsigned int flags);

/**
 * \brief Clones a graph
 *
 * The clone retains the user objects of \p originalGraph.
 *
 * \param phGraphClone  - Returns newly created cloned graph
 * \param originalGraph - Graph to clone
 */
CUresult CUDAAPI cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph);

/**
 * \brief Creates an executable graph from a graph
 *
 * The exec retains the user objects of \p hGraph.
 *
 * \param phGraphExec - Returns instantiated graph
 * \param hGraph      - Graph to instantiate
 * \param flags       - Flags to control instantiation.
 */
CUresult CUDAAPI cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags);

/**
 * \brief Launches an executable graph in a stream
 *
 * The fixture runs the graph's host nodes on the calling thread, in order.
 *
 * \param hGraphExec - Executable graph to launch
 * \param hStream    - Stream in which to launch the graph
 */
CUresult CUDAAPI cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream);

/**
 * \brief Destroys a graph, releasing its user objects
 *
 * \param hGraph - Graph to destroy
 */
CUresult CUDAAPI cuGraphDestroy(CUgraph hGraph);

/**
 * \brief Destroys an executable graph, releasing its user objects
 *
 * \param hGraphExec - Executable graph to destroy
 */
CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec hGraphExec);

/**
 * Host node parameters
 */
typedef struct CUDA_HOST_NODE_PARAMS_st {
    CUhostFn fn;    /**< The function to call when the node executes */
    void* userData; /**< Argument to pass to the function */
} CUDA_HOST_NODE_PARAMS_v1;
typedef CUDA_HOST_NODE_PARAMS_v1 CUDA_HOST_NODE_PARAMS;

/**
 * \brief Creates a graph
 *
 * \param phGraph - Returns newly created graph
 * \param flags   - Graph creation flags, must be 0
 */
CUresult CUDAAPI cuGraphCreate(CUgraph *phGraph, unsigned int flags);

/**
 * \brief Creates a host execution node and adds it to a graph
 *
 * \param phGraphNode     - Returns newly created node
 * \param hGraph          - Graph to which to add the node
 * \param dependencies    - Dependencies of the node
 * \param numDependencies - Number of dependencies
 * \param nodeParams      - Parameters for the host node
 */
CUresult CUDAAPI cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams);

/**
 * \brief Sets a host node's parameters
 *
 * \param hNode      - Node to set the parameters for
 * \param nodeParams - Parameters to copy
 */
CUresult CUDAAPI cuGraphHostNodeSetParams(CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams);

/**
 * \brief Sets the parameters for a host node in the given graphExec.
 *
 * \param hGraphExec - The executable graph in which to set the specified node
 * \param hNode      - Host node from the graph which was used to instantiate graphExec
 * \param nodeParams - The updated parameters to set
 */
CUresult CUDAAPI cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams);

/**
 * Graph node types
 */
typedef enum CUgraphNodeType_enum {
    CU_GRAPH_NODE_TYPE_KERNEL = 0, /**< GPU kernel node */
    CU_GRAPH_NODE_TYPE_HOST   = 3, /**< Host (executable) node */
    CU_GRAPH_NODE_TYPE_EMPTY  = 5  /**< Empty (no-op) node */
} CUgraphNodeType;

/**
 * Host node parameters
 */
typedef struct CUDA_HOST_NODE_PARAMS_v2_st {
    CUhostFn fn;    /**< The function to call when the node executes */
    void* userData; /**< Argument to pass to the function */
} CUDA_HOST_NODE_PARAMS_v2;

/**
 * Graph node parameters.  See ::cuGraphAddNode.
 */
typedef struct CUgraphNodeParams_st {
    CUgraphNodeType type; /**< Type of the node */
    int reserved0[3];     /**< Reserved.  Must be zero. */
    union {
        long long reserved1[29];       /**< Padding. Unused bytes must be zero. */
        CUDA_HOST_NODE_PARAMS_v2 host; /**< Host node parameters. */
    };
    long long reserved2; /**< Reserved bytes. Must be zero. */
} CUgraphNodeParams;

/**
 * \brief Adds a node of arbitrary type to a graph
 *
 * The fixture takes host nodes only.
 *
 * \param phGraphNode     - Returns newly created node
 * \param hGraph          - Graph to which to add the node
 * \param dependencies    - Dependencies of the node
 * \param numDependencies - Number of dependencies
 * \param nodeParams      - Specification of the node
 */
CUresult CUDAAPI cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, size_t numDependencies, CUgraphNodeParams *nodeParams);

/**
 * \brief Updates a graph node's parameters
 *
 * \param hNode      - Node to set the parameters for
 * \param nodeParams - Parameters to copy
 */
CUresult CUDAAPI cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams);

/**
 * \brief Updates a graph node's parameters in an instantiated graph
 *
 * \param hGraphExec - The executable graph in which to update the specified node
 * \param hNode      - Corresponding node from the graph from which graphExec was instantiated
 * \param nodeParams - Updated Parameters to set
 */
CUresult CUDAAPI cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *nodeParams);

#endif /* __cuda_cuda_h__ */
