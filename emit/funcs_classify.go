package emit

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

// This file decides how each C parameter crosses into Go (its role) and
// what the roles of a function ask of its package; it renders nothing.

// How one C parameter crosses into Go.
type paramRole int

const (
	roleValue        paramRole = iota // integer, enum, handle: f.Int
	roleFloat                         // float/double: f.Float32/64
	rolePointer                       // Go pointer or unsafe.Pointer: f.Int + KeepAlive
	roleString                        // const char *: Go string, NUL-terminated copy
	roleOptString                     // const char * the docs allow to be NULL: *string, nil is NULL
	roleStruct                        // struct by value: f.Struct
	roleOut                           // documented output: a result
	roleOutAligned                    // an output whose C alignment Go cannot give a variable (CUtensorMap, 64)
	roleOutString                     // const char ** output: a string result
	roleOutBuffer                     // char * + length output: a string result
	roleBufferLen                     // the length that goes with roleOutBuffer
	roleCallback                      // Go func through the handle table (one-shot or registered)
	roleCallbackSync                  // Go func held in a CallbackSlot during the call
	roleGlobalFunc                    // Go func in its typedef's package-wide slot until replaced
	roleUserData                      // the void * paired with roleCallback
	roleKernelArgs                    // void ** kernel argument pointers of a launch: []unsafe.Pointer
	roleLaunchExtra                   // void ** extra of a launch: the packed argument buffer []byte
	roleHostParams                    // a pointer to a host node's {fn, userData} struct: a Go func
	roleStrings                       // const char ** with a count: []string
	roleCount                         // the count of a roleStrings parameter: its length
)

// isResult reports whether the wrapper returns the parameter: an output.
func (r paramRole) isResult() bool {
	switch r {
	case roleOut, roleOutAligned, roleOutString, roleOutBuffer:
		return true
	}
	return false
}

// takesGoFunc reports whether the parameter is a Go func the wrapper hands
// C through a trampoline (a callback, or a host node's function).
func (r paramRole) takesGoFunc() bool {
	return r == roleCallback || r == roleCallbackSync || r == roleGlobalFunc || r == roleHostParams
}

// filled reports whether the wrapper passes the parameter itself (a
// callback's userData, a buffer's length): the caller does not give it.
func (r paramRole) filled() bool { return r == roleUserData || r == roleBufferLen || r == roleCount }

type param struct {
	c      ir.Param
	goName string
	role   paramRole
	goType jen.Code // Go parameter or result type
	cb     *callback
	life   cbLife // roleCallback, roleCallbackSync: how long the Go func is kept
	align  int64  // roleOutAligned, and a rolePointer to an over-aligned record: the C alignment
	host   *hostParams
	owner  *param // roleHostParams with lifeGraph: the graph parameter (nil: added as ownerGraph)
	// roleCount: the slice whose length it is; roleStrings: the slice
	// whose length already gives the shared count, if another does.
	countOf *param
	// hod is T of an ffi.HostOrDevice[T] parameter (devptr.go).
	hod jen.Code
}

// cbLife is how long a wrapper keeps the Go func of a callback parameter.
type cbLife int

const (
	lifeOnce       cbLife = iota // a one-shot handle, deleted by the callback's one call
	lifeStream                   // one-shot; while the stream is capturing, retained by the capture graph
	lifeRegistered               // kept until the unregister call
	lifeSync                     // held by the call's ffiimpl.CallbackScope, for the call only
	lifeGraph                    // retained by a graph (a user object), so by its execs and clones
	lifeExec                     // kept in the package registry until the exec is destroyed
	lifeGlobal                   // in the typedef's package-wide slot until the next call replaces it
)

