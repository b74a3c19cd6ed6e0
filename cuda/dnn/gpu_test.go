package dnn

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	cuda "github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cudnn"
	"github.com/cugen/cugen/cugentest"
)

// The GPU tests run cuDNN through this package on ResNet-50's layer
// shapes and compare the outputs and times with PyTorch's on the same
// machine: the test writes its inputs and output to a directory, and
// testdata/torch_ref.py (python3 from PATH, with torch) computes the same
// operation, compares and times it. They skip without a GPU, without
// libcudnn.so.9, or without python3 and torch (failing instead under
// CUGEN_REQUIRE_GPU / CUGEN_REQUIRE_LIBS).

const (
	warmup = 5
	iters  = 20
)

func gpuSetup(t *testing.T) (*cuda.Context, *cuda.Stream, *Handle) {
	t.Helper()
	ctx, err := cuda.NewContext(0)
	cugentest.NeedDevice(t, err)
	t.Cleanup(func() { ctx.Close() })
	cugentest.NeedLibrary(t, cudnn.SharedLibrary().Load())
	s, err := ctx.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h, err := New(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return ctx, s, h
}

// python3 is the interpreter the comparison runs with; a missing one
// skips (a failure under CUGEN_REQUIRE_LIBS).
func python3(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		cugentest.SkipNoLib(t, "python3 (for PyTorch's reference): %v", err)
	}
	return p
}

// values are n deterministic numbers in [-1, 1), the same every run.
func values(n int64, seed uint64) []float32 {
	out := make([]float32, n)
	x := seed*0x9e3779b97f4a7c15 + 1
	for i := range out {
		x = x*6364136223846793005 + 1442695040888963407
		out[i] = float32(int64(x>>40)%(1<<16))/float32(1<<16)*2 - 1
	}
	return out
}

// encode returns v in type dt, little-endian, as the device holds it.
func encode(v []float32, dt DataType) []byte {
	var b bytes.Buffer
	for _, f := range v {
		switch dt {
		case Float32:
			binary.Write(&b, binary.LittleEndian, f)
		case Float16:
			binary.Write(&b, binary.LittleEndian, uint16(cuda.Float16Of(f)))
		case BFloat16:
			binary.Write(&b, binary.LittleEndian, uint16(cuda.BFloat16Of(f)))
		}
	}
	return b.Bytes()
}

