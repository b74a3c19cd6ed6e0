// Package sparse is cuSPARSE's generic API on the layer's buffers: sparse
// matrices in CSR, COO and BSR format that own their device memory, dense
// vectors and matrices over [cuda.Buffer]s, and the products and solves
// SpMV, SpMM, SpGEMM and SpSV, each queued on the stream of a [Handle]
// with its workspace allocated and kept for the next call.
//
//	h, err := sparse.NewHandle(ctx, stream)
//	A, err := sparse.NewCSR(ctx, rows, cols, rowPtr, colInd, values) // Go slices, zero-based
//	x, err := sparse.NewVec(xbuf) // a *cuda.Buffer[float32] of cols elements
//	y, err := sparse.NewVec(ybuf)
//	err = sparse.SpMV(h, sparse.NoTrans, 1, A, x, 0, y) // y = A·x
//
// Matrices and vectors are generic over the element type (float32,
// float64, complex64, complex128) and the index type (int32, int64); an
// operation takes operands of one element type, so a mix is a compile
// error. Every dimension or length that does not fit is a [*Error] of kind [ErrShape]
// before cuSPARSE is called, and a matrix built from Go slices has its
// structure checked on the host (offsets nondecreasing, indices in
// range) before anything is uploaded.
//
// Dense matrices ([Dense]) take either order: RowMajor is Go's [][]T
// flattened row after row, ColMajor is LAPACK's; cuSPARSE reads both as
// they are, with no copy.
//
// # Lifetimes and goroutines
//
// A Handle, a matrix, a vector and an SpSV plan are each closed once by
// Close, which waits for the operations using it on other goroutines;
// any use after is [ErrClosed]. A matrix owns its buffers (Close frees
// them), but for one of [BorrowCSR], [BorrowCOO] or [BorrowBSR], which
// borrows them so that one set of buffers can back several matrices; a
// [Vec] or [Dense] only describes a buffer that stays the caller's. The operations hold each buffer in use for the length of the
// call ([cuda.Stream.Call]): a buffer closed before is the layer's
// ErrFreed, and one of another context than the handle's stream is an
// error, before cuSPARSE is called. A Handle runs one operation at a time
// on its stream; operations are asynchronous, like the stream's other
// work (SpGEMM excepted: it waits for the size of its result).
// The Handle is a resource of its context ([cuda.Handle]), as a buffer
// is; it and the descriptors, when they become unreachable without
// Close, are destroyed by a cleanup.
//
// Raw() returns cuSPARSE's handle or descriptor for the calls of the
// cusparse package this one does not wrap; make them inside
// [cuda.Context.Do].
package sparse
