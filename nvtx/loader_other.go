//go:build !(linux && (amd64 || arm64))

package nvtx

import "errors"

// Status says that this platform has no NVTX support in this package yet.
func Status() error { return errNotSupported }

var errNotSupported = errors.New("nvtx: not supported on this platform yet (linux/amd64 and linux/arm64 are)")

func attached() bool { return false }

// The calls below are never reached: attached is false.

var (
	fnMarkEx, fnStartEx, fnPushEx, fnEnd                         int
	fnDomainMarkEx, fnDomainStartEx, fnDomainEnd, fnDomainPushEx int
)

func pushA(string) int                          { return -1 }
func pop() int                                  { return -1 }
func domainPop(uintptr) int                     { return -1 }
func markA(string)                              {}
func startA(string) uint64                      { return 0 }
func call1(uintptr, int, Attributes) int        { return -1 }
func callRange(uintptr, int, Attributes) uint64 { return 0 }
func end(uintptr, int, uint64)                  {}
func nameCategory(uintptr, uint32, string)      {}
func nameThread(uint32, string)                 {}
func domainCreate(string) uintptr               { return 0 }
func domainDestroy(uintptr)                     {}
