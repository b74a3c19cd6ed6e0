/**
 * \brief Inline markup: <b>bold</b>, <i>italic</i>, <tt>tt</tt>, <small>small</small>,
 * \e emphasis, \b bold, \c code, \a arg, \em em.
 *
 * Entities: (1000 &times; major + 10 &times; minor), a &lt; b.
 * A range <b>[0,
 * ::cuDeviceGetCount()-1]</b>.
 * References: ::cuDeviceGetCount (a function), ::CUcontext (a type),
 * ::CU_MEM_LOCATION_TYPE_DEVICE (a constant), ::cudaMalloc (not in this package).
 * \ref ::cuDeviceGetCount "the count (C API)", \ref ::cuDeviceGetCount(),
 * \ref CUDART_HIGHLEVEL "C++ API", \link ::cuDeviceGetCount \endlink and
 * \link #CUresult CUDA_SUCCESS \endlink.
 * Parameters: \p count, \p *count and \p **count; a typo in the header: \phCount, \pdata;
 * an option: ptxas \p --abi-compile no.
 * Line breaks: one\n two<br> three. Escapes (nvrtc.h): --gpu-architecture=\<arch\>, \#define.
 *
 * A table:
 * <table>
 * <tr><th>Name</th><th>Meaning</th></tr>
 * <tr><td>a</td><td>first</td></tr>
 * </table>
 *
 * \param count - Returned number of devices
 */
CUresult CUDAAPI cuDeviceGetCount(int *count);
