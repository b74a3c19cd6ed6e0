// Command vetcontrol converts an integer handle with unsafe.Pointer, as the
// API before cugen's handle rules required: go vet must flag it
// (TestVetClean's control).
package main

import (
	"unsafe"

	"github.com/cugen/cugen/emit/internal/abitest/cu"
	"github.com/cugen/cugen/emit/internal/abitest/cudart"
)

func main() {
	var d cu.Deviceptr
	_ = cudart.Free(unsafe.Pointer(uintptr(d)))
}
