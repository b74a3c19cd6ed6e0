package npp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/e2e/cudatest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cublas"
	"github.com/cugen/cugen/generated/cuda12/cudart"
	"github.com/cugen/cugen/generated/cuda12/cusolver"
	"github.com/cugen/cugen/generated/cuda12/cusolvermg"
	"github.com/cugen/cugen/generated/cuda12/nppc"
	"github.com/cugen/cugen/generated/cuda12/nppial"
	"github.com/cugen/cugen/generated/cuda12/nppicc"
)

// image is a pitched device image of w x h pixels of ch bytes.
type image struct {
	p         unsafe.Pointer
	pitch     uint64
	w, h, ch  int
	t         testing.TB
	rowsBytes uint64
}

func newImage(t testing.TB, w, h, ch int) *image {
	t.Helper()
	p, pitch, err := cudart.MallocPitch(uint64(w*ch), uint64(h))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cudart.Free(p) })
	return &image{p: p, pitch: pitch, w: w, h: h, ch: ch, t: t, rowsBytes: uint64(w * ch)}
}

// ptr is the image as the device pointer NPP's functions take.
func (im *image) ptr() ffi.DevicePtr[nppc.Npp8u] { return ffi.DevicePtr[nppc.Npp8u](uintptr(im.p)) }
func (im *image) step() int32                    { return int32(im.pitch) }
func (im *image) size() nppc.Size                { return nppc.Size{Width: int32(im.w), Height: int32(im.h)} }

func (im *image) upload(px []byte) {
	im.t.Helper()
	if err := cudart.Memcpy2D(im.p, im.pitch, unsafe.Pointer(&px[0]), im.rowsBytes, im.rowsBytes, uint64(im.h), cudart.MemcpyHostToDevice); err != nil {
		im.t.Fatal(err)
	}
}

func (im *image) download() []byte {
	im.t.Helper()
	px := make([]byte, im.w*im.h*im.ch)
	if err := cudart.Memcpy2D(unsafe.Pointer(&px[0]), im.rowsBytes, im.p, im.pitch, im.rowsBytes, uint64(im.h), cudart.MemcpyDeviceToHost); err != nil {
		im.t.Fatal(err)
	}
	return px
}

// compare fails t when a pixel of got differs from want by more than tol,
// and logs the largest difference.
func compare(t testing.TB, op string, got, want []byte, tol int) {
	t.Helper()
	bad, maxd := 0, 0
	for i := range want {
		d := int(got[i]) - int(want[i])
		if d < 0 {
			d = -d
		}
		maxd = max(maxd, d)
		if d > tol {
			if bad < 5 {
				t.Errorf("%s: pixel %d = %d, want %d (tolerance %d)", op, i, got[i], want[i], tol)
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d values wrong", op, bad, len(want))
	}
	t.Logf("%s: %d values, largest difference from the Go reference %d (tolerance %d)", op, len(want), maxd, tol)
}

func randomPixels(r *rand.Rand, n int) []byte {
	px := make([]byte, n)
	for i := range px {
		px[i] = byte(r.IntN(256))
	}
	return px
}

// TestNPPImageOps12: three NPP image operations on pitched device images
// of odd sizes, each with the NppStreamContext (48 bytes, passed by value
// after more arguments than there are registers) that nppGetStreamContext
// filled, compared pixel by pixel with Go references:
// nppiAdd_8u_C1RSfs_Ctx (saturated, scale 0: exact),
// nppiAbsDiff_8u_C1R_Ctx (exact) and nppiRGBToGray_8u_C3C1R_Ctx (0.299 R
// + 0.587 G + 0.114 B, within 1). The libraries are those the GPU bundle
// carries (nppc, nppial, nppicc).
func TestNPPImageOps12(t *testing.T) {
	_, done := cudatest.Device0(t)
	defer done()
	cugentest.NeedLibrary(t, nppc.SharedLibrary().Load())
	for _, l := range []interface{ Load() error }{nppial.SharedLibrary(), nppicc.SharedLibrary()} {
		cugentest.NeedLibrary(t, l.Load())
	}
	v := nppc.GetLibVersion()
	var sc nppc.StreamContext
	if err := nppc.GetStreamContext(&sc); err != nil {
		t.Fatal(err)
	}
	t.Logf("NPP %d.%d.%d on device %d: %d SMs, compute capability %d.%d", v.Major, v.Minor, v.Build,
		sc.NCudaDeviceId, sc.NMultiProcessorCount, sc.NCudaDevAttrComputeCapabilityMajor, sc.NCudaDevAttrComputeCapabilityMinor)
	r := rand.New(rand.NewPCG(29, 1))
	const w, h = 301, 203 // odd sizes: rows shorter than the pitch

	// Add: saturated 8-bit sum.
	a, b := randomPixels(r, w*h), randomPixels(r, w*h)
	ia, ib, isum := newImage(t, w, h, 1), newImage(t, w, h, 1), newImage(t, w, h, 1)
	ia.upload(a)
	ib.upload(b)
	if err := nppial.Add8uC1RSfsCtx(ia.ptr(), ia.step(), ib.ptr(), ib.step(), isum.ptr(), isum.step(), isum.size(), 0, sc); err != nil {
		t.Fatal(err)
	}
	want := make([]byte, w*h)
	for i := range want {
		want[i] = byte(min(int(a[i])+int(b[i]), 255))
	}
	compare(t, "nppiAdd_8u_C1RSfs_Ctx", isum.download(), want, 0)

	// RGB to gray.
	rgb := randomPixels(r, w*h*3)
	irgb, igray := newImage(t, w, h, 3), newImage(t, w, h, 1)
	irgb.upload(rgb)
	if err := nppicc.RGBToGray8uC3C1RCtx(irgb.ptr(), irgb.step(), igray.ptr(), igray.step(), igray.size(), sc); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		y := 0.299*float64(rgb[3*i]) + 0.587*float64(rgb[3*i+1]) + 0.114*float64(rgb[3*i+2])
		want[i] = byte(math.Min(255, math.Round(y)))
	}
	compare(t, "nppiRGBToGray_8u_C3C1R_Ctx", igray.download(), want, 1)

	// Absolute difference of the two images.
	idiff := newImage(t, w, h, 1)
	if err := nppial.AbsDiff8uC1RCtx(ia.ptr(), ia.step(), ib.ptr(), ib.step(), idiff.ptr(), idiff.step(), idiff.size(), sc); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		want[i] = byte(max(a[i], b[i]) - min(a[i], b[i]))
	}
	compare(t, "nppiAbsDiff_8u_C1R_Ctx", idiff.download(), want, 0)
}

