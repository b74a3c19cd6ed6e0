package cuda

import "reflect"

// Align16 gives a struct C's 16-byte alignment as a kernel argument. Go
// aligns no type to more than 8 bytes, but CUDA's float4, int4, double2
// and their kind are 16-byte aligned, so a kernel's parameter of such a
// type sits at a 16-byte boundary. A struct whose first field is an
// Align16 (which takes no space) is packed by [Kernel.Launch] at such a
// boundary, as C packs it:
//
//	type Float4 struct {
//		_          cuda.Align16
//		X, Y, Z, W float32
//	}
//
// cugen kernels generates such types for the kernels it binds.
type Align16 struct{}

var align16Type = reflect.TypeFor[Align16]()

// cAlign is t's alignment as a kernel argument: 16 for a struct led by
// an Align16, else Go's.
func cAlign(t reflect.Type) int {
	if t.Kind() == reflect.Struct && t.NumField() > 0 && t.Field(0).Type == align16Type {
		return 16
	}
	return t.Align()
}
