/**
 * \defgroup CUDA_STRUCTURE Structure
 * \ingroup CUDA_DRIVER
 * \{
 */

/**
 * \brief Paragraphs with par
 *
 * \par
 * If ::CU_MEM_LOCATION_TYPE_DEVICE, the first case
 * applies.
 *
 * \par
 * Otherwise the second.
 *
 * \section sec_title A section title
 * \xmlonly
 * <para>dropped with its contents</para>
 * \endxmlonly
 * \latexonly
 * dropped too
 * \endlatexonly
 * \cond
 * Kept: cond only marks conditional text.
 * \endcond
 * JIT options end their lines with a break, which is a space:
 * Option type: unsigned int\n
 * Applies to: compiler only\n
 */
CUresult CUDAAPI cuStructure(void);

/** \} */
