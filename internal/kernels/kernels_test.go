package kernels

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/parser/ir"
)

// example is the committed kernels package these tests hold to its
// source: examples/vectorAddTyped.
const example = "../../examples/vectorAddTyped"

// image reads a committed image without its marker line.
func image(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(example, "kernels", name))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := bytes.Cut(b, []byte("\n"))
	if !ok {
		t.Fatalf("%s has no marker line", name)
	}
	return rest
}

// The parameter info read from a committed cubin, with no NVRTC: vecAdd
// takes three pointers and an int; axpy<double> a double, two pointers
// and an int.
func TestKernelParamsFromCubin(t *testing.T) {
	for _, arch := range []string{"sm_80.cubin", "sm_90.cubin"} {
		info, err := KernelParams(image(t, arch))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string][]ParamInfo{
			"vecAdd":                  {{0, 0, 8}, {1, 8, 8}, {2, 16, 8}, {3, 24, 4}},
			"_Z4axpyIdEvT_PKS0_PS0_i": {{0, 0, 8}, {1, 8, 8}, {2, 16, 8}, {3, 24, 4}},
			"_Z4axpyIfEvT_PKS0_PS0_i": {{0, 0, 4}, {1, 8, 8}, {2, 16, 8}, {3, 24, 4}},
		}
		for name, w := range want {
			if got := info[name]; !equalParams(got, w) {
				t.Errorf("%s: %s: %v, want %v", arch, name, got, w)
			}
		}
	}
}

func equalParams(a, b []ParamInfo) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A cubin cut short or with its bytes changed is an error, never a panic.
func TestKernelParamsBadCubin(t *testing.T) {
	good := image(t, "sm_90.cubin")
	for n := 0; n < len(good); n += 37 {
		KernelParams(good[:n]) // must not panic
	}
	bad := bytes.Clone(good)
	for i := 0; i < len(bad); i += 13 {
		b := bytes.Clone(bad)
		b[i] ^= 0xff
		KernelParams(b)
	}
	if _, err := KernelParams([]byte("not an ELF file at all, but long enough to have a header ........")); err == nil {
		t.Error("KernelParams of text: no error")
	}
}

// A kernel whose parameters, as the source declares them, do not lie where
// the cubin has them is an error naming the kernel and the parameter.
func TestCheckParamsMismatch(t *testing.T) {
	f := &ir.KernelType{Kind: ir.KScalar, Scalar: "float", C: "float", Size: 4, Align: 4}
	p := &ir.KernelType{Kind: ir.KPointer, C: "float *", Size: 8, Align: 8, Elem: f}
	k := &ir.Kernel{Name: "vecAdd", Expr: "vecAdd", Line: 3, Params: []ir.KernelParam{
		{Name: "a", Type: p, Offset: 0}, {Name: "b", Type: p, Offset: 8}, {Name: "c", Type: p, Offset: 16}, {Name: "n", Type: p, Offset: 24},
	}}
	err := checkParams([]*ir.Kernel{k}, map[string]string{"vecAdd": "vecAdd"}, image(t, "sm_90.cubin"), 90, "vectorAdd.cu")
	if err == nil || !strings.Contains(err.Error(), "vectorAdd.cu:3: kernel vecAdd: parameter n (float *): offset 24, 8 bytes as C lays it out, but offset 24, 4 bytes in the sm_90 cubin") {
		t.Errorf("err = %v", err)
	}
	k.Params = k.Params[:3]
	if err := checkParams([]*ir.Kernel{k}, map[string]string{"vecAdd": "vecAdd"}, image(t, "sm_90.cubin"), 90, "vectorAdd.cu"); err == nil || !strings.Contains(err.Error(), "declares 3 parameters, the sm_90 cubin has 4") {
		t.Errorf("err = %v", err)
	}
}

// The committed package is what cugen kernels makes of its source, byte
// for byte, with the NVRTC it records (make test has Debian's NVRTC 12.4).
func TestGenerateReproduces(t *testing.T) {
	n, err := OpenNVRTC()
	if err != nil {
		cugentest.NeedLibrary(t, err)
	}
	committed, err := os.ReadFile(filepath.Join(example, "kernels", "kernels.go"))
	if err != nil {
		t.Fatal(err)
	}
	if v := n.Version; !bytes.Contains(committed, []byte(" with NVRTC "+strconv.Itoa(v[0])+"."+strconv.Itoa(v[1])+".")) {
		t.Skipf("the package records another NVRTC than this machine's %d.%d", v[0], v[1])
	}
	files, err := Generate(Options{
		Src: filepath.Join(example, "vectorAdd.cu"), Archs: []int{80, 90},
		Instances: []string{"axpy<float>", "axpy<double>"},
		CudaPath:  "github.com/cugen/cugen/cuda", Out: filepath.Join(example, "kernels"),
		Command: commandOf(t, committed),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Errorf("%d files, want 4", len(files))
	}
	for name, b := range files {
		have, err := os.ReadFile(filepath.Join(example, "kernels", name))
		if err != nil || !bytes.Equal(have, b) {
			t.Errorf("%s differs from the committed file (%v)", name, err)
		}
	}
}

// commandOf is the command line a committed kernels.go records.
func commandOf(t *testing.T, src []byte) string {
	lines := strings.Split(string(src), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[2], "// cugen kernels ") {
		t.Fatalf("no command line in the committed kernels.go")
	}
	return strings.TrimPrefix(lines[2], "// ")
}

// Passing a float64 buffer to a kernel of float pointers does not compile.
func TestWrongTypeFails(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	cmd := exec.Command(gobin, "build", "-o", os.DevNull, "./testdata/wrongtype")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("a float64 buffer passed to vecAdd compiled")
	}
	if !strings.Contains(string(out), "cannot use x (variable of type *cuda.Buffer[float64]) as *cuda.Buffer[float32] value in argument to k.VecAdd") {
		t.Errorf("go build failed otherwise:\n%s", out)
	}
}

// A package name Go refuses (a keyword, "_", not an identifier) is an
// error before anything is compiled (before: -pkg func passed the check).
func TestPackageName(t *testing.T) {
	for _, pkg := range []string{"func", "type", "_", "9lives", "my-kernels"} {
		_, err := Generate(Options{Src: filepath.Join(example, "vectorAdd.cu"), Archs: []int{90}, Package: pkg, Out: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), "is not a Go package name") {
			t.Errorf("-pkg %q: %v", pkg, err)
		}
	}
}
