/**
 * \brief Notes, written and aliased
 *
 * \note This is a written note
 * over two lines.
 *
 * \note_null_stream
 * \notefnerr
 * \note_init_rt
 * \note_callback
 * \note_string_api_deprecation
 * \note_graph_thread_safety
 * \note_cudaKernel_t
 * \note_null_event
 * \note_destroy_ub
 * \note_memcpy
 * \note_memset
 * \note_sync
 * \note_async
 * \note_version_mixing
 * \note_device_sync_deprecated
 */
CUresult CUDAAPI cuNotes(void);