// String is the lifetime as the audit file states it.
func (l cbLife) String() string {
	switch l {
	case lifeStream:
		return "one-shot; inside stream capture, graph-retained (a user object of the capture graph releases it when the graph and its last exec and clone are destroyed)"
	case lifeRegistered:
		return "registered"
	case lifeSync:
		return "synchronous (the call only; reentrant)"
	case lifeGraph:
		return "graph-retained (a user object of the graph releases it when the graph and its last exec and clone are destroyed)"
	case lifeExec:
		return "exec-retained (kept until the exec is destroyed through the package's GraphExecDestroy)"
	case lifeGlobal:
		return "process-wide (kept until the next call replaces it)"
	}
	return "one-shot"
}

// callback describes a C callback typedef turned into a Go func type.
type callback struct {
	typedef string // C typedef name, e.g. CUhostFn
	name    string // its Go name, e.g. HostFn
	goFunc  jen.Code
	sig     *ir.Signature
	user    int  // index of the userData parameter in sig; -1: none (a synchronous or global callback)
	global  bool // without userData, set process-wide: the trampoline reads the typedef's global slot
}

// errorType is the Go name of the library's status type (Desc.Status),
// declared by the package: the receiver of Error, Message and API, so a
// defined type (declName), never the alias of a versioned pair.
func (m *model) errorType() string { return m.declName(m.desc.Status) }

// isErrorResult reports a function result of the library's status type:
// the wrapper turns it into an error.
func (m *model) isErrorResult(t *ir.Type) bool {
	return t.Kind == ir.Named && t.Name == m.desc.Status
}

// isStatusRecord reports a function result of the struct the library
// returns its status in (Desc.StatusRecord: cuFile's CUfileError_t): the
// wrapper turns it into an error through the package's statusError.
func (m *model) isStatusRecord(t *ir.Type) bool {
	sr := m.desc.StatusRecord
	return sr != nil && t.Kind == ir.Named && t.Name == sr.Type && m.record(t) != nil
}

// classify decides each parameter's role: the pure step of binding f.
// It reads f, the library's overrides and what newModel fixed (types,
// names, the graph API) and changes none of them; what follows from the
// roles is derived from its result afterwards: the audit lines
// (paramAudit, funcAudit), the package glue (glueOf), the wrapper.
func (m *model) classify(f *ir.Function) ([]*param, error) {
	if err := m.checkResult(f); err != nil {
		return nil, err
	}
	ps := make([]*param, len(f.Params))
	names := make([]string, len(f.Params))
	for i, p := range f.Params {
		names[i] = p.Name
	}
	for i, n := range goParamNames(names) {
		ps[i] = &param{c: f.Params[i], goName: n}
	}
	ov := m.callbackOverridesOf(f)
	m.classifyStringArrays(ps)
	// In order: a parameter may decide the role of its neighbour (a
	// buffer's length, a callback's userData), which is then left as is.
	for i, p := range ps {
		if p.role.filled() || p.role == roleStrings {
			continue
		}
		if m.classifyMemory(f, p) { // devptr.go
			continue
		}
		if err := m.classifyParam(f, ps, i, ov); err != nil {
			return nil, err
		}
	}
	if m.desc.File != "" {
		if err := m.callbackOverridesApply(f, ps, ov); err != nil {
			return nil, err
		}
	}
	return ps, nil
}

// checkResult refuses a result the wrapper cannot return. A result is the
// status, void, an integer, a float, a struct by value, a handle, a C
// string or a const struct pointer (a copy); a wrapper cannot turn
// another pointer (or an array or a function pointer) into a Go value.
func (m *model) checkResult(f *ir.Function) error {
	switch r := m.resolve(f.Result); r.Kind {
	case ir.Pointer:
		if !m.isHandleType(r) && (r.Elem == nil || r.Elem.Kind != ir.Int || r.Elem.Size != 1) && !m.isConstRecordPtr(r) && !m.isPointerResult(f, r) {
			return fmt.Errorf("%s:%d: %s: result has C type %s that cugen cannot return", f.Pos.File, f.Pos.Line, f.Name, f.Result.C)
		}
	case ir.Array, ir.FuncPtr, ir.Variadic:
		return fmt.Errorf("%s:%d: %s: result has C type %s that cugen cannot return", f.Pos.File, f.Pos.Line, f.Name, f.Result.C)
	}
	return nil
}

