package cuda

// GPU tests of arrays, textures and surfaces; they skip without a device
// (gpuContext) or NVRTC (needNVRTC).

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// textureSource samples textures in each shape; every kernel writes one
// output element per thread.
const textureSource = `
extern "C" __global__ void sample2D(float *out, cudaTextureObject_t tex, const float *uv, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float>(tex, uv[2 * i], uv[2 * i + 1]);
}
extern "C" __global__ void fetch1D(float *out, cudaTextureObject_t tex, int w)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < w) out[i] = tex1D<float>(tex, i + 0.5f);
}
extern "C" __global__ void fetch1DLayered(float *out, cudaTextureObject_t tex, int w, int layers)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < w * layers) out[i] = tex1DLayered<float>(tex, i % w + 0.5f, i / w);
}
extern "C" __global__ void fetch2DLayered(float *out, cudaTextureObject_t tex, int w, int h, int layers)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < w * h * layers) out[i] = tex2DLayered<float>(tex, i % w + 0.5f, i / w % h + 0.5f, i / (w * h));
}
extern "C" __global__ void fetch3D(float *out, cudaTextureObject_t tex, int w, int h, int d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < w * h * d) out[i] = tex3D<float>(tex, i % w + 0.5f, i / w % h + 0.5f, i / (w * h) + 0.5f);
}
// The centres of the six faces, in CUDA's face order +x, -x, +y, -y, +z, -z.
extern "C" __global__ void cubeFaces(float *out, cudaTextureObject_t tex)
{
    int f = threadIdx.x;
    float v[3] = {0, 0, 0};
    if (f < 6) {
        v[f / 2] = f % 2 ? -1.0f : 1.0f;
        out[f] = texCubemap<float>(tex, v[0], v[1], v[2]);
    }
}
extern "C" __global__ void fetchRGBA(float4 *out, cudaTextureObject_t tex, int w, int h)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < w * h) out[i] = tex2D<float4>(tex, i % w + 0.5f, i / w + 0.5f);
}
extern "C" __global__ void fetchLinear(float *out, cudaTextureObject_t tex, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(tex, i);
}
extern "C" __global__ void writeSurface(cudaSurfaceObject_t surf, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) surf2Dwrite<int>(1000 * y + x, surf, x * (int)sizeof(int), y);
}
`

