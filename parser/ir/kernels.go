package ir

import "fmt"

// Kernel is a __global__ function of a CUDA C++ source that cugen kernels
// binds: its C name (an extern "C" kernel) or the name expression of a
// template instantiation (saxpy<float>), and its parameters as C lays
// them out.
type Kernel struct {
	// Name is the kernel's name in the source; Expr the expression NVRTC
	// is given for it (Name for an extern "C" kernel, saxpy<float> for an
	// instantiation).
	Name, Expr string
	// File and Line are where the source declares it.
	File   string
	Line   int
	Params []KernelParam
}

// KernelParam is one parameter of a kernel.
type KernelParam struct {
	Name string
	// Type is the parameter's type after the kernel's template arguments
	// are substituted.
	Type *KernelType
	// Offset is its byte offset in the kernel's parameter buffer.
	Offset int64
}

// Label names parameter i (from 0) of its kernel in messages: its name,
// else its 1-based position.
func (p KernelParam) Label(i int) string {
	if p.Name == "" {
		return fmt.Sprint(i + 1)
	}
	return p.Name
}

// KernelTypeKind says what a kernel parameter's type is.
type KernelTypeKind string

const (
	KScalar  KernelTypeKind = "scalar"  // an arithmetic C type (Scalar)
	KPointer KernelTypeKind = "pointer" // a pointer to Elem
	KStruct  KernelTypeKind = "struct"  // a struct passed by value (Name, Fields)
	KArray   KernelTypeKind = "array"   // a struct field's array of Len Elem
)

// KernelType is the C type of a kernel parameter or of a field of a
// struct parameter.
type KernelType struct {
	Kind KernelTypeKind
	// C spells the type in C.
	C string
	// Scalar is the C arithmetic type of a KScalar: "float", "int",
	// "unsigned char", ... ("void" for the element of a void pointer).
	Scalar string
	Size   int64
	Align  int64
	// Const: the pointee of a KPointer is const.
	Const  bool
	Elem   *KernelType
	Len    int64
	Name   string
	Fields []KernelField
}

// KernelField is a field of a struct kernel parameter.
type KernelField struct {
	Name   string
	Type   *KernelType
	Offset int64
}
