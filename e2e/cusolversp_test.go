package e2e

import (
	"errors"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/e2e/cudatest"
	"github.com/cugen/cugen/e2e/internal/twin"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cusolverrf"
	"github.com/cugen/cugen/generated/cuda12/cusolversp"
	"github.com/cugen/cugen/generated/cuda12/cusparse"
)

// TestCuSOLVERSpInfos12: cuSOLVERSp's functions are in Debian's
// libcusolver11 (package cusolver's library, loaded again): the
// low-level API's factorization infos are host objects, created and
// destroyed on the CPU through the generated package, every kind of them.
func TestCuSOLVERSpInfos12(t *testing.T) {
	cugentest.NeedLibrary(t, cusolversp.SharedLibrary().Load())
	qr, err := cusolversp.CreateCsrqrInfo()
	if err != nil || qr == 0 {
		t.Fatalf("CreateCsrqrInfo = %#x, %v", qr, err)
	}
	if err := cusolversp.DestroyCsrqrInfo(qr); err != nil {
		t.Error(err)
	}
	chol, err := cusolversp.CreateCsrcholInfo()
	if err != nil || chol == 0 {
		t.Fatalf("CreateCsrcholInfo = %#x, %v", chol, err)
	}
	if err := cusolversp.DestroyCsrcholInfo(chol); err != nil {
		t.Error(err)
	}
	lu, err := cusolversp.CreateCsrluInfoHost()
	if err != nil || lu == 0 {
		t.Fatalf("CreateCsrluInfoHost = %#x, %v", lu, err)
	}
	if err := cusolversp.DestroyCsrluInfoHost(lu); err != nil {
		t.Error(err)
	}
	qrh, err := cusolversp.CreateCsrqrInfoHost()
	if err != nil || qrh == 0 {
		t.Fatalf("CreateCsrqrInfoHost = %#x, %v", qrh, err)
	}
	if err := cusolversp.DestroyCsrqrInfoHost(qrh); err != nil {
		t.Error(err)
	}
	cholh, err := cusolversp.CreateCsrcholInfoHost()
	if err != nil || cholh == 0 {
		t.Fatalf("CreateCsrcholInfoHost = %#x, %v", cholh, err)
	}
	if err := cusolversp.DestroyCsrcholInfoHost(cholh); err != nil {
		t.Error(err)
	}
}

// TestCuSOLVERSpRfWithoutGPU12: a cuSOLVERSp or cuSOLVERRf handle needs
// a device; without one, Create fails with cuSOLVER's typed status
// (CUSOLVER_STATUS_NOT_INITIALIZED from Debian's libcusolver 11.6.1), an
// ffi.CallError naming the C function. On a GPU machine it succeeds.
func TestCuSOLVERSpRfWithoutGPU12(t *testing.T) {
	cugentest.NeedLibrary(t, cusolversp.SharedLibrary().Load())
	cugentest.NeedLibrary(t, cusolverrf.SharedLibrary().Load())
	h, err := cusolversp.Create()
	if err == nil {
		if err := cusolversp.Destroy(h); err != nil {
			t.Error(err)
		}
		cugentest.SkipHasGPU(t, "cusolverSpCreate succeeded")
	}
	var ce *ffi.CallError
	var st cusolversp.Status
	if !errors.As(err, &ce) || !errors.As(err, &st) || st != cusolversp.StatusNotInitialized {
		t.Errorf("cusolversp.Create without a device = %v (%T), want CUSOLVER_STATUS_NOT_INITIALIZED", err, err)
	}
	_, err = cusolverrf.Create()
	var rst cusolverrf.Status
	if !errors.As(err, &ce) || !errors.As(err, &rst) || rst != cusolverrf.StatusNotInitialized {
		t.Errorf("cusolverrf.Create without a device = %v (%T), want CUSOLVER_STATUS_NOT_INITIALIZED", err, err)
	}
}