func textureModule(t *testing.T, c *Context) *Module {
	t.Helper()
	needNVRTC(t)
	m, err := c.ModuleFromSource(Source{Code: textureSource})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// bilinearWrap is tex2D's linear filtering at normalized coordinates with
// wrapping, in Go: the weights in 8-bit fixed point, as the texture unit
// computes them.
func bilinearWrap(img []float32, w, h int, u, v float32) float32 {
	x, y := u*float32(w)-0.5, v*float32(h)-0.5
	fx, fy := math.Floor(float64(x)), math.Floor(float64(y))
	a := float32(math.Round((float64(x)-fx)*256) / 256)
	b := float32(math.Round((float64(y)-fy)*256) / 256)
	wrap := func(i, n int) int { return ((i % n) + n) % n }
	i0, j0 := wrap(int(fx), w), wrap(int(fy), h)
	i1, j1 := wrap(int(fx)+1, w), wrap(int(fy)+1, h)
	at := func(i, j int) float32 { return img[j*w+i] }
	return (1-a)*(1-b)*at(i0, j0) + a*(1-b)*at(i1, j0) + (1-a)*b*at(i0, j1) + a*b*at(i1, j1)
}

// TestGPUTexture2D: a float32 2D texture sampled at random coordinates
// matches the Go bilinear reference with wrapping at normalized
// coordinates, and reads texels or the border color exactly with point
// filtering at unnormalized ones.
func TestGPUTexture2D(t *testing.T) {
	c := gpuContext(t)
	sample := kernelOf(t, textureModule(t, c), "sample2D")
	const w, h, n = 64, 48, 4096
	rng := rand.New(rand.NewPCG(1, 2))
	img := make([]float32, w*h)
	for i := range img {
		img[i] = rng.Float32()
	}
	arr, err := AllocArray[float32](c, ArrayDesc{Width: w, Height: h})
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Close()
	if err := arr.CopyFrom(img); err != nil {
		t.Fatal(err)
	}
	run := func(tex *Texture, uv []float32) []float32 {
		t.Helper()
		duv, err := AllocFrom(c, uv)
		if err != nil {
			t.Fatal(err)
		}
		defer duv.Close()
		out, err := Alloc[float32](c, len(uv)/2)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		if err := sample.Launch(ForN(out.Len(), 128), out, tex, duv, int32(out.Len())); err != nil {
			t.Fatal(err)
		}
		got := make([]float32, out.Len())
		if err := out.CopyTo(got); err != nil {
			t.Fatal(err)
		}
		return got
	}

	linear, err := arr.Texture(TextureOptions{
		Address: [3]AddressMode{AddressWrap, AddressWrap}, Filter: FilterLinear, NormalizedCoords: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	uv := make([]float32, 2*n)
	for i := range uv {
		uv[i] = rng.Float32()*2 - 0.5 // [-0.5, 1.5): wraps on both sides
	}
	got := run(linear, uv)
	var maxErr float64
	for i := range n {
		want := bilinearWrap(img, w, h, uv[2*i], uv[2*i+1])
		maxErr = max(maxErr, math.Abs(float64(got[i]-want)))
	}
	t.Logf("linear, wrap: %d samples, max |GPU - Go reference| = %.3g", n, maxErr)
	if maxErr > 5e-3 { // simpleTexture's MAX_EPSILON_ERROR
		t.Errorf("linear, wrap: max error %g", maxErr)
	}
	if err := linear.Close(); err != nil {
		t.Fatal(err)
	}

	const border = 0.25
	point, err := arr.Texture(TextureOptions{
		Address:     [3]AddressMode{AddressBorder, AddressClamp},
		BorderColor: [4]float32{border},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer point.Close()
	uv = uv[:0]
	var want []float32
	for y := -3; y < h+3; y += 5 {
		for x := -3; x < w+3; x++ {
			uv = append(uv, float32(x)+0.5, float32(y)+0.5)
			switch {
			case x < 0 || x >= w:
				want = append(want, border)
			default:
				want = append(want, img[min(max(y, 0), h-1)*w+x])
			}
		}
	}
	got = run(point, uv)
	bad := 0
	for i := range want {
		if got[i] != want[i] {
			if bad++; bad <= 5 {
				t.Errorf("point at (%v, %v): %v, want %v", uv[2*i], uv[2*i+1], got[i], want[i])
			}
		}
	}
	t.Logf("point, border in x, clamp in y: %d samples, %d differ", len(want), bad)
}

// TestGPUArrayShapes: each shape's host copies round-trip, and a texture
// over it reads back every element with point sampling at texel centres
// (1D, 1D layered, 2D layered, 3D), or each face (cubemap).
func TestGPUArrayShapes(t *testing.T) {
	c := gpuContext(t)
	m := textureModule(t, c)
	fill := func(n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(i)*0.5 + 1
		}
		return s
	}
	for _, tc := range []struct {
		d      ArrayDesc
		kernel string
		args   []any
	}{
		{ArrayDesc{Width: 300}, "fetch1D", []any{int32(300)}},
		{ArrayDesc{Width: 40, Layers: 3}, "fetch1DLayered", []any{int32(40), int32(3)}},
		{ArrayDesc{Width: 16, Height: 9, Layers: 4}, "fetch2DLayered", []any{int32(16), int32(9), int32(4)}},
		{ArrayDesc{Width: 8, Height: 7, Depth: 5}, "fetch3D", []any{int32(8), int32(7), int32(5)}},
		{ArrayDesc{Width: 4, Height: 4, Cubemap: true}, "cubeFaces", nil},
	} {
		t.Run(tc.d.String(), func(t *testing.T) {
			arr, err := AllocArray[float32](c, tc.d)
			if err != nil {
				t.Fatal(err)
			}
			defer arr.Close()
			data := fill(arr.Len())
			if tc.d.Cubemap {
				for i := range data {
					data[i] = float32(i / (tc.d.Width * tc.d.Width)) // the face's number
				}
			}
			if err := arr.CopyFrom(data); err != nil {
				t.Fatal(err)
			}
			back := make([]float32, len(data))
			if err := arr.CopyTo(back); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(back, data) {
				t.Fatalf("host round trip differs")
			}
			tex, err := arr.Texture(TextureOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer tex.Close()
			want := data
			if tc.d.Cubemap {
				want = []float32{0, 1, 2, 3, 4, 5}
			}
			out, err := Alloc[float32](c, len(want))
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			cfg := ForN(len(want), 128)
			if err := kernelOf(t, m, tc.kernel).Launch(cfg, append([]any{out, tex}, tc.args...)...); err != nil {
				t.Fatal(err)
			}
			got := make([]float32, len(want))
			if err := out.CopyTo(got); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s read %v..., want %v...", tc.kernel, got[:min(8, len(got))], want[:min(8, len(want))])
			}
			t.Logf("%v: %d elements copied and read back through %s", tc.d, len(want), tc.kernel)
		})
	}
}

// TestGPUArrayCopiesAsync: the copies from and to pinned host buffers,
// device buffers and Go slices on a stream move the whole array.
func TestGPUArrayCopiesAsync(t *testing.T) {
	c := gpuContext(t)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := ArrayDesc{Width: 33, Height: 17, Depth: 3}
	a, err := AllocArray[[2]int16](c, d)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := AllocArray[[2]int16](c, d)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	host, err := AllocHost[[2]int16](c, a.Len())
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	want := host.Slice()
	for i := range want {
		want[i] = [2]int16{int16(i), int16(-i)}
	}
	buf, err := Alloc[[2]int16](c, a.Len())
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	got := make([][2]int16, a.Len())
	// host -> a -> buf -> b -> Go slice, all on s.
	for _, step := range []error{
		a.CopyFromHostAsync(s, host),
		a.CopyToBufferAsync(s, buf),
		b.CopyFromBufferAsync(s, buf),
		b.CopyToAsync(s, got),
		s.Synchronize(),
	} {
		if step != nil {
			t.Fatal(step)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("host → array → buffer → array → Go differs")
	}
	// And back into the pinned buffer, synchronously from the buffer.
	clear(want)
	if err := a.CopyFromBuffer(buf); err != nil {
		t.Fatal(err)
	}
	if err := a.CopyToHostAsync(s, host); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(host.Slice(), got) {
		t.Fatalf("array → pinned buffer differs")
	}
	t.Logf("%v of [2]int16: 7 copies through pinned, device and Go memory agree", d)
}

// TestGPUSurfaceAndNormalized: a kernel writes an int32 array through a
// surface; an RGBA8 texture read normalized returns each byte / 255.
func TestGPUSurfaceAndNormalized(t *testing.T) {
	c := gpuContext(t)
	m := textureModule(t, c)
	const w, h = 70, 20
	arr, err := AllocArray[int32](c, ArrayDesc{Width: w, Height: h, Surface: true})
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Close()
	surf, err := arr.Surface()
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Grid: Dim3{X: (w + 31) / 32, Y: h}, Block: Dim3{X: 32}}
	if err := kernelOf(t, m, "writeSurface").Launch(cfg, surf, int32(w), int32(h)); err != nil {
		t.Fatal(err)
	}
	if err := c.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if err := surf.Close(); err != nil {
		t.Fatal(err)
	}
	got := make([]int32, w*h)
	if err := arr.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if want := int32(1000*(i/w) + i%w); v != want {
			t.Fatalf("element (%d, %d) = %d, want %d", i%w, i/w, v, want)
		}
	}

	rgba, err := AllocArray[[4]uint8](c, ArrayDesc{Width: 16, Height: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer rgba.Close()
	px := make([][4]uint8, 256)
	for i := range px {
		px[i] = [4]uint8{uint8(i), uint8(255 - i), uint8(i * 7), 255}
	}
	if err := rgba.CopyFrom(px); err != nil {
		t.Fatal(err)
	}
	tex, err := rgba.Texture(TextureOptions{ReadNormalized: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tex.Close()
	out, err := Alloc[[4]float32](c, 256)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if err := kernelOf(t, m, "fetchRGBA").Launch(ForN(256, 128), out, tex, int32(16), int32(16)); err != nil {
		t.Fatal(err)
	}
	f := make([][4]float32, 256)
	if err := out.CopyTo(f); err != nil {
		t.Fatal(err)
	}
	var maxErr float64
	for i := range f {
		for ch := range 4 {
			maxErr = max(maxErr, math.Abs(float64(f[i][ch])-float64(px[i][ch])/255))
		}
	}
	t.Logf("surface: %d × %d int32 written by a kernel; RGBA8 read normalized: max error %.3g", w, h, maxErr)
	if maxErr > 1e-6 {
		t.Errorf("RGBA8 read normalized: max error %g", maxErr)
	}
}

// TestGPUMemTextures: a buffer read through tex1Dfetch returns its
// elements; pitched memory sampled with bilinear filtering and wrapping
// matches the Go reference, as an array does.
func TestGPUMemTextures(t *testing.T) {
	c := gpuContext(t)
	m := textureModule(t, c)
	const n = 1000
	data := make([]float32, n)
	for i := range data {
		data[i] = float32(i) * 0.25
	}
	buf, err := AllocFrom(c, data)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	lin, err := BufferTexture(buf, TextureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := Alloc[float32](c, n)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if err := kernelOf(t, m, "fetchLinear").Launch(ForN(n, 128), out, lin, int32(n)); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, n)
	if err := out.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, data) {
		t.Errorf("tex1Dfetch read %v..., want %v...", got[:8], data[:8])
	}
	if err := lin.Close(); err != nil {
		t.Fatal(err)
	}

	const w, h, samples = 50, 30, 2048
	rng := rand.New(rand.NewPCG(3, 4))
	img := make([]float32, w*h)
	for i := range img {
		img[i] = rng.Float32()
	}
	p, err := AllocPitched[float32](c, w, h)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.CopyFrom(img); err != nil {
		t.Fatal(err)
	}
	tex, err := PitchedTexture(p, TextureOptions{
		Address: [3]AddressMode{AddressWrap, AddressWrap}, Filter: FilterLinear, NormalizedCoords: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer tex.Close()
	uv := make([]float32, 2*samples)
	for i := range uv {
		uv[i] = rng.Float32()*2 - 0.5
	}
	duv, err := AllocFrom(c, uv)
	if err != nil {
		t.Fatal(err)
	}
	defer duv.Close()
	res, err := Alloc[float32](c, samples)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	if err := kernelOf(t, m, "sample2D").Launch(ForN(samples, 128), res, tex, duv, int32(samples)); err != nil {
		t.Fatal(err)
	}
	got = make([]float32, samples)
	if err := res.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	var maxErr float64
	for i := range samples {
		maxErr = max(maxErr, math.Abs(float64(got[i]-bilinearWrap(img, w, h, uv[2*i], uv[2*i+1]))))
	}
	t.Logf("buffer texture: %d elements read back; pitched %d × %d (pitch %d B), linear, wrap: max |GPU - Go reference| = %.3g", n, w, h, p.Pitch(), maxErr)
	if maxErr > 5e-3 {
		t.Errorf("pitched, linear, wrap: max error %g", maxErr)
	}
}
