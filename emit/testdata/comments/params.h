/**
 * \brief Returns an identifier string for the device
 *
 * Returns an ASCII string identifying the device \p dev in the NULL-terminated
 * string pointed to by \p name. \p len specifies the maximum length of the
 * string that may be returned.
 *
 * \param name - Returned identifier string for the device
 * \param len  - Maximum length of string to store in \p name
 * \param dev  - Device to get identifier string for
 */
CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev);

/**
 * \brief Return an LUID and device node mask for the device
 *
 * \param luid - Returned LUID
 * \param deviceNodeMask - Returned device node mask
 * \param dev  - Device to get identifier string for
 */
CUresult CUDAAPI cuDeviceGetLuid(char *luid, unsigned int *deviceNodeMask, CUdevice dev);

/**
 * \brief Gets the string description of an error code
 *
 * Sets \p *pStr to the address of a NULL-terminated string description
 * of the error code \p error.
 *
 * \param error - Error code to convert to string
 * \param pStr - Address of the string pointer.
 */
CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pStr);

/**
 * \brief Tags in brackets, with and without spaces (as nvrtc.h writes them)
 *
 * \param[in] src          - Source, read
 * \param[out] dst         - Destination, written; its text goes on
 *                           over two lines
 * \param[in,out] count    - See description
 * \param   [in]  flags    Flags.\n
 *                         Must be 0.\n
 * \param notAParameter    - Documented, but not in the declaration
 */
CUresult CUDAAPI cuCopyTagged(const int *src, int *dst, size_t *count, unsigned int flags);

/**
 * \brief Adds a callback
 *
 * \param fn       - The function to call once preceding stream operations are complete
 * \param userData - User-specified data to be passed to the function
 */
CUresult CUDAAPI cuLaunchHostFuncLike(CUhostFn fn, void *userData);
