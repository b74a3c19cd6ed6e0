/**
 * Context creation flags, documented before the enum
 */
typedef enum CUctxflags_enum {
    CU_CTX_SCHED_AUTO = 0x00, /**< Automatic scheduling */
    CU_CTX_SCHED_SPIN = 0x01, /**< Set spin as default scheduling */
    /**
     * A value documented before it, over
     * two lines, with a second sentence.
     */
    CU_CTX_SCHED_YIELD = 0x02
} CUctxflags;

/**
 * A record documented before it
 */
typedef struct CUpoint_st {
    int x; /**< The x coordinate, see ::CUctxflags */
    int y; /**< The y coordinate &ndash; in pixels */
} CUpoint;

/**
 * A handle type
 */
typedef struct CUthing_st *CUthing;

#define CU_THING_NONE ((CUthing)0x0) /**< No thing */

/**
 * A documented limit
 */
#define CU_THING_MAX 8

/** Errors */
typedef enum CUwrapErr_enum {
    /**
     * This indicates that no CUDA-capable devices were detected by the installed
     * CUDA driver.
     */
    CU_WRAP_NO_DEVICE = 100
} CUwrapErr;
