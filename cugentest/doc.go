// Package cugentest holds the logic of the tests cugen generates into every
// package, so that each generated package carries a few lines of test
// rather than a copy of them: [Symbols] (symbols_test.go: every bound
// function resolves in the library) and, for each cu/cudart pair,
// [ContextDemo] and [ContextPerThread] (context_demo_test.go: how the
// runtime rides on the driver's primary context). [IsChild] and [RunChild]
// run a test in a fresh process.
//
// Every test that skips for want of a GPU or a library decides through
// [NeedDevice], [NeedLibrary], [SkipNoGPU] or [SkipNoLib]: a missing driver,
// device or library skips, or fails under CUGEN_REQUIRE_GPU=1 /
// CUGEN_REQUIRE_LIBS=1 (make gpu's run sets both), and any other error
// fails, so a broken cuInit cannot pass as "no GPU here". [SkipFewGPUs]
// and [SkipHasGPU] are the skips that never fail.
//
// It imports package testing and is meant for tests only: generated ones,
// in this module and in every module that runs cugen, and cugen's own.
// Programs import the generated packages and package ffi, never this one.
package cugentest
