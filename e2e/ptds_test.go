package e2e

import (
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cu"
)

// TestPerThreadDefaultStream runs the vector add in a fresh process with
// CUGEN_DEFAULT_STREAM=per-thread, where the driver package binds the
// _ptds/_ptsz symbols (as C compiled with --default-stream per-thread does):
// the library reports the mode and the kernel, copies and synchronisation
// through the per-thread default stream give the right result.
func TestPerThreadDefaultStream(t *testing.T) {
	if !cugentest.IsChild(t) {
		cugentest.RunChild(t, ffi.DefaultStreamEnv+"=per-thread")
		return
	}
	_, done := gpu12(t)
	defer done()
	if !cu.SharedLibrary().PerThreadDefaultStream() {
		t.Fatal("CUGEN_DEFAULT_STREAM=per-thread did not select the per-thread default stream")
	}
	if _, err := cu.SharedLibrary().Lookup("cuLaunchKernel_ptsz"); err != nil {
		t.Fatal(err)
	}
	TestVectorAdd12(t)
	if err := cu.StreamSynchronize(cu.StreamPerThread); err != nil {
		t.Fatalf("cuStreamSynchronize(CU_STREAM_PER_THREAD): %v", err)
	}
	t.Log("vector add through the per-thread default stream (cuLaunchKernel_ptsz, cuMemcpyHtoD_v2_ptds)")
}