// callbackOverrides is which of the library's callback overrides name a
// function: how long the Go func of its callback parameter is kept.
type callbackOverrides struct {
	oneShot, registered, synchronous, global bool
}

// callbackOverridesOf reads which callback overrides name f.
func (m *model) callbackOverridesOf(f *ir.Function) callbackOverrides {
	var ov callbackOverrides
	_, ov.oneShot = m.desc.Overrides.OneShotCallbacks[f.Name]
	_, ov.registered = m.desc.Overrides.RegisteredCallbacks[f.Name]
	_, ov.synchronous = m.desc.Overrides.SynchronousCallbacks[f.Name]
	_, ov.global = m.desc.Overrides.GlobalCallbacks[f.Name]
	return ov
}

// classifyStringArrays makes a string array with a count
// (nvrtcCompileProgram's numOptions and options) a []string, and its
// count its length. Two arrays with one count (headers, includeNames) must
// have equal lengths: the second refers to the first's count.
func (m *model) classifyStringArrays(ps []*param) {
	for _, p := range ps {
		if !m.isStringArray(p.c) {
			continue
		}
		for _, q := range ps {
			if q.c.Name != p.c.Array.Param || m.resolve(q.c.Type).Kind != ir.Int {
				continue
			}
			if q.countOf == nil {
				q.role, q.countOf = roleCount, p
			} else {
				p.countOf = q.countOf
			}
			p.role, p.goType = roleStrings, jen.Index().String()
		}
	}
}

// classifyParam gives ps[i] its role and Go type; a char * output buffer
// gives the length after it its role too, a callback its userData.
func (m *model) classifyParam(f *ir.Function, ps []*param, i int, ov callbackOverrides) error {
	p := ps[i]
	t := p.c.Type
	rt := m.resolve(t)
	switch {
	case m.isVoidPtrPtr(t) && m.takesKernel(f) && p.c.Name == "extra":
		p.role = roleLaunchExtra
		p.goType = jen.Index().Byte()
	case m.isVoidPtrPtr(t) && m.takesKernel(f):
		p.role = roleKernelArgs
		p.goType = jen.Index().Qual("unsafe", "Pointer")
	case m.isVoidPtrPtr(t) && isOptionValues(p.c.Name):
		// An integer option's value sits in a void * slot (CUDA casts
		// it); as unsafe.Pointer it would be a pointer the runtime
		// rejects ("invalid pointer found on stack") and go vet flags.
		p.role = rolePointer
		p.goType = jen.Op("*").Uintptr()
	case m.isKernelPointer(f.Name, p.c.Name, t):
		p.role = roleValue
		p.goType = jen.Id(m.typeName(kernelTypedef))
	case t.Kind == ir.Pointer && t.Elem != nil && t.Elem.Kind == ir.Int && t.Elem.Size == 1 && !t.Elem.Const &&
		i+1 < len(ps) && isLengthParam(ps[i+1].c):
		p.role = roleOutBuffer
		p.goType = jen.String()
		ps[i+1].role = roleBufferLen
	case p.c.Direction == ir.Out:
		return m.classifyOut(f, p)
	case t.Kind == ir.Pointer && t.Elem != nil && t.Elem.Kind == ir.Int && t.Elem.Size == 1 && t.Elem.Const:
		p.role = roleString
		p.goType = jen.String()
		if nullableString(p.c.Doc) {
			p.role = roleOptString
			p.goType = jen.Op("*").String()
		}
	case rt.Kind == ir.FuncPtr:
		m.classifyFuncPtr(f, ps, i, ov)
	case m.hostParamsOf(t) != nil && p.c.Direction != ir.Out:
		m.classifyHostParams(f, ps, p)
	case rt.Kind == ir.Float:
		p.role = roleFloat
		p.goType = m.goType(t)
	case rt.Kind == ir.Int || m.enum(t) != nil:
		p.role = roleValue
		p.goType = m.goType(t)
	case rt.Kind == ir.Pointer:
		m.classifyPointer(p)
	case m.record(t) != nil:
		p.role = roleStruct
		p.goType = m.goType(t)
	default:
		return fmt.Errorf("%s:%d: %s: parameter %s has C type %s that cugen cannot pass", f.Pos.File, f.Pos.Line, f.Name, p.c.Name, t.C)
	}
	return nil
}

