//go:build !linux

package ffi

// readable reports false: with no probe, a C string is read only within
// the page it starts in (cugen's libraries load on linux only).
func readable(a uintptr) bool { return false }

// Readable reports false: there is no probe on this system, so generated
// wrappers pass a misaligned pointer to C as they got it.
func Readable(a, n uintptr) bool { return false }

// probes is false: [Readable] has no probe here.
const probes = false
