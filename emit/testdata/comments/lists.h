/**
 * \brief Returns information about the device
 *
 * Returns in \p *pi the integer value of the attribute \p attrib on device
 * \p dev. The supported attributes are:
 * - ::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: Maximum number of threads per
 *   block;
 * - ::CU_MEM_LOCATION_TYPE_DEVICE: an item whose name is a constant of this
 *   package, over
 *   three lines;
 *   - a nested item, flattened
 * - ::cuDeviceGet: a function
 * This line, not indented, starts a paragraph after the list.
 *
 * HTML lists (nvrtc.h):
 * <ul>
 *   <li>first item</li>
 *   <li>second <b>item</b></li>
 * </ul>
 *
 * \param pi     - Returned device attribute value
 * \param attrib - Device attribute to query
 * \param dev    - Device handle
 */
CUresult CUDAAPI cuDeviceGetAttribute(int *pi, int attrib, CUdevice dev);

/**
 * \brief Returns a handle to a compute device
 */
CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal);
