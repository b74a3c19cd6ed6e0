package fft

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"runtime"
	"testing"

	cuda "github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cufft"
	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/cugentest/standin"
	"github.com/cugen/cugen/ffi"
)

// The GPU tests compare cuFFT through Plan with a Go DFT. They skip
// without a GPU (cugentest.NeedDevice).

func gpuSetup(t testing.TB) (*cuda.Context, *cuda.Stream) {
	t.Helper()
	ctx, err := cuda.NewContext(0)
	cugentest.NeedDevice(t, err)
	t.Cleanup(func() { ctx.Close() })
	cugentest.NeedLibrary(t, cufft.SharedLibrary().Load())
	s := standin.Keep(ctx.NewStream())(t)
	return ctx, s
}

func upload[T any](t testing.TB, ctx *cuda.Context, x []T) *cuda.Buffer[T] {
	t.Helper()
	b, err := cuda.AllocFrom(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func alloc[T any](t testing.TB, ctx *cuda.Context, n int) *cuda.Buffer[T] {
	t.Helper()
	b, err := cuda.Alloc[T](ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func download[T any](t testing.TB, s *cuda.Stream, b *cuda.Buffer[T]) []T {
	t.Helper()
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	out := make([]T, b.Len())
	if err := b.CopyTo(out); err != nil {
		t.Fatal(err)
	}
	return out
}

func plan(t testing.TB, ctx *cuda.Context, s *cuda.Stream, d Desc) *Plan {
	t.Helper()
	p, err := NewPlan(ctx, s, d)
	if err != nil {
		t.Fatalf("NewPlan(%v %v batch %d): %v", d.Type, d.Dims, d.Batch, err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// dft is the multidimensional DFT of x (C order, sizes dims) with the
// sign of the exponent, by one naive DFT along each axis.
func dft(x []complex128, dims []int, sign float64) []complex128 {
	y := append([]complex128(nil), x...)
	stride := 1
	for a := len(dims) - 1; a >= 0; a-- {
		n := dims[a]
		line := make([]complex128, n)
		for base := range len(y) {
			if (base/stride)%n != 0 {
				continue // not the start of a line along axis a
			}
			for k := range n {
				var sum complex128
				for j := range n {
					sum += y[base+j*stride] * cmplx.Rect(1, sign*2*math.Pi*float64(j*k%n)/float64(n))
				}
				line[k] = sum
			}
			for k := range n {
				y[base+k*stride] = line[k]
			}
		}
		stride *= n
	}
	return y
}

// maxErr returns max |got-want| relative to max |want|.
func maxErr(got, want []complex128) float64 {
	var e, m float64
	for i := range want {
		e = max(e, cmplx.Abs(got[i]-want[i]))
		m = max(m, cmplx.Abs(want[i]))
	}
	return e / m
}

func signal(n int, seed float64) []complex128 {
	x := make([]complex128, n)
	for i := range x {
		f := float64(i)
		x[i] = complex(math.Sin(0.37*f+seed)+0.25*math.Cos(1.3*f), math.Cos(0.11*f*seed)-0.5)
	}
	return x
}

func to64(x []complex128) []complex64 {
	y := make([]complex64, len(x))
	for i, v := range x {
		y[i] = complex64(v)
	}
	return y
}

func from64(x []complex64) []complex128 {
	y := make([]complex128, len(x))
	for i, v := range x {
		y[i] = complex128(v)
	}
	return y
}

// batchDFT is dft of each of batch contiguous transforms.
func batchDFT(x []complex128, dims []int, batch int, sign float64) []complex128 {
	per := len(x) / batch
	var y []complex128
	for b := range batch {
		y = append(y, dft(x[b*per:(b+1)*per], dims, sign)...)
	}
	return y
}

// halfSpectrum keeps the first n/2+1 of each last-axis line of x.
func halfSpectrum(x []complex128, last int) []complex128 {
	var y []complex128
	for i := 0; i < len(x); i += last {
		y = append(y, x[i:i+last/2+1]...)
	}
	return y
}

func TestGPUC2C(t *testing.T) {
	ctx, s := gpuSetup(t)
	for _, c := range []struct {
		dims  []int
		batch int
	}{{[]int{60}, 3}, {[]int{1024}, 1}, {[]int{12, 10}, 2}, {[]int{4, 6, 10}, 1}} {
		t.Run(fmt.Sprint(c.dims, "x", c.batch), func(t *testing.T) {
			p := plan(t, ctx, s, Desc{Type: C2C, Dims: c.dims, Batch: c.batch})
			x := signal(p.InLen(), 1)
			in, out := upload(t, ctx, to64(x)), alloc[complex64](t, ctx, p.OutLen())
			if err := p.C2C(in, out, Forward); err != nil {
				t.Fatal(err)
			}
			want := batchDFT(x, c.dims, c.batch, -1)
			e := maxErr(from64(download(t, s, out)), want)
			t.Logf("forward: max error %.2e (work area %d bytes)", e, p.WorkSize())
			if e > 1e-5 {
				t.Errorf("forward C2C: error %.2e", e)
			}
			// In place, inverse: n times the input.
			if err := p.C2C(out, out, Inverse); err != nil {
				t.Fatal(err)
			}
			got := from64(download(t, s, out))
			n := float64(len(x) / c.batch)
			for i := range got {
				got[i] /= complex(n, 0)
			}
			if e := maxErr(got, x); e > 1e-5 {
				t.Errorf("in-place inverse: error %.2e", e)
			}
		})
	}
}

func TestGPURealSingle(t *testing.T) {
	ctx, s := gpuSetup(t)
	dims := []int{6, 10}
	r2c := plan(t, ctx, s, Desc{Type: R2C, Dims: dims, Batch: 2})
	c2r := plan(t, ctx, s, Desc{Type: C2R, Dims: dims, Batch: 2})
	x := signal(r2c.InLen(), 2)
	re := make([]float32, len(x))
	for i := range x {
		x[i] = complex(real(x[i]), 0)
		re[i] = float32(real(x[i]))
	}
	in, spec, back := upload(t, ctx, re), alloc[complex64](t, ctx, r2c.OutLen()), alloc[float32](t, ctx, len(re))
	if err := r2c.R2C(in, spec); err != nil {
		t.Fatal(err)
	}
	want := halfSpectrum(batchDFT(x, dims, 2, -1), dims[1])
	if e := maxErr(from64(download(t, s, spec)), want); e > 1e-5 {
		t.Errorf("R2C: error %.2e", e)
	}
	if err := c2r.C2R(spec, back); err != nil {
		t.Fatal(err)
	}
	got := download(t, s, back)
	var e float64
	for i := range got {
		e = max(e, math.Abs(float64(got[i])/60-real(x[i])))
	}
	t.Logf("R2C then C2R: max error %.2e", e)
	if e > 1e-5 {
		t.Errorf("C2R(R2C(x))/n: error %.2e", e)
	}
}

func TestGPUDouble(t *testing.T) {
	ctx, s := gpuSetup(t)
	dims := []int{4, 5, 6}
	z := plan(t, ctx, s, Desc{Type: Z2Z, Dims: dims})
	x := signal(z.InLen(), 3)
	in, out := upload(t, ctx, x), alloc[complex128](t, ctx, z.OutLen())
	if err := z.Z2Z(in, out, Forward); err != nil {
		t.Fatal(err)
	}
	if e := maxErr(download(t, s, out), dft(x, dims, -1)); e > 1e-12 {
		t.Errorf("Z2Z: error %.2e", e)
	}

	d2z := plan(t, ctx, s, Desc{Type: D2Z, Dims: []int{17}, Batch: 2})
	z2d := plan(t, ctx, s, Desc{Type: Z2D, Dims: []int{17}, Batch: 2})
	r := make([]float64, d2z.InLen())
	rc := make([]complex128, len(r))
	for i := range r {
		r[i] = math.Sin(0.3*float64(i)) + float64(i%5)
		rc[i] = complex(r[i], 0)
	}
	rin, spec, back := upload(t, ctx, r), alloc[complex128](t, ctx, d2z.OutLen()), alloc[float64](t, ctx, len(r))
	if err := d2z.D2Z(rin, spec); err != nil {
		t.Fatal(err)
	}
	if e := maxErr(download(t, s, spec), halfSpectrum(batchDFT(rc, []int{17}, 2, -1), 17)); e > 1e-12 {
		t.Errorf("D2Z: error %.2e", e)
	}
	if err := z2d.Z2D(spec, back); err != nil {
		t.Fatal(err)
	}
	got := download(t, s, back)
	var e float64
	for i := range got {
		e = max(e, math.Abs(got[i]/17-r[i]))
	}
	t.Logf("Z2Z and D2Z/Z2D round trip: max error %.2e", e)
	if e > 1e-12 {
		t.Errorf("Z2D(D2Z(x))/n: error %.2e", e)
	}
}

// TestGPUAdvancedLayout: two 8-point transforms whose inputs interleave
// (stride 2, distance 1) into contiguous outputs (stride 1, distance 8).
func TestGPUAdvancedLayout(t *testing.T) {
	ctx, s := gpuSetup(t)
	p := plan(t, ctx, s, Desc{Type: C2C, Dims: []int{8}, Batch: 2,
		InEmbed: []int{8}, InStride: 2, InDist: 1, OutEmbed: []int{8}, OutStride: 1, OutDist: 8})
	if p.InLen() != 16 || p.OutLen() != 16 {
		t.Fatalf("InLen %d OutLen %d", p.InLen(), p.OutLen())
	}
	x := signal(16, 4)
	in, out := upload(t, ctx, to64(x)), alloc[complex64](t, ctx, 16)
	if err := p.C2C(in, out, Forward); err != nil {
		t.Fatal(err)
	}
	got := from64(download(t, s, out))
	for b := range 2 {
		line := make([]complex128, 8)
		for j := range line {
			line[j] = x[b+2*j]
		}
		if e := maxErr(got[8*b:8*b+8], dft(line, []int{8}, -1)); e > 1e-5 {
			t.Errorf("transform %d: error %.2e", b, e)
		}
	}
}

// TestGPUWorkArea: a plan with an external work area refuses to run
// without one, takes one of WorkSize bytes, and runs.
func TestGPUWorkArea(t *testing.T) {
	ctx, s := gpuSetup(t)
	p := plan(t, ctx, s, Desc{Type: C2C, Dims: []int{1 << 16}, Batch: 4, ExternalWorkspace: true})
	t.Logf("work area: %d bytes", p.WorkSize())
	x := signal(p.InLen(), 5)
	in, out := upload(t, ctx, to64(x)), alloc[complex64](t, ctx, p.OutLen())
	if err := p.C2C(in, out, Forward); !errors.Is(err, cufft.NoWorkspace) {
		t.Fatalf("no work area: %v", err)
	}
	if p.WorkSize() > 0 {
		small := alloc[byte](t, ctx, int(p.WorkSize())-1)
		if err := p.SetWorkArea(small); !errors.Is(err, cufft.InvalidValue) {
			t.Fatalf("short work area: %v", err)
		}
	}
	ws := alloc[byte](t, ctx, int(max(p.WorkSize(), 1)))
	if err := p.SetWorkArea(ws); err != nil {
		t.Fatal(err)
	}
	if err := p.C2C(in, out, Forward); err != nil {
		t.Fatal(err)
	}
	got := from64(download(t, s, out))
	// Spot-check transform 1's bins 0 and 3 against the DFT sum.
	n := 1 << 16
	for _, k := range []int{0, 3} {
		var want complex128
		for j := range n {
			want += x[n+j] * cmplx.Rect(1, -2*math.Pi*float64(j*k%n)/float64(n))
		}
		if d := cmplx.Abs(got[n+k]-want) / float64(n); d > 1e-4 {
			t.Errorf("bin %d: %v, want %v", k, got[n+k], want)
		}
	}
	ws.Close()
	if err := p.C2C(in, out, Forward); !errors.Is(err, cuda.ErrFreed) {
		t.Errorf("closed work area: %v", err)
	}
}

func TestGPUMisuse(t *testing.T) {
	ctx, s := gpuSetup(t)
	p := plan(t, ctx, s, Desc{Type: C2C, Dims: []int{64}, Batch: 2})
	in, short := alloc[complex64](t, ctx, 128), alloc[complex64](t, ctx, 127)
	if err := p.C2C(in, short, Forward); !errors.Is(err, cufft.InvalidSize) {
		t.Errorf("short output: %v", err)
	}
	big := alloc[complex64](t, ctx, 256)
	if err := p.C2C(big.Slice(0, 128), big.Slice(1, 129), Forward); !errors.Is(err, cufft.InvalidValue) {
		t.Errorf("partly overlapping buffers: %v", err)
	}
	gone, _ := cuda.Alloc[complex64](ctx, 128)
	gone.Close()
	if err := p.C2C(in, gone, Forward); !errors.Is(err, cuda.ErrFreed) {
		t.Errorf("closed buffer: %v", err)
	}
	q, err := NewPlan(ctx, s, Desc{Type: C2C, Dims: []int{64}})
	if err != nil {
		t.Fatal(err)
	}
	q.Close()
	if err := q.C2C(in, in, Forward); !errors.Is(err, cuda.ErrFreed) {
		t.Errorf("closed plan: %v", err)
	}
	if err := q.Close(); !errors.Is(err, cuda.ErrFreed) {
		t.Errorf("second Close: %v", err)
	}
}

// TestGPUCache: one plan per shape, correct results through it.
func TestGPUCache(t *testing.T) {
	ctx, s := gpuSetup(t)
	c := NewCache(4)
	defer c.Close()
	x := signal(256, 6)
	in, out := upload(t, ctx, to64(x)), alloc[complex64](t, ctx, 256)
	var first *Plan
	for i := range 3 {
		err := c.Do(ctx, s, Desc{Type: C2C, Dims: []int{256}}, func(p *Plan) error {
			if i == 0 {
				first = p
			} else if p != first {
				t.Error("the cache made a second plan for one shape")
			}
			return p.C2C(in, out, Forward)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if e := maxErr(from64(download(t, s, out)), dft(x, []int{256}, -1)); e > 1e-5 {
		t.Errorf("through the cache: error %.2e", e)
	}
}

// TestGPUSetStream moves a plan to another stream.
func TestGPUSetStream(t *testing.T) {
	ctx, s := gpuSetup(t)
	s2, err := ctx.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	p := plan(t, ctx, s, Desc{Type: C2C, Dims: []int{512}})
	x := signal(512, 7)
	in, out := upload(t, ctx, to64(x)), alloc[complex64](t, ctx, 512)
	if err := p.SetStream(s2); err != nil {
		t.Fatal(err)
	}
	if err := p.C2C(in, out, Forward); err != nil {
		t.Fatal(err)
	}
	if e := maxErr(from64(download(t, s2, out)), dft(x, []int{512}, -1)); e > 1e-5 {
		t.Errorf("on the second stream: error %.2e", e)
	}
}

// TestGPUAllocs: a transform allocates nothing in Go.
func TestGPUAllocs(t *testing.T) {
	ctx, s := gpuSetup(t)
	p := plan(t, ctx, s, Desc{Type: C2C, Dims: []int{1024}})
	in, out := alloc[complex64](t, ctx, 1024), alloc[complex64](t, ctx, 1024)
	n := testing.AllocsPerRun(200, func() {
		if err := p.C2C(in, out, Forward); err != nil {
			t.Fatal(err)
		}
	})
	s.Synchronize()
	t.Logf("Plan.C2C: %v allocations a call", n)
	if n != 0 {
		t.Errorf("Plan.C2C allocates %v times a call", n)
	}
}

// BenchmarkFFTInterleaved runs one C2C plan through Plan.C2C and through
// the raw cufft.ExecC2C on the same handle, in alternating blocks that
// each wait for their transforms, and reports both and Plan's rate as a
// share of the raw call's: n=1024 is bound by the host's launch path,
// n=4M by the GPU.
func BenchmarkFFTInterleaved(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 22} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchInterleaved(b, n) })
	}
}

func benchInterleaved(b *testing.B, n int) {
	ctx, s := gpuSetup(b)
	p := plan(b, ctx, s, Desc{Type: C2C, Dims: []int{n}})
	in, out := alloc[complex64](b, ctx, n), alloc[complex64](b, ctx, n)
	block := max(10, (1<<20)/n) // transforms between two waits
	layer := func() {
		for range block {
			if err := p.C2C(in, out, Forward); err != nil {
				b.Fatal(err)
			}
		}
		s.Synchronize()
	}
	raw, ip, op := p.Raw(), ffi.DevicePtr[cufft.Complex](in.Ptr()), ffi.DevicePtr[cufft.Complex](out.Ptr())
	direct := func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cu.CtxSetCurrent(ctx.Raw()); err != nil {
			b.Fatal(err)
		}
		for range block {
			if err := cufft.ExecC2C(raw, ip, op, cufft.Forward); err != nil {
				b.Fatal(err)
			}
		}
		cu.StreamSynchronize(s.Raw())
	}
	b.ReportAllocs()
	times, rawTimes := cugentest.Interleave(b, layer, direct)
	tl, tr := times.Total(), rawTimes.Total()
	calls := float64(b.N * block)
	b.ReportMetric(float64(tl.Nanoseconds())/calls, "plan-ns/fft")
	b.ReportMetric(float64(tr.Nanoseconds())/calls, "raw-ns/fft")
	b.ReportMetric(100*float64(tr)/float64(tl), "plan-rate-%-of-raw")
	runtime.KeepAlive(in)
	runtime.KeepAlive(out)
}

// TestReferenceDFT checks the Go reference itself (no GPU): the 2D DFT
// against the double sum, and the inverse of the forward transform.
func TestReferenceDFT(t *testing.T) {
	dims := []int{3, 5}
	x := signal(15, 1)
	y := dft(x, dims, -1)
	for k0 := range 3 {
		for k1 := range 5 {
			var want complex128
			for j0 := range 3 {
				for j1 := range 5 {
					ph := -2 * math.Pi * (float64(j0*k0)/3 + float64(j1*k1)/5)
					want += x[j0*5+j1] * cmplx.Rect(1, ph)
				}
			}
			if cmplx.Abs(y[k0*5+k1]-want) > 1e-12 {
				t.Fatalf("Y[%d,%d] = %v, want %v", k0, k1, y[k0*5+k1], want)
			}
		}
	}
	z := dft(y, dims, 1)
	for i := range z {
		z[i] /= 15
	}
	if e := maxErr(z, x); e > 1e-12 {
		t.Fatalf("inverse of forward: error %.2e", e)
	}
	if h := halfSpectrum(make([]complex128, 20), 10); len(h) != 12 {
		t.Fatalf("halfSpectrum of 2 lines of 10: %d values", len(h))
	}
}

// TestGPUConcurrent runs transforms of one plan from several goroutines
// (they take turns on the plan) and of one cache: every result is right.
func TestGPUConcurrent(t *testing.T) {
	ctx, s := gpuSetup(t)
	const n = 4096
	p := plan(t, ctx, s, Desc{Type: C2C, Dims: []int{n}})
	x := signal(n, 8)
	want := dft(x, []int{n}, -1)
	in := upload(t, ctx, to64(x))
	cache := NewCache(2)
	defer cache.Close()
	errs := make(chan error, 8)
	for g := range 8 {
		out := alloc[complex64](t, ctx, n)
		go func() {
			for i := range 20 {
				var err error
				if g%2 == 0 {
					err = p.C2C(in, out, Forward)
				} else {
					err = cache.Do(ctx, s, Desc{Type: C2C, Dims: []int{n}}, func(q *Plan) error { return q.C2C(in, out, Forward) })
				}
				if err != nil {
					errs <- fmt.Errorf("goroutine %d, call %d: %w", g, i, err)
					return
				}
			}
			if err := s.Synchronize(); err != nil {
				errs <- err
				return
			}
			got := make([]complex64, n)
			if err := out.CopyTo(got); err != nil {
				errs <- err
				return
			}
			if e := maxErr(from64(got), want); e > 1e-5 {
				errs <- fmt.Errorf("goroutine %d: error %.2e", g, e)
				return
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