// classifyOut gives the documented output p its role: a string, a Go
// array of a fixed length, or one value, copied through an aligned buffer
// where Go cannot align it as C does.
func (m *model) classifyOut(f *ir.Function, p *param) error {
	elem := p.c.Type.Elem
	re := m.resolve(elem)
	if re.Kind == ir.Pointer && re.Elem != nil && re.Elem.Kind == ir.Int && re.Elem.Size == 1 {
		p.role = roleOutString
		p.goType = jen.String()
	} else if a := p.c.Array; a != nil && a.Len > 0 {
		// A fixed number of elements: a Go array result C fills
		// completely (the 8 bytes of a LUID), never one element.
		p.role = roleOut
		p.goType = jen.Index(jen.Lit(int(a.Len))).Add(m.goType(elem))
	} else if a != nil {
		return fmt.Errorf("%s:%d: %s: output parameter %s is an array of unfixed size (%s): it cannot be a result", f.Pos.File, f.Pos.Line, f.Name, p.c.Name, a.Source)
	} else {
		p.role = roleOut
		p.goType = m.goType(elem)
		if r := m.record(elem); r != nil && r.Align > m.recordGoAlign(r) {
			p.role = roleOutAligned
			p.align = r.Align
		}
	}
	return nil
}

// classifyFuncPtr gives the function pointer ps[i] its role: a Go func
// where an override says how long to keep it and its typedef allows it
// (with userData, or without for a synchronous or global one), else the
// raw C function pointer.
func (m *model) classifyFuncPtr(f *ir.Function, ps []*param, i int, ov callbackOverrides) {
	p := ps[i]
	cb := m.callbackOf(p.c.Type)
	switch {
	case (ov.oneShot || ov.registered) && cb != nil && cb.user >= 0 && m.userDataParam(ps, i) >= 0:
		p.role = roleCallback
		p.cb = cb
		p.goType = cb.goFunc
		ps[m.userDataParam(ps, i)].role = roleUserData
		p.life = lifeOnce
		switch {
		case ov.registered:
			p.life = lifeRegistered
		case m.streamParam(ps) != nil && m.isErrorResult(f.Result):
			p.life = lifeStream
		}
	case ov.synchronous && cb != nil && cb.user < 0:
		p.role = roleCallbackSync
		p.cb = cb
		p.goType = cb.goFunc
		p.life = lifeSync
	case ov.global && cb != nil && cb.user < 0:
		p.role = roleGlobalFunc
		p.cb = cb
		p.goType = cb.goFunc
		p.life = lifeGlobal
	default:
		p.role = roleValue
		p.goType = m.goType(p.c.Type)
	}
}

// classifyHostParams makes a host node's {fn, userData} struct p a Go func
// where a graph or an exec can own it (hostNodeOwner), else a pointer.
func (m *model) classifyHostParams(f *ir.Function, ps []*param, p *param) {
	hp := m.hostParamsOf(p.c.Type)
	life, owner, ok := m.hostNodeOwner(f, ps)
	if !ok {
		p.role = rolePointer
		p.goType = m.goType(p.c.Type)
		return
	}
	p.role, p.host, p.cb, p.life, p.owner = roleHostParams, hp, hp.cb, life, owner
	p.goType = hp.cb.goFunc
	p.goName = "fn"
}

