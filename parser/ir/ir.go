// Package ir is the contract between parser/ and emit/: plain Go values that
// describe everything cugen read from a CUDA header set. It imports nothing
// from the C front end, so emit/ (and anyone inspecting `cugen ir` JSON) sees
// only these types.
package ir

// API is one parsed header set: the functions of every library the parse
// read (the driver API of cuda.h, the runtime API of cuda_runtime_api.h,
// NVRTC, ...), with every type they use.
type API struct {
	// CUDAVersion is the CUDA_VERSION macro of cuda.h, e.g. 12040.
	CUDAVersion int64 `json:"cuda_version"`
	// RuntimeVersion is CUDART_VERSION of cuda_runtime_api.h, e.g. 12040.
	RuntimeVersion int64 `json:"runtime_version"`
	// Origin names the headers.lock entry that pinned the headers, with
	// its digest ("headers.lock set 13.0 (sha256 ...)"); empty for a
	// directory parsed as is. Generated files name it.
	Origin string `json:"origin,omitempty"`
	// Sources are the header files the parse opened, relative to the header
	// directory, sorted. headers.lock pins their hashes.
	Sources []string `json:"sources"`

	Functions []*Function `json:"functions"`
	Enums     []*Enum     `json:"enums"`
	Records   []*Record   `json:"records"`
	Typedefs  []*Typedef  `json:"typedefs"`
	Macros    []*Macro    `json:"macros"`
	// Initializers are the struct initializer macros the library
	// descriptions name (NCCL_CONFIG_INITIALIZER), evaluated.
	Initializers []*Initializer `json:"initializers,omitempty"`
}

// Library says which shared library exports a function: the Key of its
// description (package library).
type Library string

// The two CUDA APIs, whose packages have rules of their own (the driver is
// one per process; the runtime owns the headers it includes).
const (
	Driver  Library = "driver"  // libcuda.so.1, declared in cuda.h
	Runtime Library = "runtime" // libcudart.so.N, declared in cuda_runtime_api.h
)

// Pos is a place in a header, relative to the header directory.
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// Function is one extern C function.
type Function struct {
	// Name is the API name a C programmer writes (cuCtxCreate).
	Name string `json:"name"`
	// Symbol is the linked ABI symbol a C program compiled against these
	// headers calls (cuCtxCreate_v2).
	Symbol string `json:"symbol"`
	// Aliases are other API names the headers #define to this function
	// without a version suffix (cuGraphInstantiate -> cuGraphInstantiateWithFlags).
	Aliases []string `json:"aliases,omitempty"`
	// PerThreadSymbol is the per-thread-default-stream variant (_ptds/_ptsz)
	// selected by CUDA_API_PER_THREAD_DEFAULT_STREAM, if any.
	PerThreadSymbol string  `json:"per_thread_symbol,omitempty"`
	Library         Library `json:"library"`
	Params          []Param `json:"params"`
	Result          *Type   `json:"result"`
	Doc             *Doc    `json:"doc,omitempty"`
	// Deprecated is set by a \deprecated in the comment or a deprecated
	// attribute on the declaration.
	Deprecated bool `json:"deprecated,omitempty"`
	// SinceVersion is the version (e.g. 12000) that introduced the symbol:
	// for the driver, the CUDA version whose cudaTypedefs.h PFN_<name>_v<N>
	// matches it; for a per-version symbol (__nvJitLinkCreate_12_4) the
	// library version it names; 0 when unknown (runtime functions).
	SinceVersion int `json:"since_version,omitempty"`
	Pos          Pos `json:"pos"`
}

// Direction says whether the callee reads or writes through a parameter.
type Direction string

const (
	In    Direction = "in"
	Out   Direction = "out"
	InOut Direction = "inout"
)

// Param is one function parameter.
type Param struct {
	Name      string    `json:"name"`
	Type      *Type     `json:"type"`
	Direction Direction `json:"direction"`
	// Why explains Direction: the documentation phrase or override that
	// decided it. Written to the generated audit file.
	Why string `json:"why,omitempty"`
	// Doc is the header's \param text for this parameter (the text of the
	// function's Doc.Params entry that names it), in ir.Doc's inline form.
	Doc string `json:"doc,omitempty"`
	// Array is set when the pointer points to several elements, not one:
	// C reads or writes that many. Nil for a pointer to a single value.
	Array *ArraySize `json:"array,omitempty"`
}

// ArraySize says how many elements an array parameter has, and where that
// number comes from.
type ArraySize struct {
	// Len is a fixed element count (the 8 bytes of a LUID); 0 when the
	// count is not fixed.
	Len int64 `json:"len,omitempty"`
	// Param names the parameter that holds the count, if one does.
	Param string `json:"param,omitempty"`
	// Source says in words where the size comes from (the documentation
	// phrase or override row); the audit file quotes it.
	Source string `json:"source"`
}

// Kind classifies a C type.
type Kind string

const (
	Void     Kind = "void"
	Int      Kind = "int"   // any integer type, including char and bool; see Size and Signed
	Float    Kind = "float" // float (4) or double (8)
	Pointer  Kind = "pointer"
	Array    Kind = "array"
	Named    Kind = "named" // a typedef, or a struct/union/enum tag; see Name
	FuncPtr  Kind = "funcptr"
	Variadic Kind = "variadic" // never appears in CUDA's extern API
)

