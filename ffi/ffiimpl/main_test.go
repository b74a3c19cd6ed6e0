//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffiimpl_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/ffi/ffiimpl"
)

// The generated-code version guards, exactly as the generator writes them.
const (
	_ = ffiimpl.EnforceVersion(ffiimpl.Version - 6)
	_ = ffiimpl.EnforceVersion(6 - ffiimpl.MinVersion)
)

const libEnv = "CUGEN_FFI_TEST_LIB"

var (
	abiPath string // testdata/abi.c built as a shared library; "" if it could not be
	abiSkip string // why abiPath is empty
	abiLib  *ffiimpl.Library
)

// TestMain builds testdata/abi.c once for every test and benchmark. The C
// compiler is $CC if set (a cross compiler under qemu), else gcc.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ffi-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// make test-windows builds the fixture as a DLL and names it in
	// CUGEN_FFI_TEST_LIB: no compiler can start under wine.
	if abiPath = os.Getenv(libEnv); abiPath == "" {
		abiPath, abiSkip = buildABI(dir)
	}
	if abiPath != "" {
		// The library is found only through the environment variable: this
		// also exercises the override.
		os.Setenv(libEnv, abiPath)
	}
	abiLib = ffiimpl.Bind(ffi.NewLibrary(ffi.LibraryDesc{
		Name:   "ABI test",
		EnvVar: libEnv,
		Files:  []string{"libcugen-abi-test-not-installed.so"},
	}))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func buildABI(dir string) (path, skip string) {
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		return "", "no C compiler (" + cc + ") to build testdata/abi.c"
	}
	path = filepath.Join(dir, "libabi.so")
	out, err := exec.Command(cc, "-shared", "-fPIC", "-O1", "-o", path, "testdata/abi.c", "-lpthread").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building testdata/abi.c: %v\n%s", err, out)
		os.Exit(1)
	}
	return path, ""
}

// needABI skips a test or benchmark that needs the compiled fixtures.
func needABI(tb testing.TB) {
	tb.Helper()
	if abiPath == "" {
		tb.Skip(abiSkip)
	}
}

// fn returns the address of a fixture function.
func fn(tb testing.TB, name string) uintptr {
	tb.Helper()
	needABI(tb)
	a, err := abiLib.NewProc(name, "").Addr()
	if err != nil {
		tb.Fatal(err)
	}
	return a
}

// rec returns the fixtures' record of the arguments they received.
func rec(tb testing.TB) *[64]uint64 {
	a := fn(tb, "rec")
	return *(**[64]uint64)(unsafe.Pointer(&a))
}

// layoutOf derives a Layout from a Go struct that mirrors a C struct, the
// way the generator derives it from the C declaration.
func layoutOf[T any]() *ffiimpl.Layout {
	t := reflect.TypeFor[T]()
	l := &ffiimpl.Layout{Size: t.Size(), Align: uintptr(t.Align())}
	var walk func(t reflect.Type, off uintptr)
	walk = func(t reflect.Type, off uintptr) {
		switch t.Kind() {
		case reflect.Struct:
			for i := range t.NumField() {
				walk(t.Field(i).Type, off+t.Field(i).Offset)
			}
		case reflect.Array:
			for i := range t.Len() {
				walk(t.Elem(), off+uintptr(i)*t.Elem().Size())
			}
		case reflect.Float32, reflect.Float64:
			l.Scalars = append(l.Scalars, ffiimpl.Scalar{Offset: off, Size: t.Size(), Float: true})
		default:
			l.Scalars = append(l.Scalars, ffiimpl.Scalar{Offset: off, Size: t.Size()})
		}
	}
	walk(t, 0)
	return l
}

// runs returns l with equal leaves laid end to end merged into runs
// (Scalar.Count), as the generator emits arrays.
func runs(l *ffiimpl.Layout) *ffiimpl.Layout {
	r := &ffiimpl.Layout{Size: l.Size, Align: l.Align}
	for _, s := range l.Scalars {
		if n := len(r.Scalars); n > 0 {
			p := &r.Scalars[n-1]
			if p.Size == s.Size && p.Float == s.Float && p.Offset+max(p.Count, 1)*p.Size == s.Offset {
				p.Count = max(p.Count, 1) + 1
				continue
			}
		}
		r.Scalars = append(r.Scalars, s)
	}
	return r
}

// words returns *p as the fixtures record it: 8-byte words, tail zeroed.
func words[T any](p *T) []uint64 {
	n := unsafe.Sizeof(*p)
	b := unsafe.Slice((*byte)(unsafe.Pointer(p)), n)
	w := make([]uint64, (n+7)/8)
	for i, c := range b {
		w[i/8] |= uint64(c) << (8 * (i % 8))
	}
	return w
}