// upload puts n random values of type dt on the device and in dir/name.
func upload(t *testing.T, ctx *cuda.Context, dir, name string, dt DataType, n int64, seed uint64) *cuda.Buffer[byte] {
	t.Helper()
	raw := encode(values(n, seed), dt)
	if err := os.WriteFile(filepath.Join(dir, name), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := cuda.AllocFrom(ctx, raw)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func alloc(t *testing.T, ctx *cuda.Context, bytes int64) *cuda.Buffer[byte] {
	t.Helper()
	b, err := cuda.Alloc[byte](ctx, int(bytes))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// runPlan times p on args (timePlan), waits for s and returns the median
// in milliseconds and the bytes of y, the result.
func runPlan(t *testing.T, ctx *cuda.Context, s *cuda.Stream, p *Plan, y *cuda.Buffer[byte], args ...Arg) (float64, []byte) {
	t.Helper()
	ms := timePlan(t, ctx, s, p, args...)
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	out := make([]byte, y.Len())
	if err := y.CopyTo(out); err != nil {
		t.Fatal(err)
	}
	return ms, out
}

// timePlan executes p warmup times, then iters times each between two
// events, and returns the median in milliseconds.
func timePlan(t *testing.T, ctx *cuda.Context, s *cuda.Stream, p *Plan, args ...Arg) float64 {
	t.Helper()
	for range warmup {
		if err := p.Execute(args...); err != nil {
			t.Fatal(err)
		}
	}
	start, err := ctx.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer start.Close()
	end, err := ctx.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer end.Close()
	var ms []float64
	for range iters {
		start.Record(s)
		if err := p.Execute(args...); err != nil {
			t.Fatal(err)
		}
		end.Record(s)
		if err := end.Synchronize(); err != nil {
			t.Fatal(err)
		}
		d, err := cuda.Elapsed(start, end)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, float64(d)/float64(time.Millisecond))
	}
	slices.Sort(ms)
	return ms[len(ms)/2]
}

// torchScript finds testdata/torch_ref.py in the package's directory
// (cuda/dnn), where go test and the GPU runner run the test binary.
func torchScript(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "testdata", "torch_ref.py")
	if !fileExists(p) {
		t.Fatalf("testdata/torch_ref.py: not in %s", dir)
	}
	return p
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

type torchResult struct {
	Dir          string  `json:"dir"`
	TorchMS      float64 `json:"torch_ms"`
	MaxAbs       float64 `json:"max_abs"`
	MaxRef       float64 `json:"max_ref"`
	Bad          int     `json:"bad"`
	Elements     int     `json:"elements"`
	Torch        string  `json:"torch"`
	CuDNN        int     `json:"cudnn"`
	Device       string  `json:"device"`
	ChannelsLast bool    `json:"channels_last"`
	// From the engine pass (torch_ref.py --engine-log): the global index
	// of the cuDNN engine PyTorch ran (-1: none, cuBLAS ran it) and its
	// knobs.
	Engine int64  `json:"engine"`
	Knobs  string `json:"knobs"`
}

// refCase is one case for PyTorch: its directory (inputs, output,
// spec.json), and what the Go side measured.
type refCase struct {
	name   string
	dir    string
	goMS   float64
	engine int64
	rank   int
	ws     int64
	nhwc   bool
}

// writeCase writes the output y and spec to dir for torch_ref.py.
func writeCase(t *testing.T, dir string, y []byte, spec map[string]any) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "y.bin"), y, 0o644); err != nil {
		t.Fatal(err)
	}
	spec["warmup"], spec["iters"] = warmup, iters
	js, _ := json.Marshal(spec)
	if err := os.WriteFile(filepath.Join(dir, "spec.json"), js, 0o644); err != nil {
		t.Fatal(err)
	}
}

// compareAll runs torch_ref.py over every case (torch loads once a
// run): once to observe the engines PyTorch runs (cuDNN's API log, which
// slows every call), then to compare and time; it returns the results by
// directory. Torch missing skips.
func compareAll(t *testing.T, cases []*refCase) map[string]torchResult {
	t.Helper()
	var dirs []string
	for _, c := range cases {
		dirs = append(dirs, c.dir)
	}
	engines := runTorch(t, append([]string{"--engine-log", filepath.Join(t.TempDir(), "cudnn.log")}, dirs...))
	res := runTorch(t, dirs)
	for dir, r := range res {
		e, ok := engines[dir]
		if !ok {
			t.Fatalf("torch_ref.py --engine-log printed no engine for %s", dir)
		}
		r.Engine, r.Knobs = e.Engine, e.Knobs
		res[dir] = r
	}
	return res
}

