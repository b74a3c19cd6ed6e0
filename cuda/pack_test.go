package cuda

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// vec3 is C's struct { float x, y, z; }.
type vec3 struct{ X, Y, Z float32 }

// pair is C's struct { char c; double d; }: 7 bytes of padding inside.
type pair struct {
	C int8
	D float64
}

// fixtureC prints, for the struct of a kernel's parameters laid out by gcc
// (CUDA lays out kernel parameters as a C struct of them), the offset of
// each member and the bits it received from stdin.
const fixtureC = `#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
struct vec3 { float x, y, z; };
struct pair { char c; double d; };
struct params {
	int8_t a; int32_t b; double c; int16_t d; struct vec3 e; uint64_t f;
	_Bool g; float h; uint8_t i; int64_t j; struct pair k; uint16_t l; uint32_t m;
};
#define BITS(f) do { uint64_t v = 0; memcpy(&v, &p.f, sizeof p.f); \
	printf(#f " %zu %zu %llx\n", offsetof(struct params, f), sizeof p.f, (unsigned long long)v); } while (0)
int main(void) {
	struct params p;
	if (fread(&p, 1, sizeof p, stdin) != sizeof p) return 2;
	printf("size %zu\n", sizeof p);
	BITS(a); BITS(b); BITS(c); BITS(d);
	printf("e %zu %zu %x %x %x\n", offsetof(struct params, e), sizeof p.e,
		*(uint32_t *)&p.e.x, *(uint32_t *)&p.e.y, *(uint32_t *)&p.e.z);
	BITS(f); BITS(g); BITS(h); BITS(i); BITS(j);
	uint64_t d; memcpy(&d, &p.k.d, 8);
	printf("k %zu %zu %x %llx\n", offsetof(struct params, k), sizeof p.k, (unsigned)(uint8_t)p.k.c, (unsigned long long)d);
	BITS(l); BITS(m);
	return 0;
}
`

// fixtureArgs are the Go arguments for struct params, in order.
func fixtureArgs() []any {
	return []any{int8(-5), int32(123456), 3.25, int16(-300), vec3{1.5, 2.5, -3.5},
		uint64(1<<40 + 7), true, float32(0.125), uint8(200), int64(-9), pair{-2, math.Pi},
		uint16(65000), uint32(0xdeadbeef)}
}

// goLine is what the fixture prints for argument i at offset off.
func goLine(name string, off int, a any) string {
	switch v := a.(type) {
	case vec3:
		return fmt.Sprintf("%s %d 12 %x %x %x", name, off, math.Float32bits(v.X), math.Float32bits(v.Y), math.Float32bits(v.Z))
	case pair:
		return fmt.Sprintf("%s %d 16 %x %x", name, off, uint8(v.C), math.Float64bits(v.D))
	case int8:
		return fmt.Sprintf("%s %d 1 %x", name, off, uint8(v))
	case int16:
		return fmt.Sprintf("%s %d 2 %x", name, off, uint16(v))
	case int32:
		return fmt.Sprintf("%s %d 4 %x", name, off, uint32(v))
	case int64:
		return fmt.Sprintf("%s %d 8 %x", name, off, uint64(v))
	case uint8, uint16, uint32, uint64:
		return fmt.Sprintf("%s %d %d %x", name, off, reflectSize(a), v)
	case float32:
		return fmt.Sprintf("%s %d 4 %x", name, off, math.Float32bits(v))
	case float64:
		return fmt.Sprintf("%s %d 8 %x", name, off, math.Float64bits(v))
	case bool:
		b := 0
		if v {
			b = 1
		}
		return fmt.Sprintf("%s %d 1 %x", name, off, b)
	}
	panic(fmt.Sprintf("goLine: %T", a))
}

func reflectSize(a any) int {
	switch a.(type) {
	case uint8:
		return 1
	case uint16:
		return 2
	case uint32:
		return 4
	}
	return 8
}

