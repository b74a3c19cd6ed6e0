//go:build !cgo || !linux

package cgoshim

import (
	"errors"
	"unsafe"
)

// Available reports whether this build has the cgo shim: not without cgo.
const Available = false

var errNoCgo = errors.New("cgoshim: built without cgo")

func Open(cuda, cudart string) error                             { return errNoCgo }
func CtxGetCurrent() (uintptr, int32)                            { return 0, -1 }
func DriverGetVersion() (int32, int32)                           { return 0, -1 }
func DeviceGet(ordinal int32) (int32, int32)                     { return 0, -1 }
func MemcpyHtoD(dst uint64, src unsafe.Pointer, n uint64) int32  { return -1 }
func LaunchEmpty(f uintptr) int32                                { return -1 }
func GetDevice() (int32, int32)                                  { return 0, -1 }
func Memcpy(dst, src unsafe.Pointer, n uint64, kind int32) int32 { return -1 }
func LaunchLoop(f uintptr, n int) int32                          { return -1 }
func GraphLaunch(exec, stream uintptr) int32                     { return -1 }
func DriverGetVersionNoEscape() (int32, int32)                   { return 0, -1 }
func CtxGetCurrentNoEscape() (uintptr, int32)                    { return 0, -1 }
func DeviceGetNoEscape(ordinal int32) (int32, int32)             { return 0, -1 }
func GetDeviceNoEscape() (int32, int32)                          { return 0, -1 }