// runTorch runs torch_ref.py with args and returns the JSON object it
// printed for each directory.
func runTorch(t *testing.T, args []string) map[string]torchResult {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command(python3(t), append([]string{torchScript(t)}, args...)...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 3 {
		cugentest.SkipNoLib(t, "PyTorch with a GPU (for the reference): %s", bytes.TrimSpace(stderr.Bytes()))
	}
	if err != nil {
		t.Fatalf("torch_ref.py %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	res := map[string]torchResult{}
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var r torchResult
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("torch_ref.py printed %q: %v", line, err)
		}
		res[r.Dir] = r
	}
	return res
}

// reportAll logs each case's engine, both times and the ratio, and fails
// a case whose output differs from PyTorch's beyond the tolerance.
func reportAll(t *testing.T, cases []*refCase) {
	t.Helper()
	if len(cases) == 0 {
		return // the Go side failed first
	}
	res := compareAll(t, cases)
	for _, c := range cases {
		t.Run("vs_torch_"+c.name, func(t *testing.T) {
			r, ok := res[c.dir]
			if !ok {
				t.Fatalf("torch_ref.py printed no result for %s", c.dir)
			}
			if c.nhwc && !r.ChannelsLast {
				t.Errorf("PyTorch's output is not channels_last: the layouts differ")
			}
			t.Logf("engine %d (heuristics mode A, configuration %d), workspace %d B", c.engine, c.rank, c.ws)
			same := "another engine than Go's"
			switch {
			case r.Engine < 0:
				same = "no cuDNN engine (cuBLAS)"
			case r.Engine == c.engine:
				same = "the same engine (global index)"
			}
			t.Logf("PyTorch ran engine %d (knobs %s): %s", r.Engine, r.Knobs, same)
			t.Logf("Go %.4f ms, PyTorch %.4f ms (torch %s, cuDNN %d, %s): Go runs at %.1f%% of PyTorch's speed, %s",
				c.goMS, r.TorchMS, r.Torch, r.CuDNN, r.Device, 100*r.TorchMS/c.goMS, same)
			t.Logf("max |Go - PyTorch| %.3g (max |PyTorch| %.3g), %d of %d outside the tolerance", r.MaxAbs, r.MaxRef, r.Bad, r.Elements)
			if r.Bad > 0 {
				t.Errorf("%d of %d elements differ from PyTorch's beyond the tolerance (max difference %.3g)", r.Bad, r.Elements, r.MaxAbs)
			}
		})
	}
}

// tolerance is the comparison's rtol for a type: the rounding of the
// output (and, for float32, of TF32 inputs, which both may use) over
// sums of a few thousand products.
func tolerance(dt DataType) float64 {
	if dt == BFloat16 {
		return 2e-2
	}
	return 1e-2
}

// TestGPUConvResNet50: ResNet-50's convolutions (batch 32) through
// ConvForward, against PyTorch's F.conv2d with cuDNN.
func TestGPUConvResNet50(t *testing.T) {
	ctx, s, h := gpuSetup(t)
	python3(t)
	t.Logf("cuDNN %d", Version())
	var cases []*refCase
	for _, c := range []struct {
		layout          Layout
		dt              DataType
		n, c, k, hw, rs int64
		pad, stride     int64
	}{
		{NHWC, Float16, 32, 64, 64, 56, 3, 1, 1},
		{NHWC, Float16, 32, 128, 128, 28, 3, 1, 1},
		{NHWC, Float16, 32, 256, 256, 14, 3, 1, 1},
		{NHWC, Float16, 32, 256, 64, 56, 1, 0, 1},
		{NHWC, Float16, 32, 1024, 2048, 14, 1, 0, 2},
		{NHWC, BFloat16, 32, 64, 256, 56, 1, 0, 1},
		{NCHW, Float32, 32, 64, 64, 56, 3, 1, 1},
		{NCHW, Float32, 32, 512, 128, 28, 1, 0, 1},
	} {
		name := fmt.Sprintf("%s_%v_%dto%d_%dx%d_%dx%d_s%d", c.layout, c.dt, c.c, c.k, c.rs, c.rs, c.hw, c.hw, c.stride)
		dir := filepath.Join(t.TempDir(), name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			pad, stride := [2]int64{c.pad, c.pad}, [2]int64{c.stride, c.stride}
			p, q := ConvOutput(c.hw, c.hw, c.rs, c.rs, pad, stride, [2]int64{})
			conv := Conv{
				X: Image(1, c.dt, c.layout, c.n, c.c, c.hw, c.hw), W: Image(2, c.dt, c.layout, c.k, c.c, c.rs, c.rs),
				Y: Image(3, c.dt, c.layout, c.n, c.k, p, q), Pad: pad, Stride: stride,
			}
			plan, err := h.ConvForward(conv)
			if err != nil {
				t.Fatal(err)
			}
			defer plan.Close()
			x := upload(t, ctx, dir, "x.bin", c.dt, conv.X.Elements(), 1)
			w := upload(t, ctx, dir, "w.bin", c.dt, conv.W.Elements(), 2)
			y := alloc(t, ctx, conv.Y.Elements()*c.dt.Size())
			goMS, out := runPlan(t, ctx, s, plan, y, Bind(1, x), Bind(2, w), Bind(3, y))
			writeCase(t, dir, out, map[string]any{
				"op": "conv", "dtype": c.dt.String(), "layout": c.layout.String(),
				"x": conv.X.Dims, "w": conv.W.Dims, "y": conv.Y.Dims,
				"pad": []int64{c.pad, c.pad}, "stride": []int64{c.stride, c.stride}, "dilation": []int64{1, 1},
				"rtol": tolerance(c.dt), "atol": tolerance(c.dt) * math.Sqrt(float64(c.c*c.rs*c.rs)) / 8,
			})
			idx, rank := plan.Engine()
			cases = append(cases, &refCase{name: name, dir: dir, goMS: goMS, engine: idx, rank: rank, ws: plan.WorkspaceSize(), nhwc: c.layout == NHWC})
		})
	}
	reportAll(t, cases)
}