// TestCuSOLVERMgSyevd12: cusolverMgSyevd on a grid of one device (device
// 0) computes the eigenvalues of the N x N second-difference matrix (2 on
// the diagonal, -1 beside it), which are known in closed form:
// 2 - 2 cos(k pi / (N+1)), k = 1..N, ascending. The matrix is laid out as
// cuSOLVERMg's column-block-cyclic distribution puts it on one device:
// the columns in order, tiles of 256 columns, leading dimension N.
func TestCuSOLVERMgSyevd12(t *testing.T) {
	_, done := cudatest.Device0(t)
	defer done()
	cugentest.NeedLibrary(t, cusolvermg.SharedLibrary().Load())
	const n, tile = 300, 256
	h, err := cusolvermg.Create()
	if err != nil {
		t.Fatal(err)
	}
	defer cusolvermg.Destroy(h)
	dev := int32(0)
	if err := cusolvermg.DeviceSelect(h, 1, &dev); err != nil {
		t.Fatal(err)
	}
	grid, err := cusolvermg.CreateDeviceGrid(1, 1, &dev, cusolvermg.GridMappingColMajor)
	if err != nil {
		t.Fatal(err)
	}
	defer cusolvermg.DestroyGrid(grid)
	desc, err := cusolvermg.CreateMatrixDesc(n, n, n, tile, cudart.R64F, grid)
	if err != nil {
		t.Fatal(err)
	}
	defer cusolvermg.DestroyMatrixDesc(desc)

	a := make([]float64, n*n) // column major
	for i := range n {
		a[i*n+i] = 2
		if i+1 < n {
			a[i*n+i+1], a[(i+1)*n+i] = -1, -1
		}
	}
	cols := (n + tile - 1) / tile * tile
	dA, err := cudart.Malloc(uint64(n * cols * 8))
	if err != nil {
		t.Fatal(err)
	}
	defer cudart.Free(dA)
	if err := cudart.Memcpy(dA, unsafe.Pointer(&a[0]), uint64(len(a)*8), cudart.MemcpyHostToDevice); err != nil {
		t.Fatal(err)
	}
	arrA := []ffi.DeviceAddr{ffi.DeviceAddr(uintptr(dA))} // one device: a host array of its device pointer
	w := make([]float64, n)
	lwork, err := cusolvermg.SyevdBufferSize(h, cusolver.EigModeVector, cublas.FillModeLower, n, &arrA[0], 1, 1, desc,
		unsafe.Pointer(&w[0]), cudart.R64F, cudart.R64F)
	if err != nil {
		t.Fatal(err)
	}
	work, err := cudart.Malloc(uint64(lwork * 8))
	if err != nil {
		t.Fatal(err)
	}
	defer cudart.Free(work)
	arrWork := []ffi.DeviceAddr{ffi.DeviceAddr(uintptr(work))}
	var info int32
	if err := cusolvermg.Syevd(h, cusolver.EigModeVector, cublas.FillModeLower, n, &arrA[0], 1, 1, desc,
		unsafe.Pointer(&w[0]), cudart.R64F, cudart.R64F, &arrWork[0], lwork, &info); err != nil {
		t.Fatal(err)
	}
	if err := cudart.DeviceSynchronize(); err != nil {
		t.Fatal(err)
	}
	if info != 0 {
		t.Fatalf("cusolverMgSyevd info = %d", info)
	}
	maxErr := 0.0
	for k := range n {
		want := 2 - 2*math.Cos(float64(k+1)*math.Pi/float64(n+1))
		e := math.Abs(w[k] - want)
		maxErr = max(maxErr, e)
		if e > 1e-10 {
			t.Errorf("eigenvalue %d = %.15g, want %.15g", k, w[k], want)
		}
	}
	t.Logf("cusolverMgSyevd, N=%d on 1 device (lwork %d doubles): largest eigenvalue error %.3g", n, lwork, maxErr)
}