// classifyPointer gives a pointer parameter p its role: a handle typedef
// is a value, anything else a pointer, aligned for the call where the
// library says Go's placement of the value can fault.
func (m *model) classifyPointer(p *param) {
	t := p.c.Type
	rt := m.resolve(t)
	if t.Kind == ir.Named && m.isHandleType(rt) {
		// A handle typedef (CUstream): a named uintptr type.
		p.role = roleValue
	} else {
		p.role = rolePointer
		if r := m.record(rt.Elem); r != nil && r.Align > m.recordGoAlign(r) && m.desc.Overrides.AlignedValues[p.c.Name] != "" {
			// cuDoubleComplex *alpha: Go may place the value
			// where C's aligned loads fault (ffiimpl.AlignedIn).
			p.align = r.Align
		}
	}
	p.goType = m.goType(t)
}

// overrideError is an override of a description file that cannot apply:
// Generate reports it as it is, naming the file first.
type overrideError struct{ msg string }

func (e *overrideError) Error() string { return e.msg }

// checkFileOverrides classifies the functions of a description file's
// library before anything is rendered, to report an override that cannot
// apply (callbackOverridesApply) as the file's error; the rest of what
// classify finds is genFuncs' to report.
func (m *model) checkFileOverrides() error {
	if m.desc.File == "" {
		return nil
	}
	for _, fn := range m.funcs {
		var oe *overrideError
		if _, err := m.classify(fn); errors.As(err, &oe) {
			return err
		}
	}
	return nil
}

// callbackOverridesApply holds the callback overrides of a description
// file (library.Desc.File) that name f to what classify made of them: each
// must have given a parameter its role, or the package would be the one
// generated without it. cugen's own tables are not held to it: they serve
// header sets where a function differs.
func (m *model) callbackOverridesApply(f *ir.Function, ps []*param, ov callbackOverrides) error {
	has := func(r paramRole) bool {
		return slices.ContainsFunc(ps, func(p *param) bool { return p.role == r })
	}
	bad := func(field, why string) error {
		return &overrideError{fmt.Sprintf("%s: field overrides.%s: %s: cannot apply: %s", m.desc.File, field, f.Name, why)}
	}
	const withUser = "no parameter is a C function pointer whose type takes a void * userData, followed by the void * userData parameter C passes back to it"
	const withoutUser = "no parameter is a C function pointer whose type takes no userData"
	switch {
	case ov.oneShot && !has(roleCallback):
		return bad("oneShotCallbacks", withUser)
	case ov.registered && !has(roleCallback):
		return bad("registeredCallbacks", withUser)
	case ov.synchronous && !has(roleCallbackSync):
		return bad("synchronousCallbacks", withoutUser)
	case ov.global && !has(roleGlobalFunc):
		return bad("globalCallbacks", withoutUser)
	}
	return nil
}

// userDataParam is the index of the void * parameter that carries the
// userData of the callback parameter at i: the one right after it
// (cuLaunchHostFunc), else the one right before it (cuUserObjectCreate); -1
// if neither.
func (m *model) userDataParam(ps []*param, i int) int {
	if i+1 < len(ps) && m.isVoidPtr(ps[i+1].c.Type) {
		return i + 1
	}
	if i > 0 && m.isVoidPtr(ps[i-1].c.Type) && ps[i-1].c.Direction != ir.Out {
		return i - 1
	}
	return -1
}

func isLengthParam(p ir.Param) bool {
	n := strings.ToLower(p.Name)
	return p.Type.Kind != ir.Pointer && (n == "len" || n == "length" || n == "buflen" || n == "size")
}

// isVoidPtrPtr reports whether t is void ** (through typedefs).
func (m *model) isVoidPtrPtr(t *ir.Type) bool {
	r := m.resolve(t)
	return r.Kind == ir.Pointer && r.Elem != nil && m.isVoidPtr(r.Elem)
}

