package npp13

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda13/cu"
	"github.com/cugen/cugen/generated/cuda13/cublas"
	"github.com/cugen/cugen/generated/cuda13/cudart"
	"github.com/cugen/cugen/generated/cuda13/cusolvermg"
	"github.com/cugen/cugen/generated/cuda13/nppc"
	"github.com/cugen/cugen/generated/cuda13/nppial"
	"github.com/cugen/cugen/generated/cuda13/nppicc"
)

// device0 locks the test's goroutine to its OS thread and makes device 0
// current there (cudaSetDevice: its primary context) until the test ends,
// or skips the test without a GPU or a CUDA 13 runtime.
func device0(t *testing.T) {
	t.Helper()
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
	cugentest.NeedDevice(t, cu.Init(0))
	v, err := cudart.RuntimeGetVersion()
	cugentest.NeedLibrary(t, err) // a CUDA 13 runtime
	if v < 13000 {
		t.Fatalf("cudaRuntimeGetVersion = %d from the cuda13 package's runtime", v)
	}
	must(t, "cudaSetDevice", cudart.SetDevice(0))
}

func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// streamContext fills the NppStreamContext of the default stream on the
// current device as the NPP 13 documentation says (NPP 13 has no
// nppGetStreamContext): the device, its attributes and the stream's flags.
func streamContext(t *testing.T) nppc.StreamContext {
	t.Helper()
	dev, err := cudart.GetDevice()
	must(t, "cudaGetDevice", err)
	attr := func(a cudart.DeviceAttr) int32 {
		v, err := cudart.DeviceGetAttribute(a, dev)
		must(t, "cudaDeviceGetAttribute", err)
		return v
	}
	flags, err := cudart.StreamGetFlags(0) // the legacy default stream
	if err != nil {
		t.Logf("cudaStreamGetFlags(0): %v: stream flags 0", err)
		flags = 0
	}
	return nppc.StreamContext{
		NCudaDeviceId:                      dev,
		NMultiProcessorCount:               attr(cudart.DevAttrMultiProcessorCount),
		NMaxThreadsPerMultiProcessor:       attr(cudart.DevAttrMaxThreadsPerMultiProcessor),
		NMaxThreadsPerBlock:                attr(cudart.DevAttrMaxThreadsPerBlock),
		NSharedMemPerBlock:                 uint64(attr(cudart.DevAttrMaxSharedMemoryPerBlock)),
		NCudaDevAttrComputeCapabilityMajor: attr(cudart.DevAttrComputeCapabilityMajor),
		NCudaDevAttrComputeCapabilityMinor: attr(cudart.DevAttrComputeCapabilityMinor),
		NStreamFlags:                       flags,
	}
}

// image is a pitched device image of w x h pixels of ch bytes.
type image struct {
	p         unsafe.Pointer
	pitch     uint64
	w, h, ch  int
	t         *testing.T
	rowsBytes uint64
}

func newImage(t *testing.T, w, h, ch int) *image {
	t.Helper()
	p, pitch, err := cudart.MallocPitch(uint64(w*ch), uint64(h))
	must(t, "cudaMallocPitch", err)
	t.Cleanup(func() { cudart.Free(p) })
	return &image{p: p, pitch: pitch, w: w, h: h, ch: ch, t: t, rowsBytes: uint64(w * ch)}
}

// ptr is the image as the device pointer NPP's functions take.
func (im *image) ptr() ffi.DevicePtr[nppc.Npp8u] { return ffi.DevicePtr[nppc.Npp8u](uintptr(im.p)) }
func (im *image) step() int32                    { return int32(im.pitch) }
func (im *image) size() nppc.Size                { return nppc.Size{Width: int32(im.w), Height: int32(im.h)} }

func (im *image) upload(px []byte) {
	im.t.Helper()
	must(im.t, "cudaMemcpy2D", cudart.Memcpy2D(im.p, im.pitch, unsafe.Pointer(&px[0]), im.rowsBytes, im.rowsBytes, uint64(im.h), cudart.MemcpyHostToDevice))
}

func (im *image) download() []byte {
	im.t.Helper()
	px := make([]byte, im.w*im.h*im.ch)
	must(im.t, "cudaMemcpy2D", cudart.Memcpy2D(unsafe.Pointer(&px[0]), im.rowsBytes, im.p, im.pitch, im.rowsBytes, uint64(im.h), cudart.MemcpyDeviceToHost))
	return px
}