// TestCuSOLVERSpLinearSolveGPU12: the core of NVIDIA's
// cuSolverSp_LinearSolver sample. cusolverSpDcsrlsvluHost (on the host,
// through a handle that needs a device) solves A x = b for the 1-D
// Laplacian A (2 on the diagonal, -1 beside it, in CSR) with b = A *
// (1, 2, ..., n), so x is (1, 2, ..., n), and returns singularity -1;
// XcsrissymHost returns 1, A is symmetric (both results: spOutputs in
// package library). Skips without a GPU (fails under CUGEN_REQUIRE_GPU=1).
func TestCuSOLVERSpLinearSolveGPU12(t *testing.T) {
	_, done := cudatest.Device0(t)
	defer done()
	cugentest.NeedLibrary(t, cusolversp.SharedLibrary().Load())
	cugentest.NeedLibrary(t, cusparse.SharedLibrary().Load())
	const n = 64
	l := twin.NewLaplacian(n)
	rowPtr, colInd, val := l.RowPtr, l.ColInd, l.Val
	h, err := cusolversp.Create()
	if err != nil {
		t.Fatal(err)
	}
	defer cusolversp.Destroy(h)
	descr, err := cusparse.CreateMatDescr()
	if err != nil {
		t.Fatal(err)
	}
	defer cusparse.DestroyMatDescr(descr)
	sym, err := cusolversp.XcsrissymHost(h, n, int32(len(val)), descr, &rowPtr[0], &rowPtr[1], &colInd[0])
	if err != nil {
		t.Fatal(err)
	}
	if sym != 1 {
		t.Errorf("XcsrissymHost of the Laplacian: %d, want 1", sym)
	}
	x := make([]float64, n)
	singularity, err := cusolversp.DcsrlsvluHost(h, n, int32(len(val)), descr, &val[0], &rowPtr[0], &colInd[0], &l.B[0], 1e-12, 0, &x[0])
	if err != nil {
		t.Fatal(err)
	}
	if singularity != -1 {
		t.Errorf("singularity %d, want -1 (A is invertible)", singularity)
	}
	l.Check(t, x)
}

// TestCuSOLVERRfSettingsGPU12: a cuSOLVERRf handle keeps the settings it
// is given: the algorithms, the numeric properties and the matrix format
// read back (the getters return both values: library.CuSOLVERRf's
// Directions). Skips without a GPU (fails under CUGEN_REQUIRE_GPU=1).
func TestCuSOLVERRfSettingsGPU12(t *testing.T) {
	_, done := cudatest.Device0(t)
	defer done()
	cugentest.NeedLibrary(t, cusolverrf.SharedLibrary().Load())
	h, err := cusolverrf.Create()
	if err != nil {
		t.Fatal(err)
	}
	defer cusolverrf.Destroy(h)
	if err := cusolverrf.SetAlgs(h, cusolverrf.FactorizationAlg2, cusolverrf.TriangularSolveAlg3); err != nil {
		t.Fatal(err)
	}
	if f, s, err := cusolverrf.GetAlgs(h); err != nil || f != cusolverrf.FactorizationAlg2 || s != cusolverrf.TriangularSolveAlg3 {
		t.Errorf("GetAlgs = %v, %v, %v; want ALG2, ALG3", f, s, err)
	}
	if err := cusolverrf.SetNumericProperties(h, 1e-14, 1e-7); err != nil {
		t.Fatal(err)
	}
	if z, b, err := cusolverrf.GetNumericProperties(h); err != nil || z != 1e-14 || b != 1e-7 {
		t.Errorf("GetNumericProperties = %g, %g, %v; want 1e-14, 1e-7", z, b, err)
	}
	if err := cusolverrf.SetMatrixFormat(h, cusolverrf.MatrixFormatCsr, cusolverrf.UnitDiagonalAssumedL); err != nil {
		t.Fatal(err)
	}
	if f, d, err := cusolverrf.GetMatrixFormat(h); err != nil || f != cusolverrf.MatrixFormatCsr || d != cusolverrf.UnitDiagonalAssumedL {
		t.Errorf("GetMatrixFormat = %v, %v, %v; want CSR, ASSUMED_L", f, d, err)
	}
}