// isOptionValues reports whether a void ** parameter is the values array
// of a key/value option list (cuModuleLoadDataEx's optionValues,
// cuLibraryLoadData's jitOptionsValues and libraryOptionValues): words that
// are integers for most options.
func isOptionValues(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, "optionvalues") || strings.HasSuffix(n, "optionsvalues")
}

// logOf is the Go function that reads the log explaining a failure of fn
// (Desc.Logs: nvrtcCompileProgram's is nvrtcGetProgramLog), "" if none.
func (m *model) logOf(fn *ir.Function) string {
	for _, l := range m.desc.Logs {
		if l.Func == fn.Name {
			return m.goFunc(l.Log)
		}
	}
	return ""
}

// isStringArray reports an input `const char **` (or `const char *const *`)
// whose element count another parameter holds.
func (m *model) isStringArray(p ir.Param) bool {
	t := m.resolve(p.Type)
	if p.Direction != ir.In || t.Kind != ir.Pointer || t.Elem == nil || p.Array == nil || p.Array.Param == "" {
		return false
	}
	e := m.resolve(t.Elem)
	return e.Kind == ir.Pointer && e.Elem != nil && e.Elem.Const && m.resolve(e.Elem).Kind == ir.Int && e.Elem.Size == 1
}

// kernelTypedef is the runtime's kernel handle type.
const kernelTypedef = "cudaKernel_t"

// isKernelPointer reports whether the runtime `void *` parameter or member
// name of owner (a function or struct C name) takes a kernel: every one
// named func (the header's "Device function symbol", which may be a
// cudaKernel_t), and the audited kernelPointers. It is typed as Kernel.
func (m *model) isKernelPointer(owner, name string, t *ir.Type) bool {
	if m.lib != ir.Runtime || t.Kind != ir.Pointer || !m.isVoidPtr(t) || m.typeName(kernelTypedef) == "" {
		return false
	}
	_, listed := m.desc.Overrides.KernelPointers[owner+"."+name]
	return name == "func" || listed
}

// takesKernel reports whether f launches or describes a kernel: it has a
// CUfunction parameter or a runtime kernel pointer (isKernelPointer). Its
// void ** parameters are the kernel's argument arrays.
func (m *model) takesKernel(f *ir.Function) bool {
	for _, p := range f.Params {
		if p.Type.Kind == ir.Named && p.Type.Name == "CUfunction" || m.isKernelPointer(f.Name, p.Name, p.Type) {
			return true
		}
	}
	return false
}

func (m *model) isVoidPtr(t *ir.Type) bool {
	r := m.resolve(t)
	return r.Kind == ir.Pointer && r.Elem != nil && r.Elem.Kind == ir.Void
}

// callbackOf describes the callback typedef t names (nil for a bare
// function pointer type).
func (m *model) callbackOf(t *ir.Type) *callback {
	if t.Kind != ir.Named {
		return nil
	}
	rt := m.resolve(t)
	if rt.Func == nil {
		return nil
	}
	cb := &callback{typedef: t.Name, name: m.goName(t.Name), sig: rt.Func, user: -1}
	// userData is the void * parameter named so, or the only void * one
	// (cudaAsyncCallback leaves its parameters unnamed).
	voids := 0
	for i, p := range rt.Func.Params {
		if m.isVoidPtr(p.Type) {
			voids++
			if cb.user < 0 && strings.Contains(strings.ToLower(p.Name), "data") {
				cb.user = i
			}
		}
	}
	if cb.user < 0 && voids == 1 {
		for i, p := range rt.Func.Params {
			if m.isVoidPtr(p.Type) {
				cb.user = i
			}
		}
	}
	var cnames []string
	for _, p := range rt.Func.Params {
		cnames = append(cnames, p.Name)
	}
	names := goParamNames(cnames)
	var fs []field
	for i, p := range rt.Func.Params {
		if i == cb.user {
			continue
		}
		fs = append(fs, field{names[i], m.goType(p.Type)})
	}
	params := fieldList(fs)
	cb.goFunc = jen.Func().Params(params...)
	if rt.Func.Result.Kind != ir.Void {
		cb.goFunc = jen.Func().Params(params...).Add(m.goType(rt.Func.Result))
	}
	return cb
}

