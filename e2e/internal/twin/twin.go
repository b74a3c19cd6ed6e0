// Package twin holds what e2e's tests of the CUDA 12 packages and their
// CUDA 13 twins in e2e13 share and that names no generated package: the
// inputs they build, the values they expect and the checks of results.
// The calls stay in each test, on its major's types. Test-only: nothing
// else imports it.
package twin

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// NVVMScale is a kernel in NVVM IR text (LLVM 7 syntax, which libNVVM of
// CUDA 12 and 13 reads): p[threadIdx.x] *= a. It is a format: its two
// %d are the IR version's major and minor (nvvmIRVersion).
const NVVMScale = `target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @scale(float* %%p, float %%a) {
entry:
  %%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %%idx = sext i32 %%tid to i64
  %%ptr = getelementptr inbounds float, float* %%p, i64 %%idx
  %%v = load float, float* %%ptr, align 4
  %%m = fmul float %%v, %%a
  store float %%m, float* %%ptr, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() nounwind readnone

!nvvm.annotations = !{!0}
!0 = !{void (float*, float)* @scale, !"kernel", i32 1}

!nvvmir.version = !{!1}
!1 = !{i32 %d, i32 %d}
`

// CuFileCompat sends the log cuFile writes when it opens (cufile.log in
// the working directory) to the test's temporary directory, and gives
// cuFile a configuration of its own (CUFILE_ENV_PATH_JSON) that forces
// compatibility mode: reads through the page cache, which every file
// system has, where no GPUDirect Storage driver (nvidia-fs) is loaded. It
// returns the log's path.
func CuFileCompat(t *testing.T) string {
	dir := t.TempDir()
	log := filepath.Join(dir, "cufile.log")
	t.Setenv("CUFILE_LOGFILE_PATH", log)
	conf := filepath.Join(dir, "cufile.json")
	os.WriteFile(conf, []byte(`{"logging": {"level": "ERROR"}, "properties": {"allow_compat_mode": true, "force_compat_mode": true, "use_poll_mode": false}}`), 0o600)
	t.Setenv("CUFILE_ENV_PATH_JSON", conf)
	return log
}

// Laplacian is the linear system of NVIDIA's cuSolverSp_LinearSolver
// sample, as TestCuSOLVERSpLinearSolveGPU12 and its CUDA 13 twin solve
// it: the n-by-n 1-D Laplacian A (2 on the diagonal, -1 beside it) in
// zero-based CSR, and b = A * (1, 2, ..., n), so that A x = b has the
// solution Want = (1, 2, ..., n).
type Laplacian struct {
	RowPtr, ColInd []int32
	Val, B, Want   []float64
}

// NewLaplacian builds the system of order n.
func NewLaplacian(n int) *Laplacian {
	l := &Laplacian{Want: make([]float64, n), B: make([]float64, n)}
	for i := range n {
		l.Want[i] = float64(i + 1)
		l.RowPtr = append(l.RowPtr, int32(len(l.Val)))
		for j := max(i-1, 0); j <= min(i+1, n-1); j++ {
			v := -1.0
			if j == i {
				v = 2
			}
			l.ColInd, l.Val = append(l.ColInd, int32(j)), append(l.Val, v)
			l.B[i] += v * float64(j+1)
		}
	}
	l.RowPtr = append(l.RowPtr, int32(len(l.Val)))
	return l
}

// Check fails t unless x is Want, within the rounding of a direct solve.
func (l *Laplacian) Check(t *testing.T, x []float64) {
	t.Helper()
	for i := range x {
		if math.Abs(x[i]-l.Want[i]) > 1e-9*float64(len(x)) {
			t.Fatalf("x[%d] = %g, want %g", i, x[i], l.Want[i])
		}
	}
}
