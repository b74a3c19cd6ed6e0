package algo

import (
	"unsafe"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/algo/internal/cubk"
)

// halfFunc adapts cubk's launch func f of a kernel instantiated for
// cub.cu's f16 or bf16 (S: cubk.F16 or cubk.Bf16, a struct of the bits)
// to the signature of T (cuda.Float16 or cuda.BFloat16) that run.go and
// sort.go call it through; a func without S in its parameters is f itself. The
// buffers are the same memory: a cuda.Buffer's fields do not depend on
// its element type (TestHalfFuncs), and S and T are both 2 bytes of the
// same bits.
func halfFunc[T cuda.Float16 | cuda.BFloat16, S cubk.F16 | cubk.Bf16](f any) any {
	type (
		B[E any] = *cuda.Buffer[E]
		C        = cuda.Config
	)
	b := func(x B[T]) B[S] { return (*cuda.Buffer[S])(unsafe.Pointer(x)) }
	v := func(x T) S { return *(*S)(unsafe.Pointer(&x)) }
	switch f := f.(type) {
	case func(C, B[S], B[S], int32) error: // reduce tiles
		return func(c C, in, out B[T], n int32) error { return f(c, b(in), b(out), n) }
	case func(C, B[S], B[S], int32, S) error: // reduce single
		return func(c C, in, out B[T], n int32, init T) error { return f(c, b(in), b(out), n, v(init)) }
	case func(C, B[S], B[byte], int32) error: // arg tiles
		return func(c C, in B[T], p B[byte], n int32) error { return f(c, b(in), p, n) }
	case func(C, B[S], B[int32], B[S], int32, S) error: // arg single
		return func(c C, in B[T], i B[int32], val B[T], n int32, e T) error { return f(c, b(in), i, b(val), n, v(e)) }
	case func(C, B[byte], B[int32], B[S], int32, S) error: // arg partials
		return func(c C, p B[byte], i B[int32], val B[T], n int32, e T) error { return f(c, p, i, b(val), n, v(e)) }
	case func(C, B[S], B[S], B[byte], int32, int32, int32) error: // inclusive scan
		return func(c C, in, out B[T], st B[byte], tiles, start, n int32) error {
			return f(c, b(in), b(out), st, tiles, start, n)
		}
	case func(C, B[S], B[S], B[byte], int32, int32, int32, S) error: // exclusive scan
		return func(c C, in, out B[T], st B[byte], tiles, start, n int32, init T) error {
			return f(c, b(in), b(out), st, tiles, start, n, v(init))
		}
	case func(C, B[int32], B[S], int32, int32, int32) error: // sort histogram
		return func(c C, bins B[int32], keys B[T], n, begin, end int32) error {
			return f(c, bins, b(keys), n, begin, end)
		}
	case func(C, B[int32], B[int32], B[int32], B[int32], B[S], B[S], int32, int32, int32) error: // sort keys
		return func(c C, lb, ctrs, bo, bi B[int32], ko, ki B[T], n, bit, bits int32) error {
			return f(c, lb, ctrs, bo, bi, b(ko), b(ki), n, bit, bits)
		}
	case func(C, B[int32], B[int32], B[int32], B[int32], B[S], B[S], B[int32], B[int32], int32, int32, int32) error: // sort pairs
		return func(c C, lb, ctrs, bo, bi B[int32], ko, ki B[T], vo, vi B[int32], n, bit, bits int32) error {
			return f(c, lb, ctrs, bo, bi, b(ko), b(ki), vo, vi, n, bit, bits)
		}
	case func(C, B[S], B[S], B[int32], S) error: // segmented
		return func(c C, in, out B[T], offsets B[int32], init T) error { return f(c, b(in), b(out), offsets, v(init)) }
	}
	return f
}