// compare fails t when a value of got differs from want by more than tol,
// and logs the largest difference.
func compare(t *testing.T, op string, got, want []byte, tol int) {
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
				t.Errorf("%s: value %d = %d, want %d (tolerance %d)", op, i, got[i], want[i], tol)
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

// TestNPPImageOps13: the CUDA 13 twin of e2e/npp's TestNPPImageOps12,
// with NPP 13's _Ctx forms (the only ones it exports) and a stream
// context filled from the runtime's device attributes: three operations
// on pitched device images of odd sizes, compared pixel by pixel with Go
// references: nppiAdd_8u_C1RSfs_Ctx (saturated, scale 0: exact),
// nppiAbsDiff_8u_C1R_Ctx (exact) and nppiRGBToGray_8u_C3C1R_Ctx (0.299 R +
// 0.587 G + 0.114 B, within 1).
func TestNPPImageOps13(t *testing.T) {
	device0(t)
	cugentest.NeedLibrary(t, nppc.SharedLibrary().Load())
	for _, l := range []interface{ Load() error }{nppial.SharedLibrary(), nppicc.SharedLibrary()} {
		cugentest.NeedLibrary(t, l.Load())
	}
	v := nppc.GetLibVersion()
	sc := streamContext(t)
	t.Logf("NPP %d.%d.%d on device %d: %d SMs, compute capability %d.%d, stream flags %d", v.Major, v.Minor, v.Build,
		sc.NCudaDeviceId, sc.NMultiProcessorCount, sc.NCudaDevAttrComputeCapabilityMajor, sc.NCudaDevAttrComputeCapabilityMinor, sc.NStreamFlags)
	r := rand.New(rand.NewPCG(29, 13))
	const w, h = 301, 203 // odd sizes: rows shorter than the pitch

	a, b := randomPixels(r, w*h), randomPixels(r, w*h)
	ia, ib, isum := newImage(t, w, h, 1), newImage(t, w, h, 1), newImage(t, w, h, 1)
	ia.upload(a)
	ib.upload(b)
	must(t, "nppiAdd_8u_C1RSfs_Ctx", nppial.Add8uC1RSfsCtx(ia.ptr(), ia.step(), ib.ptr(), ib.step(), isum.ptr(), isum.step(), isum.size(), 0, sc))
	must(t, "cudaDeviceSynchronize", cudart.DeviceSynchronize())
	want := make([]byte, w*h)
	for i := range want {
		want[i] = byte(min(int(a[i])+int(b[i]), 255))
	}
	compare(t, "nppiAdd_8u_C1RSfs_Ctx", isum.download(), want, 0)

	rgb := randomPixels(r, w*h*3)
	irgb, igray := newImage(t, w, h, 3), newImage(t, w, h, 1)
	irgb.upload(rgb)
	must(t, "nppiRGBToGray_8u_C3C1R_Ctx", nppicc.RGBToGray8uC3C1RCtx(irgb.ptr(), irgb.step(), igray.ptr(), igray.step(), igray.size(), sc))
	must(t, "cudaDeviceSynchronize", cudart.DeviceSynchronize())
	for i := range want {
		y := 0.299*float64(rgb[3*i]) + 0.587*float64(rgb[3*i+1]) + 0.114*float64(rgb[3*i+2])
		want[i] = byte(math.Min(255, math.Round(y)))
	}
	compare(t, "nppiRGBToGray_8u_C3C1R_Ctx", igray.download(), want, 1)

	idiff := newImage(t, w, h, 1)
	must(t, "nppiAbsDiff_8u_C1R_Ctx", nppial.AbsDiff8uC1RCtx(ia.ptr(), ia.step(), ib.ptr(), ib.step(), idiff.ptr(), idiff.step(), idiff.size(), sc))
	must(t, "cudaDeviceSynchronize", cudart.DeviceSynchronize())
	for i := range want {
		want[i] = max(a[i], b[i]) - min(a[i], b[i])
	}
	compare(t, "nppiAbsDiff_8u_C1R_Ctx", idiff.download(), want, 0)
}

// TestCuSOLVERMgPotrf13: cusolverMgPotrf of CUDA 13 (libcusolverMg.so.12)
// on a grid of one device (device 0) factors a symmetric positive
// definite N x N matrix A = B Bᵀ + N I (B random) into L Lᵀ; the lower
// triangle it leaves equals the Cholesky factor Go computes in float64,
// and L Lᵀ reproduces A. The matrix is laid out as cuSOLVERMg's
// column-block-cyclic distribution puts it on one device: the columns in
// order, tiles of 256 columns, leading dimension N (as e2e/npp's
// TestCuSOLVERMgSyevd12).
func TestCuSOLVERMgPotrf13(t *testing.T) {
	device0(t)
	cugentest.NeedLibrary(t, cusolvermg.SharedLibrary().Load())
	const n, tile = 300, 256
	h, err := cusolvermg.Create()
	must(t, "cusolverMgCreate", err)
	defer cusolvermg.Destroy(h)
	dev := int32(0)
	must(t, "cusolverMgDeviceSelect", cusolvermg.DeviceSelect(h, 1, &dev))
	grid, err := cusolvermg.CreateDeviceGrid(1, 1, &dev, cusolvermg.GridMappingColMajor)
	must(t, "cusolverMgCreateDeviceGrid", err)
	defer cusolvermg.DestroyGrid(grid)
	desc, err := cusolvermg.CreateMatrixDesc(n, n, n, tile, cudart.R64F, grid)
	must(t, "cusolverMgCreateMatrixDesc", err)
	defer cusolvermg.DestroyMatrixDesc(desc)

	r := rand.New(rand.NewPCG(29, 130))
	b := make([]float64, n*n)
	for i := range b {
		b[i] = r.Float64()*2 - 1
	}
	a := make([]float64, n*n) // column major, symmetric
	for j := range n {
		for i := range n {
			s := 0.0
			for k := range n {
				s += b[i+k*n] * b[j+k*n]
			}
			if i == j {
				s += n
			}
			a[i+j*n] = s
		}
	}
	cols := (n + tile - 1) / tile * tile
	dA, err := cudart.Malloc(uint64(n * cols * 8))
	must(t, "cudaMalloc", err)
	defer cudart.Free(dA)
	must(t, "cudaMemcpy", cudart.Memcpy(dA, unsafe.Pointer(&a[0]), uint64(len(a)*8), cudart.MemcpyHostToDevice))
	arrA := []ffi.DeviceAddr{ffi.DeviceAddr(uintptr(dA))} // one device: a host array of its device pointer
	lwork, err := cusolvermg.PotrfBufferSize(h, cublas.FillModeLower, n, &arrA[0], 1, 1, desc, cudart.R64F)
	must(t, "cusolverMgPotrf_bufferSize", err)
	work, err := cudart.Malloc(uint64(max(lwork, 1) * 8))
	must(t, "cudaMalloc", err)
	defer cudart.Free(work)
	arrWork := []ffi.DeviceAddr{ffi.DeviceAddr(uintptr(work))}
	var info int32
	must(t, "cusolverMgPotrf", cusolvermg.Potrf(h, cublas.FillModeLower, n, &arrA[0], 1, 1, desc, cudart.R64F, &arrWork[0], lwork, &info))
	must(t, "cudaDeviceSynchronize", cudart.DeviceSynchronize())
	if info != 0 {
		t.Fatalf("cusolverMgPotrf info = %d", info)
	}
	got := make([]float64, n*n)
	must(t, "cudaMemcpy", cudart.Memcpy(unsafe.Pointer(&got[0]), dA, uint64(len(got)*8), cudart.MemcpyDeviceToHost))

	// Go's Cholesky (column major, lower), in float64.
	l := make([]float64, n*n)
	for j := range n {
		s := a[j+j*n]
		for k := range j {
			s -= l[j+k*n] * l[j+k*n]
		}
		l[j+j*n] = math.Sqrt(s)
		for i := j + 1; i < n; i++ {
			s := a[i+j*n]
			for k := range j {
				s -= l[i+k*n] * l[j+k*n]
			}
			l[i+j*n] = s / l[j+j*n]
		}
	}
	maxErr, maxL := 0.0, 0.0
	for j := range n {
		for i := j; i < n; i++ {
			maxL = max(maxL, math.Abs(l[i+j*n]))
			e := math.Abs(got[i+j*n] - l[i+j*n])
			maxErr = max(maxErr, e)
			if e > 1e-9*maxL+1e-12 && maxErr == e {
				t.Errorf("L[%d,%d] = %.15g, Go's Cholesky gives %.15g", i, j, got[i+j*n], l[i+j*n])
			}
		}
	}
	// The residual of the GPU's factor: max |(L Lᵀ - A)[i,j]| / max |A|.
	res, maxA := 0.0, 0.0
	for j := range n {
		for i := j; i < n; i++ {
			s := 0.0
			for k := 0; k <= j; k++ {
				s += got[i+k*n] * got[j+k*n]
			}
			res = max(res, math.Abs(s-a[i+j*n]))
			maxA = max(maxA, math.Abs(a[i+j*n]))
		}
	}
	if res/maxA > 1e-12 {
		t.Errorf("L Lᵀ differs from A by up to %.3g (relative %.3g)", res, res/maxA)
	}
	t.Logf("cusolverMgPotrf, N=%d on 1 device (lwork %d doubles): largest difference from Go's Cholesky %.3g (largest |L| %.3g), relative residual |L Lᵀ - A| %.3g",
		n, lwork, maxErr, maxL, res/maxA)
}

// TestNPPMemory13: NPP's memory rule (library/npp_memory.go) on the
// GPU, in the generated signatures: nppiAddC_8u_C3RSfs_Ctx reads its
// per-channel constants (aConstants, a Go pointer) from host memory;
// nppiAddDeviceC_8u_C1RSfs_Ctx reads its constant (pConstant, an
// ffi.DevicePtr) from device memory; nppiRGBToYCbCr_8u_C3P3R_Ctx writes
// three planes through a host array of device pointers (pDst,
// *ffi.DevicePtr), which must equal the channels of the packed
// nppiRGBToYCbCr_8u_C3R_Ctx. Each result is exact.
func TestNPPMemory13(t *testing.T) {
	device0(t)
	cugentest.NeedLibrary(t, nppc.SharedLibrary().Load())
	for _, l := range []interface{ Load() error }{nppial.SharedLibrary(), nppicc.SharedLibrary()} {
		cugentest.NeedLibrary(t, l.Load())
	}
	sc := streamContext(t)
	check := func(op string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
	}
	r := rand.New(rand.NewPCG(31, 13))
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
