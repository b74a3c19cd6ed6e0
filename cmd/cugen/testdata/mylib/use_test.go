// This file is copied into a scratch module by cmd/cugen's TestGenDesc,
// beside the packages cugen gen -desc mylib.json generated there (out/mylib,
// out/cudart, out/cu), and calls libmylib.so (mylib.c, built by gcc)
// through the generated package mylib, on the CPU.
package use_test

import (
	"errors"
	"slices"
	"testing"
	"unsafe"

	"example.com/mylibuse/out/cudart"
	"example.com/mylibuse/out/mylib"
)

func TestMylib(t *testing.T) {
	if err := mylib.SharedLibrary().Load(); err != nil {
		t.Fatal(err)
	}
	// An out-parameter is a result.
	v, err := mylib.GetVersion()
	if err != nil || v != 10203 {
		t.Errorf("GetVersion() = %d, %v; want 10203, nil", v, err)
	}
	// The array and its count stay a pointer and a count; the output is
	// a result.
	x := []float32{1, 2, 3, 4}
	if s, err := mylib.Sum(&x[0], int32(len(x))); err != nil || s != 10 {
		t.Errorf("Sum = %v, %v; want 10, nil", s, err)
	}
	// A status other than success is an error: its C name and the text
	// mylibGetErrorString gives, and errors.Is finds the value.
	_, err = mylib.Sum(&x[0], -1)
	if !errors.Is(err, mylib.StatusInvalidValue) {
		t.Errorf("Sum(n = -1): %v; want StatusInvalidValue", err)
	}
	if want := "mylibSum: MYLIB_STATUS_INVALID_VALUE: invalid value (libmylib)"; err == nil || err.Error() != want {
		t.Errorf("Sum(n = -1): %v; want %q", err, want)
	}
	// cudaStream_t is the generated runtime package's Stream.
	if err := mylib.Scale(&x[0], int32(len(x)), 2, cudart.Stream(0x1234)); err != nil || !slices.Equal(x, []float32{2, 4, 6, 8}) {
		t.Errorf("Scale: %v, x = %v; want nil, [2 4 6 8]", err, x)
	}
	if s, err := mylib.LastStream(); err != nil || s != cudart.Stream(0x1234) {
		t.Errorf("LastStream() = %#x, %v; want 0x1234, nil", s, err)
	}
	// The logger is a Go func, called back by C while it is set.
	var got []string
	if err := mylib.SetLogger(func(msg *byte) { got = append(got, goString(msg)) }); err != nil {
		t.Fatal(err)
	}
	if _, err := mylib.Sum(&x[0], 2); err != nil {
		t.Fatal(err)
	}
	if err := mylib.Log("hello"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"mylibSum: 2 elements", "hello"}; !slices.Equal(got, want) {
		t.Errorf("logged %q; want %q", got, want)
	}
	if err := mylib.SetLogger(nil); err != nil {
		t.Fatal(err)
	}
	if err := mylib.Log("dropped"); !errors.Is(err, mylib.StatusNotInitialized) || len(got) != 2 {
		t.Errorf("Log without a logger: %v, logged %q; want StatusNotInitialized and nothing more", err, got)
	}
}

// goString copies the NUL-terminated C string at p.
func goString(p *byte) string {
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}
