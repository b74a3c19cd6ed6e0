// Package solver is cuSOLVER's dense factorizations on the layer's
// buffers: Cholesky ([Potrf], [Potrs]), LU ([Getrf], [Getrs]), QR
// ([Geqrf], [Ormqr]), the singular value decomposition ([Gesvd]) and the
// symmetric eigenproblem ([Syevd]), each through a [Handle] bound to a
// context and a stream.
//
//	h, err := solver.NewHandle(ctx, stream)
//	A := solver.NewMatrix(abuf, n, n) // column-major, see below
//	err = solver.Potrf(h, solver.Lower, A)
//	var npd *solver.NotPositiveDefiniteError
//	if errors.As(err, &npd) { ... npd.Order ... }
//	err = solver.Potrs(h, solver.Lower, A, solver.NewMatrix(bbuf, n, 1))
//
// Each call asks cuSOLVER for its workspace sizes (device and host),
// grows the handle's workspaces to them (kept for the next calls), queues
// the work on the handle's stream, then waits for the stream to read back
// cuSOLVER's info word: a factorization that fails says why in a typed
// error ([*NotPositiveDefiniteError] naming the leading minor,
// [*SingularError] naming U's zero pivot, [*ConvergenceError]). Every
// dimension or length that does not fit is a [*Error] of kind [ErrShape] before
// cuSOLVER is called; a buffer closed before is the layer's ErrFreed.
// The calls are generic: Cholesky, LU and QR over float32, float64,
// complex64 and complex128 (cuSOLVER's 64-bit API, cusolverDnX*, and
// <t>ormqr/<t>unmqr), the SVD and the eigensolver over float32 and
// float64.
//
// # Column-major order
//
// cuSOLVER, like LAPACK, keeps matrices column by column, and so does a
// [Matrix] here: element (i, j) at Buf[i + j*LD], LD >= Rows. Go code
// usually keeps them row by row; a row-major slice of an m×n matrix read
// column-major is its n×m transpose Aᵀ. Three ways to live with it:
//   - Symmetric (Hermitian) matrices are the same either way (up to the
//     conjugate): Potrf, Potrs and Syevd take a row-major symmetric matrix
//     as it is, with the other triangle (a row-major Lower is a
//     column-major Upper).
//   - The transpose identity: the LU factors of the row-major buffer are
//     those of Aᵀ, and Getrs with Trans solves A·x = b with them
//     (TestGPURowMajor), no copy.
//   - [Transpose] converts a row-major slice to column-major on the host,
//     and back.
//
// Vectors (one column) are the same in both orders.
package solver