// TestPackMatchesGCC packs the arguments of a kernel taking struct params's
// members, with and without the kernel's parameter info, and has a program
// built by gcc read the bytes as that struct and print what it received:
// every offset and every value must be the Go argument's.
func TestPackMatchesGCC(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc to build the C fixture")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "fixture.c")
	bin := filepath.Join(dir, "fixture")
	if err := os.WriteFile(src, []byte(fixtureC), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(gcc, "-O1", "-Wall", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	args := fixtureArgs()
	names := strings.Split("a b c d e f g h i j k l m", " ")

	run := func(k *Kernel) (buf []byte, offs []int, lines []string) {
		size, err := k.layout(args)
		if err != nil {
			t.Fatal(err)
		}
		words := make([]uint64, (size+7)/8+8)
		offs = make([]int, len(args))
		k.packFree(args, words, offs)
		buf = unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*8)
		cmd := exec.Command(bin)
		cmd.Stdin = bytes.NewReader(buf)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("fixture: %v", err)
		}
		return buf, offs, strings.Split(strings.TrimSpace(string(out)), "\n")
	}

	// Without parameter info: the layer's own C layout.
	unknown := &Kernel{name: "params"}
	_, offs, lines := run(unknown)
	for i, a := range args {
		if want := goLine(names[i], offs[i], a); lines[i+1] != want {
			t.Errorf("argument %d (%T): the C program received %q, want %q", i, a, lines[i+1], want)
		}
	}

	// With the parameter info the driver would report (the C offsets).
	var params []Param
	for _, l := range lines[1:] {
		var name string
		var off, size int
		fmt.Sscan(l, &name, &off, &size)
		params = append(params, Param{Offset: off, Size: size})
	}
	known := &Kernel{name: "params", params: params, known: true}
	_, offs2, lines2 := run(known)
	for i := range args {
		if offs2[i] != offs[i] || lines2[i+1] != lines[i+1] {
			t.Errorf("argument %d with parameter info: offset %d, received %q; without: %d, %q", i, offs2[i], lines2[i+1], offs[i], lines[i+1])
		}
	}
}