// TestGPUMatmulBiasReLU: relu(A·B + bias) for a batch of 256 through
// ResNet-50's classifier (2048 -> 1000), one fused cuDNN graph, against
// PyTorch's torch.relu(a @ b + bias) (which runs cuBLAS: PyTorch has no
// cuDNN matmul, so the engines differ).
func TestGPUMatmulBiasReLU(t *testing.T) {
	ctx, s, h := gpuSetup(t)
	python3(t)
	var cases []*refCase
	for _, dt := range []DataType{Float16, BFloat16} {
		dir := filepath.Join(t.TempDir(), dt.String())
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Run(dt.String(), func(t *testing.T) {
			const m, k, n = 256, 2048, 1000
			mm := MatmulBiasReLU{A: Matrix(1, dt, 1, m, k), B: Matrix(2, dt, 1, k, n), Bias: Matrix(3, dt, 1, 1, n), Y: Matrix(4, dt, 1, m, n)}
			plan, err := h.MatmulBiasReLU(mm)
			if err != nil {
				t.Fatal(err)
			}
			defer plan.Close()
			a := upload(t, ctx, dir, "a.bin", dt, m*k, 3)
			b := upload(t, ctx, dir, "b.bin", dt, k*n, 4)
			bias := upload(t, ctx, dir, "bias.bin", dt, n, 5)
			y := alloc(t, ctx, m*n*dt.Size())
			goMS, out := runPlan(t, ctx, s, plan, y, Bind(1, a), Bind(2, b), Bind(3, bias), Bind(4, y))
			writeCase(t, dir, out, map[string]any{
				"op": "matmul", "dtype": dt.String(),
				"a": mm.A.Dims, "b": mm.B.Dims, "bias": mm.Bias.Dims, "y": mm.Y.Dims,
				"rtol": tolerance(dt), "atol": tolerance(dt) * math.Sqrt(k) / 8,
			})
			idx, rank := plan.Engine()
			cases = append(cases, &refCase{name: "matmul+bias+ReLU_" + dt.String(), dir: dir, goMS: goMS, engine: idx, rank: rank, ws: plan.WorkspaceSize()})
		})
	}
	reportAll(t, cases)
}

// TestGPUSetStream: SetStream moves the handle to another stream of its
// context, where its plans then execute; a nil stream and a closed handle
// are refused.
func TestGPUSetStream(t *testing.T) {
	ctx, s, h := gpuSetup(t)
	s2, err := ctx.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if err := h.SetStream(s); err != nil || h.Stream() != s {
		t.Fatalf("SetStream to its own stream: %v", err)
	}
	if err := h.SetStream(s2); err != nil || h.Stream() != s2 {
		t.Fatalf("SetStream to another stream: %v", err)
	}
	const m, k, n = 64, 64, 64
	dt := Float16
	p, err := h.MatmulBiasReLU(MatmulBiasReLU{A: Matrix(1, dt, 1, m, k), B: Matrix(2, dt, 1, k, n), Bias: Matrix(3, dt, 1, 1, n), Y: Matrix(4, dt, 1, m, n)})
	if err != nil {
		t.Fatal(err)
	}
	args := make([]Arg, 4)
	for i, elems := range []int64{m * k, k * n, n, m * n} {
		args[i] = Bind(int64(i+1), alloc(t, ctx, elems*dt.Size()))
	}
	if err := p.Execute(args...); err != nil {
		t.Fatal(err)
	}
	if err := s2.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if err := h.SetStream(nil); err == nil {
		t.Fatal("SetStream(nil) took a nil stream")
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if err := h.SetStream(s); err != ErrClosed {
		t.Fatalf("SetStream after Close: %v, want ErrClosed", err)
	}
}