// TestNPPMemory12: NPP's memory rule (library/npp_memory.go) on the
// GPU, in the generated signatures: nppiAddC_8u_C3RSfs_Ctx reads its
// per-channel constants (aConstants, a Go pointer) from host memory;
// nppiAddDeviceC_8u_C1RSfs_Ctx reads its constant (pConstant, an
// ffi.DevicePtr) from device memory; nppiRGBToYCbCr_8u_C3P3R_Ctx writes
// three planes through a host array of device pointers (pDst,
// *ffi.DevicePtr), which must equal the channels of the packed
// nppiRGBToYCbCr_8u_C3R_Ctx. Each result is exact.
func TestNPPMemory12(t *testing.T) {
	_, done := cudatest.Device0(t)
	defer done()
	cugentest.NeedLibrary(t, nppc.SharedLibrary().Load())
	for _, l := range []interface{ Load() error }{nppial.SharedLibrary(), nppicc.SharedLibrary()} {
		cugentest.NeedLibrary(t, l.Load())
	}
	var sc nppc.StreamContext
	if err := nppc.GetStreamContext(&sc); err != nil {
		t.Fatal(err)
	}
	check := func(op string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
	}
	r := rand.New(rand.NewPCG(31, 12))
	const w, h = 157, 61

	// Host constants, one per channel.
	rgb := randomPixels(r, w*h*3)
	irgb, iadd := newImage(t, w, h, 3), newImage(t, w, h, 3)
	irgb.upload(rgb)
	consts := [3]nppc.Npp8u{10, 100, 200}
	check("nppiAddC_8u_C3RSfs_Ctx", nppial.AddC8uC3RSfsCtx(irgb.ptr(), irgb.step(), &consts[0], iadd.ptr(), iadd.step(), iadd.size(), 0, sc))
	want := make([]byte, w*h*3)
	for i := range want {
		want[i] = byte(min(int(rgb[i])+int(consts[i%3]), 255))
	}
	compare(t, "nppiAddC_8u_C3RSfs_Ctx", iadd.download(), want, 0)

	// A device constant.
	gray := randomPixels(r, w*h)
	igray, idev := newImage(t, w, h, 1), newImage(t, w, h, 1)
	igray.upload(gray)
	dc, err := cudart.Malloc(1)
	check("cudaMalloc", err)
	t.Cleanup(func() { cudart.Free(dc) })
	seven := byte(7)
	check("cudaMemcpy", cudart.Memcpy(dc, unsafe.Pointer(&seven), 1, cudart.MemcpyHostToDevice))
	check("nppiAddDeviceC_8u_C1RSfs_Ctx", nppial.AddDeviceC8uC1RSfsCtx(igray.ptr(), igray.step(), ffi.DevicePtr[nppc.Npp8u](uintptr(dc)), idev.ptr(), idev.step(), idev.size(), 0, sc))
	want = want[:w*h]
	for i := range want {
		want[i] = byte(min(int(gray[i])+7, 255))
	}
	compare(t, "nppiAddDeviceC_8u_C1RSfs_Ctx", idev.download(), want, 0)

	// Planes through a host array of device pointers.
	packed := newImage(t, w, h, 3)
	check("nppiRGBToYCbCr_8u_C3R_Ctx", nppicc.RGBToYCbCr8uC3RCtx(irgb.ptr(), irgb.step(), packed.ptr(), packed.step(), packed.size(), sc))
	planes := [3]*image{newImage(t, w, h, 1), newImage(t, w, h, 1), newImage(t, w, h, 1)}
	if planes[1].pitch != planes[0].pitch || planes[2].pitch != planes[0].pitch {
		t.Fatalf("plane pitches %d, %d, %d differ: the planar call takes one step", planes[0].pitch, planes[1].pitch, planes[2].pitch)
	}
	dst := [3]ffi.DevicePtr[nppc.Npp8u]{planes[0].ptr(), planes[1].ptr(), planes[2].ptr()}
	check("nppiRGBToYCbCr_8u_C3P3R_Ctx", nppicc.RGBToYCbCr8uC3P3RCtx(irgb.ptr(), irgb.step(), &dst[0], planes[0].step(), planes[0].size(), sc))
	ycc := packed.download()
	for c, pl := range planes {
		for i := range want {
			want[i] = ycc[3*i+c]
		}
		compare(t, fmt.Sprintf("nppiRGBToYCbCr_8u_C3P3R_Ctx plane %d", c), pl.download(), want, 0)
	}
}
