package e2e13

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/generated/cuda13/cu"
	"github.com/cugen/cugen/generated/cuda13/nvjpeg"
)

// TestNVJPEGDecode13 (GPU): a JPEG that image/jpeg encodes (a 4:2:0
// gradient with edges, 100x60, an odd size) is read by nvjpegGetImageInfo
// (three components, 4:2:0, each plane's size, zeros for the absent
// fourth) and decoded on the GPU to interleaved RGB; every pixel is within
// a few levels of image/jpeg's own decode of the same bytes (the two IDCTs
// and colour conversions round differently).
func TestNVJPEGDecode13(t *testing.T) {
	device13(t)
	cugentest.NeedLibrary(t, nvjpeg.SharedLibrary().Load())
	const w, h = 100, 60
	src := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), uint8((x + y) * 2), 255}
			if (x/20+y/20)%2 == 0 {
				c.B = 255 - c.B
			}
			src.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, src, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	ref, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}

	hd, err := nvjpeg.CreateSimple()
	must(t, "nvjpegCreateSimple", err)
	defer nvjpeg.Destroy(hd)
	var st nvjpeg.JpegState
	must(t, "nvjpegJpegStateCreate", nvjpeg.JpegStateCreate(hd, &st))
	defer nvjpeg.JpegStateDestroy(st)
	n, sub, widths, heights, err := nvjpeg.GetImageInfo(hd, string(data), uint64(len(data)))
	must(t, "nvjpegGetImageInfo", err)
	if n != 3 || sub != nvjpeg.Css420 || widths != [4]int32{w, w / 2, w / 2, 0} || heights != [4]int32{h, h / 2, h / 2, 0} {
		t.Fatalf("GetImageInfo = %d components, %v, widths %v, heights %v; want 3, 4:2:0, [%d %d %d 0], [%d %d %d 0]",
			n, sub, widths, heights, w, w/2, w/2, h, h/2, h/2)
	}

	d, err := cu.MemAlloc(3 * w * h)
	must(t, "cuMemAlloc", err)
	defer cu.MemFree(d)
	out := nvjpeg.Image{Channel: [4]*uint8{(*uint8)(d.Pointer())}, Pitch: [4]uint64{3 * w}}
	must(t, "nvjpegDecode", nvjpeg.Decode(hd, st, string(data), uint64(len(data)), nvjpeg.OutputRgbi, &out, 0))
	must(t, "cuCtxSynchronize", cu.CtxSynchronize())
	got := make([]byte, 3*w*h)
	must(t, "cuMemcpyDtoH", cu.MemcpyDtoH(unsafe.Pointer(&got[0]), d, uint64(len(got))))

	maxDiff, sum := 0, 0
	for y := range h {
		for x := range w {
			r, g, b, _ := ref.At(x, y).RGBA()
			for c, v := range [3]uint32{r >> 8, g >> 8, b >> 8} {
				diff := int(got[3*(y*w+x)+c]) - int(v)
				diff = max(diff, -diff)
				maxDiff = max(maxDiff, diff)
				sum += diff
			}
		}
	}
	mean := float64(sum) / float64(3*w*h)
	t.Logf("nvJPEG decode of a %dx%d 4:2:0 JPEG against image/jpeg: max |diff| %d, mean %.3f levels", w, h, maxDiff, mean)
	if maxDiff > 16 || mean > 2 {
		t.Errorf("nvJPEG's RGB differs from image/jpeg's: max |diff| %d (limit 16), mean %.3f (limit 2)", maxDiff, mean)
	}
}