// Type is a C type, kept as written (typedef names are not resolved away, so
// emit can map CUcontext to Context).
type Type struct {
	Kind Kind `json:"kind"`
	// C is the type spelled as C (for docs and audit files).
	C string `json:"c"`
	// Name is the typedef or tag name for Named (e.g. "CUcontext",
	// "struct cudaDeviceProp", "enum cudaError", "size_t").
	Name string `json:"name,omitempty"`
	// Size and Align in bytes on linux/amd64 and linux/arm64 (LP64).
	Size   int64 `json:"size"`
	Align  int64 `json:"align"`
	Signed bool  `json:"signed,omitempty"`
	Const  bool  `json:"const,omitempty"`
	// Elem is the pointee (Pointer), element (Array) or resolved
	// type (Named typedefs).
	Elem *Type `json:"elem,omitempty"`
	// Len is the element count of an Array.
	Len int64 `json:"len,omitempty"`
	// Func is the signature of a FuncPtr.
	Func *Signature `json:"func,omitempty"`
}

// Signature is a function-pointer type (a callback).
type Signature struct {
	Params []Param `json:"params"`
	Result *Type   `json:"result"`
}

// Enum is one C enumeration, de-duplicated by tag.
type Enum struct {
	// Name is the typedef name if the enum has one (CUresult), else the tag.
	Name string `json:"name"`
	// Tag is the enum tag (cudaError_enum), may be empty.
	Tag string `json:"tag,omitempty"`
	// Ref is the name Named types use to refer to this enum: "enum TAG",
	// or "enum <anonymous FIRST>" for an untagged one.
	Ref     string      `json:"ref"`
	Size    int64       `json:"size"`
	Signed  bool        `json:"signed"`
	Values  []EnumValue `json:"values"`
	Doc     *Doc        `json:"doc,omitempty"`
	Library Library     `json:"library"`
	Pos     Pos         `json:"pos"`
}

// EnumValue is one enumerator.
type EnumValue struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
	Doc   *Doc   `json:"doc,omitempty"`
}

// Record is a struct or union with its exact C layout.
type Record struct {
	// Name is the typedef name if there is one (CUDA_MEMCPY2D), else the
	// tag (cudaDeviceProp).
	Name string `json:"name"`
	Tag  string `json:"tag,omitempty"`
	// Ref is the name Named types use to refer to this record: "struct
	// TAG", "union TAG", or "struct <anonymous at FILE:LINE>".
	Ref     string  `json:"ref"`
	Union   bool    `json:"union,omitempty"`
	Size    int64   `json:"size"`
	Align   int64   `json:"align"`
	Fields  []Field `json:"fields"`
	Doc     *Doc    `json:"doc,omitempty"`
	Library Library `json:"library"`
	Pos     Pos     `json:"pos"`
	// Opaque records are declared but never defined (struct CUctx_st).
	Opaque bool `json:"opaque,omitempty"`
	// Parent and Member are set for an anonymous record that is the type of
	// a named member (struct { union { ... } params; }): the reference name
	// of the enclosing record and the member's name, so emit can name it.
	Parent string `json:"parent,omitempty"`
	Member string `json:"member,omitempty"`
}

// Field is one member, its Offset relative to the outermost record. An
// unnamed struct/union member is one field named "_anon0", "_anon1", ...
// with Anonymous set and its members in Record (their offsets, too, relative
// to the outermost record), so a union inside a struct stays one union.
type Field struct {
	Name   string `json:"name"`
	Type   *Type  `json:"type"`
	Offset int64  `json:"offset"`
	// BitOffset/BitWidth are set for bitfields (BitWidth > 0); BitOffset
	// counts from Offset's byte.
	BitOffset int  `json:"bit_offset,omitempty"`
	BitWidth  int  `json:"bit_width,omitempty"`
	Doc       *Doc `json:"doc,omitempty"`
	// Anonymous marks an unnamed struct/union member; its Type is the
	// anonymous record (Kind Named with Name "" and the record inline in Record).
	Anonymous bool    `json:"anonymous,omitempty"`
	Record    *Record `json:"record,omitempty"`
}

// Typedef is a C typedef that emit may turn into a Go type.
type Typedef struct {
	Name    string  `json:"name"`
	Type    *Type   `json:"type"`
	Doc     *Doc    `json:"doc,omitempty"`
	Library Library `json:"library"`
	Pos     Pos     `json:"pos"`
}

// An Initializer is a macro that expands to a brace-enclosed initializer of
// a struct (nccl.h: `ncclConfig_t config = NCCL_CONFIG_INITIALIZER;`), with
// the value the C compiler gives each member it sets.
type Initializer struct {
	Name string `json:"name"`
	// Record is the struct's C name (its typedef): "ncclConfig_t".
	Record string `json:"record"`
	// Fields are the members set to a value other than zero, in order.
	Fields  []InitField `json:"fields"`
	Library Library     `json:"library"`
	Pos     Pos         `json:"pos"`
}

// InitField is one member an Initializer sets.
type InitField struct {
	Name  string `json:"name"`
	Kind  Kind   `json:"kind"`  // Int or Float
	Value string `json:"value"` // as Macro.Value
}

// Macro is an object-like macro whose value evaluates to a constant.
type Macro struct {
	Name string `json:"name"`
	// Kind is Int, Float or Pointer (for casts like ((CUstream)0x1)).
	Kind   Kind   `json:"kind"`
	Value  string `json:"value"` // decimal for Int/Pointer, Go float literal for Float
	Signed bool   `json:"signed,omitempty"`
	// CType is the C type of the expression, e.g. "unsigned int", "CUstream".
	CType   string  `json:"ctype"`
	Doc     *Doc    `json:"doc,omitempty"`
	Library Library `json:"library"`
	Pos     Pos     `json:"pos"`
}
