//go:build !linux && !(windows && amd64)

package ffi

// readable reports false: with no probe, no byte of a C string is read
// (cugen's libraries load on Linux and Windows only).
func readable(a uintptr) bool { return false }

// Readable reports false: there is no probe on this system, so generated
// wrappers pass a misaligned pointer to C as they got it.
func Readable(a, n uintptr) bool { return false }