// glue is the package-level code the wrappers need: captureGraph and
// retainHandle (graph: a Go func a graph retains), callbackRegistry
// (registry: a Go func kept until an unregister or exec destroy call).
type glue struct{ graph, registry bool }

func (g *glue) add(h glue) {
	g.graph = g.graph || h.graph
	g.registry = g.registry || h.registry
}

// glueOf is the glue the roles ps need: a stream-ordered callback that
// capture may retain, a host node's Go func owned by a graph (graph) or
// by an exec (registry). A registered callback's handle and an exec
// destroy's release add registry too (registryStmts).
func glueOf(ps []*param) glue {
	var g glue
	for _, p := range ps {
		switch {
		case p.role == roleCallback && p.life == lifeStream, p.role == roleHostParams && p.life == lifeGraph:
			g.graph = true
		case p.role == roleHostParams:
			g.registry = true
		}
	}
	return g
}

// hasHandle reports whether the wrapper makes an ffiimpl.Handle (a callback
// with userData), which a failed call must delete.
func hasHandle(ps []*param) bool {
	for _, p := range ps {
		if p.role == roleCallback || p.role == roleHostParams {
			return true
		}
	}
	return false
}

// addsOwnerGraph reports whether the wrapper takes an ownerGraph parameter
// the C function lacks (see hostNodeOwner).
func addsOwnerGraph(ps []*param) bool {
	for _, p := range ps {
		if p.role == roleHostParams && p.life == lifeGraph && p.owner == nil {
			return true
		}
	}
	return false
}

// globalFuncs names the wrapper's process-wide Go func parameters, "" if
// none.
func globalFuncs(ps []*param) string {
	var names []string
	for _, p := range ps {
		if p.role == roleGlobalFunc {
			names = append(names, p.goName)
		}
	}
	return strings.Join(names, " and ")
}

// hasLife reports whether the wrapper has a callback kept for life l.
func hasLife(ps []*param, l cbLife) bool {
	for _, p := range ps {
		if (p.role == roleCallback || p.role == roleCallbackSync) && p.life == l {
			return true
		}
	}
	return false
}

// streamParam is the wrapper's stream parameter (CUstream, cudaStream_t),
// or nil.
func (m *model) streamParam(ps []*param) *param {
	if m.graph == nil {
		return nil
	}
	for _, p := range ps {
		if p.c.Type.Kind == ir.Named && p.c.Type.Name == m.graph.api.Stream && p.role == roleValue {
			return p
		}
	}
	return nil
}

// hasCallback reports whether the wrapper passes a Go callback to C.
func hasCallback(ps []*param) bool {
	for _, p := range ps {
		if p.role.takesGoFunc() {
			return true
		}
	}
	return false
}

// isConstRecordPtr reports a pointer to a const struct or union, a result
// the library keeps (nppGetLibVersion's static NppLibraryVersion): the
// wrapper returns a Go copy of it (nil for NULL), never C memory.
func (m *model) isConstRecordPtr(r *ir.Type) bool {
	return r.Kind == ir.Pointer && r.Elem != nil && r.Elem.Const && m.record(r.Elem) != nil
}

// isPointerResult reports a non-const pointer result the library listed
// in Overrides.PointerResults (NPP's allocators): returned as the device
// pointer it is (ffi.DevicePtr), never read.
func (m *model) isPointerResult(f *ir.Function, r *ir.Type) bool {
	return r.Kind == ir.Pointer && r.Elem != nil && !r.Elem.Const && r.Elem.Kind != ir.Void && m.desc.Overrides.PointerResult(f.Name)
}