// TestPackErrors: every argument error names the kernel, the argument and
// its type.
func TestPackErrors(t *testing.T) {
	_, c := newFake(t)
	defer c.Close()
	freed, err := Alloc[float32](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	freed.Close()
	live, err := Alloc[float32](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	// Only a *Buffer passes as an address (the package doc): pinned host
	// memory, a registration and pitched memory are refused.
	host, err := AllocHost[float32](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	reg, err := Register(c, make([]float32, 4))
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	pitched, err := AllocPitched[float32](c, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer pitched.Close()
	k := &Kernel{name: "vecAdd", known: true, params: []Param{{0, 8}, {8, 8}, {16, 8}, {24, 4}}}
	unknown := &Kernel{name: "vecAdd"}
	var nilBuf any
	for _, c := range []struct {
		k    *Kernel
		args []any
		want string
	}{
		{k, []any{live, live, live}, "kernel vecAdd takes 4 arguments, got 3"},
		{k, []any{live, live, live, 10}, "argument 3 (int): Go's int is 8 bytes and the kernel's parameter is 4"},
		{k, []any{live, live, live, int64(10)}, "argument 3 (int64): 8 bytes, but the kernel's parameter 3 is 4 bytes"},
		{k, []any{live, float32(1), live, int32(1)}, "argument 1 (float32): 4 bytes, but the kernel's parameter 1 is 8 bytes"},
		{k, []any{live, freed, live, int32(1)}, "argument 1 (*cuda.Buffer[float32]): the buffer was freed"},
		{k, []any{live, live, []float32{1}, int32(1)}, "argument 2 ([]float32): holds Go pointers"},
		{k, []any{live, live, nilBuf, int32(1)}, "argument 2 (nil): nil"},
		{k, []any{live, live, &struct{}{}, int32(1)}, "argument 2 (*struct {}): holds Go pointers"},
		{k, []any{live, host, live, int32(1)}, "argument 1 (*cuda.HostBuffer[float32]): holds Go pointers"},
		{k, []any{live, live, reg, int32(1)}, "argument 2 (*cuda.Registered[float32]): holds Go pointers"},
		{k, []any{pitched, live, live, int32(1)}, "argument 0 (*cuda.Pitched[float32]): holds Go pointers"},
		{unknown, []any{live, live, live, 10}, "argument 3 (int): Go's int has no C size of its own"},
		{unknown, []any{live, live, live, pair{}, "x"}, "argument 4 (string): holds Go pointers"},
		{unknown, []any{live, struct{}{}}, "argument 1 (struct {}): a type of size 0"},
		{k, []any{live, live, [0]float64{}, int32(1)}, "argument 2 ([0]float64): a type of size 0"},
	} {
		_, err := c.k.layout(c.args)
		var ae *ArgError
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		} else if strings.HasPrefix(c.want, "argument ") && !errors.As(err, &ae) {
			t.Errorf("%v: %T, want *ArgError", c.args, err)
		}
	}
	// Go's int is accepted for an 8-byte parameter (size_t).
	k8 := &Kernel{name: "k", known: true, params: []Param{{0, 8}}}
	if _, err := k8.layout([]any{42}); err != nil {
		t.Errorf("int for an 8-byte parameter: %v", err)
	}
}

// TestPackNoAllocs: checking and packing a reused argument list allocates
// nothing (Launch adds only the cuLaunchKernel call).
func TestPackNoAllocs(t *testing.T) {
	_, c := newFake(t)
	defer c.Close()
	a, err := Alloc[float32](c, 1024)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	k := &Kernel{name: "saxpy", known: true, params: []Param{{0, 4}, {8, 8}, {16, 8}, {24, 4}}}
	alpha, n := float32(2), int32(1000)
	allocs := testing.AllocsPerRun(100, func() {
		var words [stackArgWords]uint64
		var offs [stackArgs]int
		args := []any{alpha, a, a, n}
		if _, err := k.layout(args); err != nil {
			t.Fatal(err)
		}
		k.packFree(args, words[:], offs[:len(args)])
		if w0, w1, w3 := words[0], words[1], words[3]; w0 != uint64(math.Float32bits(alpha)) || w1 != uint64(a.Ptr()) || w3 != 1000 {
			t.Fatalf("packed %x %x _ %x", w0, w1, w3)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a pack, want 0", allocs)
	}
}

// TestBufHeaderLayout: Launch reads a *Buffer[T] of any T as a bufHeader.
func TestBufHeaderLayout(t *testing.T) {
	check := func(name string, size, a, p, n, v uintptr) {
		var h bufHeader
		if size != unsafe.Sizeof(h) || a != unsafe.Offsetof(h.a) || p != unsafe.Offsetof(h.ptr) || n != unsafe.Offsetof(h.n) || v != unsafe.Offsetof(h.view) {
			t.Errorf("%s's layout differs from bufHeader's", name)
		}
	}
	var b1 Buffer[float64]
	check("Buffer[float64]", unsafe.Sizeof(b1), unsafe.Offsetof(b1.a), unsafe.Offsetof(b1.ptr), unsafe.Offsetof(b1.n), unsafe.Offsetof(b1.view))
	var b2 Buffer[[3]byte]
	check("Buffer[[3]byte]", unsafe.Sizeof(b2), unsafe.Offsetof(b2.a), unsafe.Offsetof(b2.ptr), unsafe.Offsetof(b2.n), unsafe.Offsetof(b2.view))
}

// TestPrepareImage: PTX gets one NUL, binaries pass unchanged.
func TestPrepareImage(t *testing.T) {
	ptx := []byte(".version 7.0\n.target sm_52\n")
	kind, img, err := PrepareImage(ptx)
	if err != nil || kind != ImagePTX || !bytes.Equal(img, append(ptx[:len(ptx):len(ptx)], 0)) {
		t.Errorf("PTX: %v %q %v", kind, img, err)
	}
	if len(ptx) != 27 || ptx[len(ptx)-1] != '\n' {
		t.Error("PrepareImage changed its input")
	}
	withNUL := append([]byte(".version 7.0\n"), 0)
	if _, img, _ := PrepareImage(withNUL); !bytes.Equal(img, withNUL) {
		t.Errorf("PTX with its NUL: %q", img)
	}
	if _, _, err := PrepareImage([]byte(".version\x007.0\n")); err == nil || !strings.Contains(err.Error(), "NUL byte at offset 8") {
		t.Errorf("PTX with a NUL inside: %v", err)
	}
	for _, bin := range [][]byte{[]byte("\x7fELF\x02\x01\x01\x00"), {0x50, 0xed, 0x55, 0xba, 1, 0}} {
		kind, img, err := PrepareImage(bin)
		if err != nil || kind == ImagePTX || !bytes.Equal(img, bin) {
			t.Errorf("%q: %v %q %v", bin, kind, img, err)
		}
	}
	if _, _, err := PrepareImage(nil); err == nil {
		t.Error("empty image: no error")
	}
}

// TestConfig: C's dim3 defaults and ForN.
func TestConfig(t *testing.T) {
	if d := (Dim3{X: 5}).Norm(); d != (Dim3{5, 1, 1}) {
		t.Errorf("Dim3{X: 5}.Norm() = %v", d)
	}
	if d := (Dim3{}).Norm(); d != (Dim3{1, 1, 1}) {
		t.Errorf("Dim3{}.Norm() = %v", d)
	}
	for _, c := range []struct{ n, block, grid, threads int }{
		{1000, 256, 4, 256}, {1024, 256, 4, 256}, {1025, 0, 5, 256}, {0, 128, 1, 128}, {1, 1024, 1, 1024},
	} {
		cfg := ForN(c.n, c.block)
		if cfg.Grid != (Dim3{X: uint32(c.grid)}) || cfg.Block != (Dim3{X: uint32(c.threads)}) {
			t.Errorf("ForN(%d, %d) = %+v", c.n, c.block, cfg)
		}
	}
	var _ cu.Deviceptr // the package compiles against cu
}

// layout is pack measuring: the bytes args take, or pack's error.
func (k *Kernel) layout(args []any) (int, error) {
	_, n, err := k.pack(args, nil, nil)
	return n, err
}

// packFree is pack ending at once the uses of the buffers it began.
func (k *Kernel) packFree(args []any, buf []uint64, offs []int) {
	if held, _, err := k.pack(args, buf, offs); err == nil {
		unhold(args, held)
	}
}
