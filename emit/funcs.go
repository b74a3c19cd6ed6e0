package emit

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/cugen/cugen/parser/ir"
	"github.com/dave/jennifer/jen"
)

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

func (m *model) procName(f *ir.Function) string { return "proc" + m.funcNames[f] }

// classify decides each parameter's role: the pure step of binding f.
// It reads f, the library's overrides and what newModel fixed (types,
// names, the graph API) and changes none of them; what follows from the
// roles is derived from its result afterwards: the audit lines
// (paramAudit, funcAudit), the package glue (glueOf), the wrapper.
func (m *model) classify(f *ir.Function) ([]*param, error) {
	// A result is the status, void, an integer, a float, a struct by value,
	// a handle, a C string or a const struct pointer (a copy); a wrapper
	// cannot turn another pointer (or an array or a function pointer) into
	// a Go value.
	switch r := m.resolve(f.Result); r.Kind {
	case ir.Pointer:
		if !m.isHandleType(r) && (r.Elem == nil || r.Elem.Kind != ir.Int || r.Elem.Size != 1) && !m.isConstRecordPtr(r) && !m.isPointerResult(f, r) {
			return nil, fmt.Errorf("%s:%d: %s: result has C type %s that cugen cannot return", f.Pos.File, f.Pos.Line, f.Name, f.Result.C)
		}
	case ir.Array, ir.FuncPtr, ir.Variadic:
		return nil, fmt.Errorf("%s:%d: %s: result has C type %s that cugen cannot return", f.Pos.File, f.Pos.Line, f.Name, f.Result.C)
	}
	ps := make([]*param, len(f.Params))
	names := make([]string, len(f.Params))
	for i, p := range f.Params {
		names[i] = p.Name
	}
	for i, n := range goParamNames(names) {
		ps[i] = &param{c: f.Params[i], goName: n}
	}
	_, oneShot := m.desc.Overrides.OneShotCallbacks[f.Name]
	_, registered := m.desc.Overrides.RegisteredCallbacks[f.Name]
	_, synchronous := m.desc.Overrides.SynchronousCallbacks[f.Name]
	_, global := m.desc.Overrides.GlobalCallbacks[f.Name]
	// A string array with a count (nvrtcCompileProgram's numOptions and
	// options) is a []string; its count is its length. Two arrays with one
	// count (headers, includeNames) must have equal lengths.
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
	for i, p := range ps {
		t := p.c.Type
		rt := m.resolve(t)
		switch {
		case p.role.filled() || p.role == roleStrings:
			continue
		case m.classifyMemory(f, p): // devptr.go
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
			elem := t.Elem
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
				return nil, fmt.Errorf("%s:%d: %s: output parameter %s is an array of unfixed size (%s): it cannot be a result", f.Pos.File, f.Pos.Line, f.Name, p.c.Name, a.Source)
			} else {
				p.role = roleOut
				p.goType = m.goType(elem)
				if r := m.record(elem); r != nil && r.Align > m.recordGoAlign(r) {
					p.role = roleOutAligned
					p.align = r.Align
				}
			}
		case t.Kind == ir.Pointer && t.Elem != nil && t.Elem.Kind == ir.Int && t.Elem.Size == 1 && t.Elem.Const:
			p.role = roleString
			p.goType = jen.String()
			if nullableString(p.c.Doc) {
				p.role = roleOptString
				p.goType = jen.Op("*").String()
			}
		case rt.Kind == ir.FuncPtr:
			cb := m.callbackOf(t)
			switch {
			case (oneShot || registered) && cb != nil && cb.user >= 0 && m.userDataParam(ps, i) >= 0:
				p.role = roleCallback
				p.cb = cb
				p.goType = cb.goFunc
				ps[m.userDataParam(ps, i)].role = roleUserData
				p.life = lifeOnce
				switch {
				case registered:
					p.life = lifeRegistered
				case m.streamParam(ps) != nil && m.isErrorResult(f.Result):
					p.life = lifeStream
				}
			case synchronous && cb != nil && cb.user < 0:
				p.role = roleCallbackSync
				p.cb = cb
				p.goType = cb.goFunc
				p.life = lifeSync
			case global && cb != nil && cb.user < 0:
				p.role = roleGlobalFunc
				p.cb = cb
				p.goType = cb.goFunc
				p.life = lifeGlobal
			default:
				p.role = roleValue
				p.goType = m.goType(t)
			}
		case m.hostParamsOf(t) != nil && p.c.Direction != ir.Out:
			hp := m.hostParamsOf(t)
			life, owner, ok := m.hostNodeOwner(f, ps)
			if !ok {
				p.role = rolePointer
				p.goType = m.goType(t)
				break
			}
			p.role, p.host, p.cb, p.life, p.owner = roleHostParams, hp, hp.cb, life, owner
			p.goType = hp.cb.goFunc
			p.goName = "fn"
		case rt.Kind == ir.Float:
			p.role = roleFloat
			p.goType = m.goType(t)
		case rt.Kind == ir.Int || m.enum(t) != nil:
			p.role = roleValue
			p.goType = m.goType(t)
		case rt.Kind == ir.Pointer:
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
		case m.record(t) != nil:
			p.role = roleStruct
			p.goType = m.goType(t)
		default:
			return nil, fmt.Errorf("%s:%d: %s: parameter %s has C type %s that cugen cannot pass", f.Pos.File, f.Pos.Line, f.Name, p.c.Name, t.C)
		}
	}
	if m.desc.File != "" {
		if err := m.callbackOverridesApply(f, ps, oneShot, registered, synchronous, global); err != nil {
			return nil, err
		}
	}
	return ps, nil
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
func (m *model) callbackOverridesApply(f *ir.Function, ps []*param, oneShot, registered, synchronous, global bool) error {
	has := func(r paramRole) bool {
		return slices.ContainsFunc(ps, func(p *param) bool { return p.role == r })
	}
	bad := func(field, why string) error {
		return &overrideError{fmt.Sprintf("%s: field overrides.%s: %s: cannot apply: %s", m.desc.File, field, f.Name, why)}
	}
	const withUser = "no parameter is a C function pointer whose type takes a void * userData, followed by the void * userData parameter C passes back to it"
	const withoutUser = "no parameter is a C function pointer whose type takes no userData"
	switch {
	case oneShot && !has(roleCallback):
		return bad("oneShotCallbacks", withUser)
	case registered && !has(roleCallback):
		return bad("registeredCallbacks", withUser)
	case synchronous && !has(roleCallbackSync):
		return bad("synchronousCallbacks", withoutUser)
	case global && !has(roleGlobalFunc):
		return bad("globalCallbacks", withoutUser)
	}
	return nil
}

// funcAudit is the audit file's lines for the wrapper of fn: its
// parameters' (paramAudit), then what the library description adds (a
// lead from the summary table, an unexported symbol, a failure log), and
// the one-call buffer bp or, for a plain wrapper, its alias macros.
func (m *model) funcAudit(fn *ir.Function, ps []*param, bp *bufferPair) []string {
	out := m.paramAudit(fn, ps)
	name := m.funcNames[fn]
	if _, led := leadDoc(name, fn); !led {
		if family, _, summed := m.desc.Summaries.Family(m.desc.Prefixes, fn.Name); summed {
			out = append(out, fmt.Sprintf("summary %s: %s is of family %s, its lead from %s", name, fn.Name, family, m.desc.Summaries.Source))
		}
	}
	if why, ok := m.desc.Unexported[fn.Symbol]; ok {
		out = append(out, fmt.Sprintf("unexported %s: %s", fn.Symbol, why))
	}
	out = append(out, m.nonNullAudit(fn, ps)...)
	out = append(out, m.memoryAudit(fn, ps)...)
	if l := m.logOf(fn); l != "" {
		out = append(out, fmt.Sprintf("log %s: a failed call's *ffi.CallError carries the log of %s", fn.Name, l))
	}
	if m.isStatusRecord(fn.Result) {
		sr := m.desc.StatusRecord
		out = append(out, fmt.Sprintf("status %s: the %s result is an error, nil when %s is zero (StatusRecord: %s)", fn.Name, sr.Type, sr.Field, sr.Why))
	}
	if bp != nil {
		out = append(out, fmt.Sprintf("buffer %s.%s: one call with %s, which gives the count: the result is %s", fn.Name, fn.Params[len(fn.Params)-1].Name, bp.size.Name, strings.TrimPrefix(bp.kind(), "the ")))
		return out
	}
	for _, a := range fn.Aliases {
		out = append(out, fmt.Sprintf("name %s: alias macro of %s, a Go function calling %s", a, fn.Name, name))
	}
	return out
}

// paramAudit is the audit file's lines for f's parameters, rendered from
// the roles classify gave them (ps): outputs, strings, launch arrays,
// option values, kernels, callbacks and their lifetimes, arrays.
func (m *model) paramAudit(f *ir.Function, ps []*param) []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	for _, p := range ps {
		if p.c.Array != nil {
			add("array %s.%s: %s", f.Name, p.c.Name, arrayAudit(p.c))
		}
	}
	for i, p := range ps {
		t := p.c.Type
		switch p.role {
		case roleStrings:
			add("strings %s.%s: []string, NUL-terminated copies for the call; %s is its length", f.Name, p.c.Name, p.c.Array.Param)
		case roleOptString:
			add("nullable %s.%s: *string, nil passes NULL (%q): %s", f.Name, p.c.Name, nullableReason(p.c.Doc), strings.Join(strings.Fields(p.c.Doc), " "))
		case roleLaunchExtra:
			add("launch %s.%s: the packed argument buffer []byte (nil: NULL); the wrapper passes {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END} from uintptr words (ffiimpl.Extra)", f.Name, p.c.Name)
		case roleKernelArgs:
			add("launch %s.%s: the kernel's argument pointers []unsafe.Pointer, one per kernel parameter (nil: NULL)", f.Name, p.c.Name)
		case roleOutBuffer:
			add("out %s.%s: string result from a %d-byte buffer (length %s)", f.Name, p.c.Name, stringBufferLen, ps[i+1].c.Name)
		case roleOut, roleOutString, roleOutAligned:
			if p.role == roleOutAligned {
				add("layout %s.%s: written to a %d-byte aligned buffer, then copied to the result (Go aligns variables to at most 8)", f.Name, p.c.Name, p.align)
			}
			add("out %s.%s: result (%s)", f.Name, p.c.Name, p.c.Why)
		case roleCallback:
			why := m.desc.Overrides.OneShotCallbacks[f.Name]
			if p.life == lifeRegistered {
				why = "registered until " + m.desc.Overrides.RegisteredCallbacks[f.Name] + ", which releases its handle"
				if m.desc.Overrides.RegisteredCallbacks[f.Name] == "" {
					// A logger set until the next call (a description
					// file's library): nothing says when C is done.
					why = "registered with no unregister function: the Go func is kept for the rest of the process"
				}
			}
			add("callback %s.%s: Go func through one static trampoline and ffiimpl's handle table (%s); nil: NULL, no handle; lifetime: %s", f.Name, p.c.Name, why, p.life)
		case roleCallbackSync:
			add("callback %s.%s: Go func held by the call's ffiimpl.CallbackScope (%s); nil: NULL; lifetime: %s", f.Name, p.c.Name, m.desc.Overrides.SynchronousCallbacks[f.Name], p.life)
		case roleGlobalFunc:
			add("callback %s.%s: Go func in %s, read by one static trampoline from any thread (%s); nil: NULL; lifetime: %s", f.Name, p.c.Name, globalName(p.cb), m.desc.Overrides.GlobalCallbacks[f.Name], p.life)
		case roleHostParams:
			who := "the graph parameter"
			switch {
			case p.life == lifeExec:
				who = "the exec parameter"
			case p.owner == nil:
				who = "ownerGraph, a parameter the wrapper adds: the graph the node belongs to"
			}
			add("callback %s.%s: a Go func fn instead of the struct's %s and %s, through one static trampoline and ffiimpl's handle table, owned by %s; nil: NULL %s, no handle; lifetime: %s", f.Name, p.c.Name, p.host.fnName, p.host.udName, who, p.host.fnName, p.life)
		case roleValue, rolePointer:
			// The plain roles: which of classify's cases gave it.
			rt := m.resolve(t)
			switch {
			case p.role == rolePointer && m.isVoidPtrPtr(t) && isOptionValues(p.c.Name):
				add("options %s.%s: the option values as uintptr words (an integer value as is; a pointer to memory the caller keeps alive for the call)", f.Name, p.c.Name)
			case p.role == roleValue && m.isKernelPointer(f.Name, p.c.Name, t):
				add("kernel %s.%s: %s (a cudaKernel_t, or the address of a kernel's host entry function), not unsafe.Pointer", f.Name, p.c.Name, m.typeName(kernelTypedef))
			case rt.Kind == ir.FuncPtr:
				add("callback %s.%s: C function pointer parameter (not a one-shot callback; make one with ffiimpl.Callback); nil: 0 is NULL; lifetime: the caller's", f.Name, p.c.Name)
			case p.role == rolePointer && m.hostParamsOf(t) != nil && p.c.Direction != ir.Out:
				add("callback %s.%s: host node struct with a raw C function pointer (no graph or exec parameter to own a Go func)", f.Name, p.c.Name)
			case rt.Kind == ir.Pointer:
				if p.align > 0 {
					add("layout %s.%s: a misaligned host value is copied to a %d-byte aligned buffer for the call, and back after it unless const (Go aligns variables to at most 8; ffiimpl.AlignedIn): %s", f.Name, p.c.Name, p.align, m.desc.Overrides.AlignedValues[p.c.Name])
				}
				if p.c.Direction == ir.InOut {
					add("inout %s.%s: pointer parameter (%s)", f.Name, p.c.Name, p.c.Why)
				}
				if t.Elem != nil && p.c.Direction != ir.Out {
					if line := m.nodeHostAudit(f, p.c); line != "" {
						out = append(out, line)
					} else if path := m.callbackField(t.Elem, 0); path != "" {
						add("callback %s.%s: the struct's %s stays a raw C function pointer, not a Go func (for a host node, the host node wrappers take a Go func); nil: 0 is NULL; lifetime: the caller's", f.Name, p.c.Name, path)
					}
				}
			}
		}
	}
	return out
}

// arrayAudit says how many elements an array parameter has and where
// the number comes from, for the audit file.
func arrayAudit(p ir.Param) string {
	a := p.Array
	switch {
	case a.Len > 0 && p.Direction == ir.Out:
		return fmt.Sprintf("%d elements, a [%d] array result (%s)", a.Len, a.Len, a.Source)
	case a.Len > 0:
		return fmt.Sprintf("%d elements, a pointer to the first (%s)", a.Len, a.Source)
	case a.Param != "":
		return fmt.Sprintf("%s elements, a pointer to the first (%s)", a.Param, a.Source)
	}
	return "a pointer to the first element; size: " + a.Source
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

func (m *model) genFuncs(f *jen.File) error {
	pairs := m.findBufferPairs()
	layouts := map[string]bool{}
	var layoutOrder []*ir.Type
	callbacks := map[string]*callback{}
	cbKind := map[string]string{} // typedef -> the first function passing it
	var cbOrder []string
	var needs glue
	for _, fn := range m.funcs {
		ps, err := m.classify(fn)
		if err != nil {
			return err
		}
		needs.add(glueOf(ps))
		for _, p := range ps {
			if p.role == roleStruct {
				if !layouts[p.c.Type.Name] {
					layouts[p.c.Type.Name] = true
					layoutOrder = append(layoutOrder, p.c.Type)
				}
			}
			if p.role.takesGoFunc() && callbacks[p.cb.typedef] == nil {
				callbacks[p.cb.typedef] = p.cb
				cbOrder = append(cbOrder, p.cb.typedef)
			}
			if p.role.takesGoFunc() {
				// one trampoline per typedef: a global slot or not, for all
				if g := p.role == roleGlobalFunc; cbKind[p.cb.typedef] == "" {
					cbKind[p.cb.typedef] = fn.Name
					callbacks[p.cb.typedef].global = g
				} else if g != callbacks[p.cb.typedef].global {
					return fmt.Errorf("%s:%d: %s: callback %s is set process-wide by one function and passed per call by the other of %s and %s: its one trampoline cannot serve both",
						fn.Pos.File, fn.Pos.Line, fn.Name, p.cb.typedef, cbKind[p.cb.typedef], fn.Name)
				}
			}
		}
		if m.record(fn.Result) != nil && !layouts[fn.Result.Name] {
			layouts[fn.Result.Name] = true
			layoutOrder = append(layoutOrder, fn.Result)
		}
		m.audit = append(m.audit, m.funcAudit(fn, ps, pairs[fn])...)
		if bp := pairs[fn]; bp != nil {
			m.genBufferFunc(f, fn, ps, bp)
			continue
		}
		if m.registryStmts(fn, ps) != nil {
			needs.registry = true
		}
		m.genFunc(f, fn, ps)
	}
	cbOrder, hosts := m.genNodeHosts(f, callbacks, cbOrder)
	needs.add(hosts)
	for _, t := range layoutOrder {
		m.genLayout(f, t)
	}
	for _, name := range cbOrder {
		m.genTrampoline(f, callbacks[name])
	}
	if needs.graph {
		m.genGraphGlue(f)
	}
	if needs.registry {
		f.Comment("callbackRegistry holds the handles of registered callbacks until they are unregistered.")
		if m.graph != nil && m.graph.execOwned {
			f.Commentf("It also holds the Go funcs of exec host nodes until %s.", m.goFunc(m.graph.api.ExecDestroy))
		}
		f.Var().Id("callbackRegistry").Qual(FFIImplPath, "Registry")
	}
	return nil
}

// layoutName is the variable holding the ffiimpl.Layout of the by-value
// record type t: layout plus its Go name, or, for a type another package
// declares (cudart's cuDoubleComplex in cusparse), its C name in Go form.
func (m *model) layoutName(t *ir.Type) string {
	if n := m.typeName(m.structRef(t)); n != "" {
		return "layout" + n
	}
	return "layout" + m.goName(t.Name)
}

// scalarLeaf is one scalar of a by-value record (layoutScalars): its
// offset and size, and whether it is floating point.
type scalarLeaf struct {
	offset, size int64
	float        bool
}

// scalarRun is one ffiimpl.Scalar: count equal leaves, each size bytes after
// the one before.
type scalarRun struct {
	offset, size, count int64
	float               bool
}

// scalarRuns merges leaves into runs where equal leaves lie end to end, so
// an array is one ffiimpl.Scalar with a Count rather than a line per element
// (the 64 chars of an IPC handle were 64 Scalars).
func scalarRuns(leaves []scalarLeaf) []scalarRun {
	var runs []scalarRun
	for _, l := range leaves {
		if n := len(runs); n > 0 {
			p := &runs[n-1]
			if p.size == l.size && p.float == l.float && p.offset+p.count*p.size == l.offset {
				p.count++
				continue
			}
		}
		runs = append(runs, scalarRun{offset: l.offset, size: l.size, count: 1, float: l.float})
	}
	return runs
}

func (m *model) genLayout(f *jen.File, t *ir.Type) {
	var sc []scalarLeaf
	m.layoutScalars(t, 0, &sc)
	var elems []jen.Code
	for _, r := range scalarRuns(sc) {
		e := []kv{{"Offset", jen.Lit(int(r.offset))}, {"Size", jen.Lit(int(r.size))}}
		if r.float {
			e = append(e, kv{"Float", jen.True()})
		}
		if r.count > 1 {
			e = append(e, kv{"Count", jen.Lit(int(r.count))})
		}
		elems = append(elems, keyed(false, e...))
	}
	name := m.layoutName(t)
	r := m.record(t)
	comment(f, fmt.Sprintf("%s describes %s for passing by value.", name, t.C))
	f.Var().Id(name).Op("=").Qual(FFIImplPath, "Layout").Add(keyed(true,
		kv{"Size", jen.Lit(int(r.Size))},
		kv{"Align", jen.Lit(int(r.Align))},
		kv{"Scalars", jen.Index().Qual(FFIImplPath, "Scalar").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, elems...)},
	))
}

// kv is one element of a keyed composite literal.
type kv struct {
	key string
	val jen.Code
}

// keyed is a keyed composite literal's body with the keys in the order
// given, the struct's declared order (jen.Dict sorts them: Align before
// Size), one element a line if multi.
func keyed(multi bool, kvs ...kv) jen.Code {
	items := make([]jen.Code, len(kvs))
	for i, e := range kvs {
		items[i] = jen.Id(e.key).Op(":").Add(e.val)
	}
	return jen.Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: multi}, items...)
}

func trampolineName(cb *callback) string { return "trampoline" + cb.name }

// genTrampoline emits the one C entry point for a callback typedef. With a
// userData parameter it finds the Go func by the handle C hands back there
// (Use deletes a one-shot handle); without one (a synchronous callback) it
// takes the func from the typedef's CallbackSlot.
func (m *model) genTrampoline(f *jen.File, cb *callback) {
	name := trampolineName(cb)
	var cfields []field
	var args []jen.Code
	for i, p := range cb.sig.Params {
		pn := fmt.Sprintf("a%d", i)
		cfields = append(cfields, field{pn, jen.Uintptr()})
		if i == cb.user {
			continue
		}
		args = append(args, m.fromUintptr(p.Type, jen.Id(pn)))
	}
	cparams := fieldList(cfields)
	goFn := "fn" + cb.name
	f.Commentf("%s is the C address of %sGo, created once: purego allows 2000", name, name)
	f.Comment("callbacks per process, so every call shares it and finds its Go func")
	switch {
	case cb.user >= 0:
		f.Comment("through the handle passed as userData. A panic in the Go func never")
	case cb.global:
		f.Commentf("in %s, set by the last call that passed one, from any thread.", globalName(cb))
		f.Comment("A panic in the Go func never")
	default:
		f.Commentf("through %s in the ffiimpl.CallbackScope of the call that passes", slotName(cb))
		f.Comment("it, on this thread. A panic in the Go func never")
	}
	f.Comment("unwinds through C's frames (see ffiimpl.Recover).")
	switch {
	case cb.global:
		f.Var().Id(globalName(cb)).Qual("sync/atomic", "Pointer").Types(cb.goFunc)
	case cb.user < 0:
		f.Var().Id(slotName(cb)).Qual(FFIImplPath, "CallbackSlot")
	}
	f.Var().Id(name).Op("=").Qual("sync", "OnceValue").Call(jen.Func().Params().Uintptr().Block(
		jen.Return(jen.Qual(FFIImplPath, "Callback").Call(jen.Id(name + "Go"))),
	))
	var lookup jen.Code
	switch {
	case cb.user >= 0:
		lookup = jen.List(jen.Id(goFn), jen.Id("_")).Op(":=").Qual(FFIImplPath, "Handle").Call(jen.Id(fmt.Sprintf("a%d", cb.user))).Dot("Use").Call().Assert(cb.goFunc)
	case cb.global:
		lookup = jen.Id(goFn).Op(":=").Id(globalName(cb)).Dot("Load").Call()
	default:
		lookup = jen.List(jen.Id(goFn), jen.Id("_")).Op(":=").Id(slotName(cb)).Dot("Value").Call().Assert(cb.goFunc)
	}
	call := jen.Id(goFn).Call(args...)
	if cb.global {
		call = jen.Parens(jen.Op("*").Id(goFn)).Call(args...)
	}
	if cb.sig.Result.Kind == ir.Void {
		f.Func().Id(name+"Go").Params(cparams...).Block(
			jen.Defer().Qual(FFIImplPath, "Recover").Call(),
			lookup,
			jen.If(jen.Id(goFn).Op("!=").Nil()).Block(call),
		)
	} else {
		f.Func().Id(name+"Go").Params(cparams...).Uintptr().Block(
			jen.Defer().Qual(FFIImplPath, "Recover").Call(), // a panic returns 0 to C
			lookup,
			jen.If(jen.Id(goFn).Op("==").Nil()).Block(jen.Return(jen.Lit(0))),
			jen.Return(jen.Uintptr().Call(call)),
		)
	}
	f.Line()
}

func slotName(cb *callback) string { return "slot" + cb.name }

func globalName(cb *callback) string { return "global" + cb.name }

// fromUintptr converts a register value back to the Go type of t.
func (m *model) fromUintptr(t *ir.Type, v jen.Code) jen.Code {
	gt := m.goType(t)
	rt := m.resolve(t)
	if rt.Kind == ir.Pointer && t.Kind != ir.Named {
		// A raw pointer from C: unsafe.Pointer via a uintptr is how C
		// memory is viewed; go vet accepts it in this form.
		return jen.Op("*").Parens(jen.Op("*").Add(gt)).Call(jen.Qual("unsafe", "Pointer").Call(jen.Op("&").Add(v)))
	}
	return jen.Add(gt).Call(v)
}

// genFunc emits fn's wrapper, then a function per C alias macro of it.
// The wrapper is built in steps, each a method of wrapper: the doc comment,
// the locals prepared before the call, the C arguments, the call, and the
// result check.
func (m *model) genFunc(f *jen.File, fn *ir.Function, ps []*param) {
	w := m.newWrapper(fn, ps)
	comment(f, m.funcDoc(fn, ps))
	w.guard()
	w.load()
	w.prepare()
	w.arguments()
	w.call()
	w.result()
	f.Func().Id(w.name).Params(w.params()...).Params(w.results()...).Block(w.body...)
	f.Line()
	m.genAliases(f, w)
}

// wrapper is the Go function being built for one C function.
type wrapper struct {
	m      *model
	fn     *ir.Function
	ps     []*param
	name   string // Go name
	proc   string // its ffiimpl.Proc variable
	errRes bool   // the C result is the library's status type: an error result
	// recStatus: the C result is the struct holding the status
	// (Desc.StatusRecord), an error result too, read into rs.
	recStatus bool
	cResult   *ir.Type // another non-void C result: the ret result
	ptrRes    bool     // cResult is a pointer the library allocated (Overrides.PointerResults)
	heap      bool     // Frame and outputs on the heap (a Go callback may move the stack)
	// named: the results have names (outputs, ret, or err set after the
	// check); otherwise the only result is an unnamed error, returned
	// directly.
	named bool

	body      []jen.Code
	keepAlive []jen.Code // objects whose address C got: kept alive after the call
	post      []jen.Code // converting outputs after the call
	copyBack  []jen.Code // aligned copies back to the caller's values, right after the call, whatever it returned
	tail      []jen.Code // after a successful call: keeping callback handles
	cargs     []callArg
	ints      bool     // called through ffiimpl.CallInts, not a Frame
	ret       jen.Code // the C result register as a uintptr
}

func (m *model) newWrapper(fn *ir.Function, ps []*param) *wrapper {
	w := &wrapper{m: m, fn: fn, ps: ps, name: m.funcNames[fn], proc: m.procName(fn), heap: hasCallback(ps)}
	switch {
	case m.isErrorResult(fn.Result):
		w.errRes = true
	case m.isStatusRecord(fn.Result):
		w.errRes, w.recStatus = true, true
	case fn.Result.Kind != ir.Void:
		w.cResult = fn.Result
		w.ptrRes = m.isPointerResult(fn, m.resolve(fn.Result))
	}
	w.tail = w.tailStmts()
	w.named = w.cResult != nil || w.errRes && (len(w.tail) > 0 || hasHandle(ps))
	for _, p := range ps {
		w.named = w.named || p.role.isResult()
	}
	return w
}

// funcDoc is the wrapper's doc comment: what it wraps, the header's text
// adapted to the Go parameters, and what the wrapper adds.
func (m *model) funcDoc(fn *ir.Function, ps []*param) string {
	name := m.funcNames[fn]
	errRes := m.isErrorResult(fn.Result) || m.isStatusRecord(fn.Result)
	// Where it comes from, after what it does (the header's brief), or
	// first when the header says nothing that can lead.
	prov := fmt.Sprintf("wraps %s (symbol %s, %s).", fn.Name, fn.Symbol, fn.Pos.File)
	switch {
	case fn.SinceVersion == 0:
	case m.desc.Since != "":
		prov += fmt.Sprintf(" It needs %s %s or newer.", m.desc.Since, versionString(int64(fn.SinceVersion)))
	default:
		prov += fmt.Sprintf(" It needs a driver of CUDA %s or newer.", versionString(int64(fn.SinceVersion)))
	}
	if !errRes && fn.Result.Kind != ir.Void {
		prov += " It has no error result: if the library or the symbol cannot be loaded it returns the zero value (SharedLibrary().Load() says why)."
	}
	doc, led := leadDoc(name, fn)
	d := m.wrapperDoc(doc, ps)
	var text string
	_, summary, summed := m.desc.Summaries.Family(m.desc.Prefixes, fn.Name)
	switch {
	case led:
		lead, rest, _ := strings.Cut(d, "\n\n")
		text = lead + "\n\n" + wrapText("It "+prov, docCommentWidth)
		if rest != "" {
			text += "\n\n" + rest
		}
	case summed:
		// No brief to lead: the library's table says what the family
		// computes (cuBLAS documents none of its routines).
		text = wrapText(name+" "+summary+".", docCommentWidth) + "\n\n" + wrapText("It "+prov, docCommentWidth)
		if d != "" {
			text += "\n\n" + d
		}
	default:
		text = wrapText(name+" "+prov, docCommentWidth)
		if d != "" {
			text += "\n\n" + d
		}
	}
	if d := launchArrayDoc(ps); d != "" {
		text += "\n\n" + d
	}
	for _, p := range ps {
		if p.role != roleHostParams {
			continue
		}
		switch {
		case p.life == lifeExec:
			text += fmt.Sprintf("\n\nThe Go func fn replaces the C struct's %s and %s. The package keeps it until the exec is destroyed with [%s]; destroy the exec only after its launches have completed.", p.host.fnName, p.host.udName, m.goFunc(m.graph.api.ExecDestroy))
		case p.owner == nil:
			text += fmt.Sprintf("\n\nThe Go func fn replaces the C struct's %s and %s. ownerGraph, which the C function does not take, must be the graph the node belongs to: a user object of that graph keeps fn alive until the graph and its last exec and clone are destroyed (no call in these headers finds a node's graph).", p.host.fnName, p.host.udName)
		default:
			text += fmt.Sprintf("\n\nThe Go func fn replaces the C struct's %s and %s. A user object of %s keeps it alive until the graph and its last exec and clone are destroyed, so it runs on every launch.", p.host.fnName, p.host.udName, p.owner.goName)
		}
	}
	if g := globalFuncs(ps); g != "" {
		text += fmt.Sprintf("\n\nThe Go funcs %s are kept for the whole process, until a later call passes others; nil passes NULL and keeps the previous func. C calls them from threads of its own, concurrently with the program: they must lock what they share, and a panic in one ends the process (it must not unwind through C's frames).", g)
	}
	text += m.nodeHostDoc(fn)
	for _, p := range ps {
		if p.role == roleCount {
			para := fmt.Sprintf("The C count %s is len(%s).", p.c.Name, p.countOf.goName)
			for _, q := range ps {
				if q.role == roleStrings && q.countOf == p.countOf {
					para += fmt.Sprintf(" len(%s) must equal it.", q.goName)
				}
			}
			text += "\n\n" + wrapText(para, docCommentWidth)
		}
	}
	if nn := m.nonNullDoc(fn, ps); nn != "" {
		text += "\n\n" + wrapText(nn[2:], docCommentWidth)
	}
	if why, ok := m.desc.Unexported[fn.Symbol]; ok {
		text += "\n\n" + wrapText(fmt.Sprintf("The library does not export %s (%s): a call returns an error matching ffi.ErrNoSymbol.", fn.Symbol, why), docCommentWidth)
	}
	if l := m.logOf(fn); l != "" {
		text += "\n\n" + wrapText(fmt.Sprintf("The error of a failed call carries the library's log ([%s]) in its Log field and text.", l), docCommentWidth)
	}
	if fn.Deprecated && !strings.Contains(text, "Deprecated:") {
		text += "\n\nDeprecated: the header marks " + fn.Name + " deprecated."
	}
	return text
}

// params is the wrapper's parameter list: the C parameters the caller
// gives (not those the wrapper fills or returns), plus ownerGraph where
// the wrapper needs it.
func (w *wrapper) params() []jen.Code {
	var fs []field
	for _, p := range w.ps {
		if !p.role.isResult() && !p.role.filled() {
			fs = append(fs, field{p.goName, p.goType})
		}
	}
	if addsOwnerGraph(w.ps) {
		fs = append(fs, field{"ownerGraph", jen.Id(w.m.graph.graphType)})
	}
	return fieldList(fs)
}

// results is the wrapper's result list: the outputs in order, then the
// error (or the C result), named if w.named.
func (w *wrapper) results() []jen.Code {
	var fs []field
	for _, p := range w.ps {
		if p.role.isResult() {
			fs = append(fs, field{p.goName, p.goType})
		}
	}
	switch {
	case w.errRes:
		fs = append(fs, field{"err", jen.Error()})
	case w.cResult != nil && w.ptrRes:
		fs = append(fs, field{"ret", w.m.goType(w.cResult)})
	case w.cResult != nil:
		fs = append(fs, field{"ret", w.m.resultGoType(w.cResult)})
	}
	if !w.named {
		var types []jen.Code
		for _, f := range fs {
			types = append(types, f.typ)
		}
		return types
	}
	return fieldList(fs)
}

// fail returns from the wrapper with the error in err (named results, or
// a wrapper without an error result: the zero values), after the
// statements first.
func (w *wrapper) fail(first ...jen.Code) jen.Code {
	if w.named || !w.errRes {
		return jen.Block(append(first, jen.Return())...)
	}
	return jen.Block(append(first, jen.Return(jen.Id("err")))...)
}

// load resolves the symbol: an error (the library or the symbol missing)
// is the wrapper's error.
func (w *wrapper) load() {
	w.body = append(w.body,
		jen.List(jen.Id("sym"), jen.Id("err")).Op(":=").Id(w.proc).Dot("Addr").Call(),
		jen.If(jen.Id("err").Op("!=").Nil()).Add(w.fail()),
	)
}

// prepare declares what the C arguments point to. Everything that calls a
// function is prepared before the Frame gets its first stack address (see
// the stack invariant on ffiimpl.Frame). A function that takes a Go callback
// may run Go code on this goroutine during the C call (C calls back on the
// calling thread), which can move the stack: its Frame and outputs live on
// the heap instead.
func (w *wrapper) prepare() {
	m := w.m
	escape := func(x jen.Code) jen.Code { return jen.Qual(FFIImplPath, "Escape").Call(x) }
	for _, p := range w.ps {
		v := jen.Id(p.goName)
		w.prepareHostOrDevice(p) // devptr.go
		switch {
		case !w.heap:
		case p.role == roleOut:
			w.body = append(w.body, jen.Id(p.goName+"P").Op(":=").New(p.goType), escape(unsafePointer(jen.Id(p.goName+"P"))))
		case p.role == roleOutString:
			w.body = append(w.body, jen.Id(p.goName+"C").Op(":=").New(jen.Uintptr()), escape(unsafePointer(jen.Id(p.goName+"C"))))
		case p.role == roleOutBuffer:
			w.body = append(w.body, jen.Id(p.goName+"Buf").Op(":=").New(jen.Index(jen.Lit(stringBufferLen)).Byte()), escape(unsafePointer(jen.Id(p.goName+"Buf"))))
		case p.role == rolePointer:
			w.body = append(w.body, escape(p.asUnsafePointer()))
		case p.role == roleKernelArgs:
			w.body = append(w.body, escape(unsafePointer(jen.Qual("unsafe", "SliceData").Call(v))))
		}
		if w.heap && (p.role == roleOut || p.role == roleOutString || p.role == roleOutBuffer) {
			continue
		}
		switch p.role {
		case roleString:
			w.body = append(w.body, jen.Id(p.goName+"C").Op(":=").Qual(FFIImplPath, "CString").Call(v))
		case roleOptString:
			w.body = append(w.body, jen.Id(p.goName+"C").Op(":=").Qual(FFIImplPath, "OptCString").Call(v))
		case roleStrings:
			if o := p.countOf; o != nil {
				w.body = append(w.body, jen.If(jen.Len(v).Op("!=").Len(jen.Id(o.goName))).Add(w.fail(
					jen.Id("err").Op("=").Qual(FFIImplPath, "LengthMismatch").Call(jen.Lit(w.fn.Name), jen.Lit(p.goName), jen.Len(v), jen.Lit(o.goName), jen.Len(jen.Id(o.goName))))))
			}
			w.body = append(w.body, jen.Id(p.goName+"C").Op(":=").Qual(FFIImplPath, "CStrings").Call(v))
		case roleOutString:
			w.body = append(w.body, jen.Var().Id(p.goName+"C").Uintptr())
		case roleOutBuffer:
			w.body = append(w.body, jen.Var().Id(p.goName+"Buf").Index(jen.Lit(stringBufferLen)).Byte())
		case rolePointer:
			if p.align == 0 {
				break
			}
			// The aligned copy AlignedIn makes of a misaligned host value.
			buf := p.goName + "Buf"
			size := p.valueSize()
			bufType := jen.Index(p.valueSize().Op("+").Lit(int(p.align))).Byte()
			bufPtr := unsafePointer(jen.Op("&").Id(buf))
			if w.heap {
				w.body = append(w.body, jen.Id(buf).Op(":=").New(bufType), escape(unsafePointer(jen.Id(buf))))
				bufPtr = unsafePointer(jen.Id(buf))
			} else {
				w.body = append(w.body, jen.Var().Id(buf).Add(bufType))
			}
			w.body = append(w.body, jen.Id(p.goName+"P").Op(":=").Qual(FFIImplPath, "AlignedIn").Call(p.asUnsafePointer(), bufPtr, size, jen.Lit(int(p.align))))
		case roleOutAligned:
			// Stack copies move a stack by a multiple of its page-aligned
			// size, so the alignment computed here survives them.
			buf := p.goName + "Buf"
			w.body = append(w.body,
				jen.Var().Id(buf).Index(jen.Qual("unsafe", "Sizeof").Call(jen.Id(p.goName)).Op("+").Lit(int(p.align))).Byte(),
				jen.Id(p.goName+"P").Op(":=").Qual("unsafe", "Add").Call(
					unsafePointer(jen.Op("&").Id(buf)),
					jen.Parens(jen.Lit(int(p.align)).Op("-").Uintptr().Call(unsafePointer(jen.Op("&").Id(buf))).Op("%").Lit(int(p.align))).Op("%").Lit(int(p.align))),
			)
		case roleCallback:
			// nil is NULL: no trampoline, no handle (hdl 0 is NULL userData).
			set := []jen.Code{jen.Id("cbAddr").Op("=").Id(trampolineName(p.cb)).Call()}
			switch p.life {
			case lifeOnce:
				set = append(set, jen.Id("hdl").Op("=").Qual(FFIImplPath, "NewHandleOnce").Call(v))
			case lifeRegistered:
				set = append(set, jen.Id("hdl").Op("=").Qual(FFIImplPath, "NewHandle").Call(v))
			case lifeStream:
				// A capturing stream records the callback into a graph node
				// that runs on every launch of the graph: its handle then
				// lives as long as the graph (see retainHandle).
				set = append(set, jen.If(jen.Id("cbGraph").Op("=").Id("captureGraph").Call(jen.Id(m.streamParam(w.ps).goName)), jen.Id("cbGraph").Op("!=").Lit(0)).Block(
					jen.Id("hdl").Op("=").Qual(FFIImplPath, "NewHandle").Call(v),
				).Else().Block(
					jen.Id("hdl").Op("=").Qual(FFIImplPath, "NewHandleOnce").Call(v),
				))
				w.body = append(w.body, jen.Var().Id("cbGraph").Id(m.graph.graphType))
			}
			w.body = append(w.body, m.scopeStmts()...)
			w.body = append(w.body,
				jen.Var().Id("cbAddr").Uintptr(),
				jen.Var().Id("hdl").Qual(FFIImplPath, "Handle"),
				jen.If(jen.Id(p.goName).Op("!=").Nil()).Block(set...),
			)
		case roleHostParams:
			h := p.host
			c := p.goName + "C"
			w.body = append(w.body, m.scopeStmts()...)
			w.body = append(w.body,
				jen.Var().Id("hdl").Qual(FFIImplPath, "Handle"),
				jen.Id(c).Op(":=").New(jen.Index(jen.Lit(int(h.size/8))).Uintptr()),
				escape(unsafePointer(jen.Id(c))),
				jen.If(jen.Id(p.goName).Op("!=").Nil()).Block(
					jen.Id("hdl").Op("=").Qual(FFIImplPath, "NewHandle").Call(jen.Id(p.goName)),
					jen.Id(c).Index(jen.Lit(int(h.fnOff/8))).Op("=").Id(trampolineName(p.cb)).Call(),
					jen.Id(c).Index(jen.Lit(int(h.udOff/8))).Op("=").Uintptr().Call(jen.Id("hdl")),
				),
			)
		case roleLaunchExtra:
			if w.heap {
				w.body = append(w.body, jen.Id(p.goName+"C").Op(":=").New(jen.Qual(FFIImplPath, "Extra")))
			} else {
				w.body = append(w.body, jen.Var().Id(p.goName+"C").Qual(FFIImplPath, "Extra"))
			}
		case roleGlobalFunc:
			// stored before the call: C may call it during the call
			addr := p.goName + "Addr"
			w.body = append(w.body,
				jen.Var().Id(addr).Uintptr(),
				jen.If(jen.Id(p.goName).Op("!=").Nil()).Block(
					jen.Id(addr).Op("=").Id(trampolineName(p.cb)).Call(),
					jen.Id(globalName(p.cb)).Dot("Store").Call(jen.Op("&").Id(p.goName)),
				),
			)
		case roleCallbackSync:
			w.body = append(w.body, m.scopeStmts()...)
			w.body = append(w.body,
				jen.Var().Id("cbAddr").Uintptr(),
				jen.If(jen.Id(p.goName).Op("!=").Nil()).Block(
					jen.Id("cbAddr").Op("=").Id(trampolineName(p.cb)).Call(),
					jen.Id("cbScope").Dot("Hold").Call(jen.Op("&").Id(slotName(p.cb)), v),
				),
			)
		}
	}
}

// unsafePointer is unsafe.Pointer(x).
func unsafePointer(x jen.Code) jen.Code { return jen.Qual("unsafe", "Pointer").Call(x) }

// asUnsafePointer is the rolePointer parameter p as an unsafe.Pointer:
// itself if it is one already.
func (p *param) asUnsafePointer() jen.Code {
	if isHostOrDevice(p) {
		return jen.Id(p.goName + "V") // prepareHostOrDevice's
	}
	if sameType(p.goType, jen.Qual("unsafe", "Pointer")) {
		return jen.Id(p.goName)
	}
	return unsafePointer(jen.Id(p.goName))
}

// arguments lists the C arguments in order: an integer-register word
// each, except floats and by-value structs, which only a Frame can pass.
// It notes what must stay alive through the call and the conversions of
// outputs after it.
func (w *wrapper) arguments() {
	m := w.m
	word := func(x jen.Code) { w.cargs = append(w.cargs, callArg{word: x}) }
	keep := func(x ...jen.Code) { w.keepAlive = append(w.keepAlive, x...) }
	for _, p := range w.ps {
		v := jen.Id(p.goName)
		switch p.role {
		case roleValue:
			word(jen.Uintptr().Call(v))
		case roleFloat:
			if m.resolve(p.c.Type).Size == 4 {
				w.cargs = append(w.cargs, callArg{frame: jen.Id("frame").Dot("Float32").Call(jen.Float32().Call(v))})
			} else {
				w.cargs = append(w.cargs, callArg{frame: jen.Id("frame").Dot("Float64").Call(jen.Float64().Call(v))})
			}
		case rolePointer:
			if p.align == 0 {
				word(jen.Uintptr().Call(p.asUnsafePointer()))
				keep(v)
				break
			}
			word(jen.Uintptr().Call(jen.Id(p.goName + "P")))
			keep(v)
			if w.heap {
				keep(jen.Id(p.goName + "Buf"))
			} else {
				keep(jen.Op("&").Id(p.goName + "Buf"))
			}
			if e := m.resolve(p.c.Type).Elem; e == nil || !e.Const {
				w.copyBack = append(w.copyBack, jen.Qual(FFIImplPath, "AlignedOut").Call(p.asUnsafePointer(), jen.Id(p.goName+"P"), p.valueSize()))
			}
		case roleKernelArgs:
			word(jen.Uintptr().Call(unsafePointer(jen.Qual("unsafe", "SliceData").Call(v))))
			keep(v)
		case roleLaunchExtra:
			// Set is nosplit and calls nothing: the stack invariant holds.
			word(jen.Id(p.goName + "C").Dot("Set").Call(v))
			keep(v)
			if w.heap {
				keep(jen.Id(p.goName + "C"))
			} else {
				keep(jen.Op("&").Id(p.goName + "C"))
			}
		case roleString, roleOptString:
			cs := p.goName + "C"
			word(jen.Uintptr().Call(unsafePointer(jen.Id(cs))))
			keep(jen.Id(cs))
		case roleStruct:
			w.cargs = append(w.cargs, callArg{frame: jen.Id("frame").Dot("Struct").Call(unsafePointer(jen.Op("&").Add(v)), jen.Op("&").Id(m.layoutName(p.c.Type)))})
			keep(jen.Op("&").Add(v))
		case roleOut:
			if w.heap {
				word(jen.Uintptr().Call(unsafePointer(jen.Id(p.goName + "P"))))
				keep(jen.Id(p.goName + "P"))
				w.post = append(w.post, jen.Id(p.goName).Op("=").Op("*").Id(p.goName+"P"))
				break
			}
			word(jen.Uintptr().Call(unsafePointer(jen.Op("&").Add(v))))
			keep(jen.Op("&").Add(v))
		case roleOutAligned:
			word(jen.Uintptr().Call(jen.Id(p.goName + "P")))
			keep(jen.Op("&").Id(p.goName + "Buf"))
			w.post = append(w.post, jen.Id(p.goName).Op("=").Op("*").Parens(jen.Op("*").Add(p.goType)).Call(jen.Id(p.goName+"P")))
		case roleOutString:
			tmp := p.goName + "C"
			if w.heap {
				word(jen.Uintptr().Call(unsafePointer(jen.Id(tmp))))
				keep(jen.Id(tmp))
				w.post = append(w.post, jen.Id(p.goName).Op("=").Qual(FFIImplPath, "GoString").Call(jen.Op("*").Id(tmp)))
				break
			}
			word(jen.Uintptr().Call(unsafePointer(jen.Op("&").Id(tmp))))
			keep(jen.Op("&").Id(tmp))
			w.post = append(w.post, jen.Id(p.goName).Op("=").Qual(FFIImplPath, "GoString").Call(jen.Id(tmp)))
		case roleOutBuffer:
			buf := p.goName + "Buf"
			word(jen.Uintptr().Call(unsafePointer(jen.Op("&").Id(buf).Index(jen.Lit(0)))))
			if w.heap {
				keep(jen.Id(buf))
			} else {
				keep(jen.Op("&").Id(buf))
			}
			w.post = append(w.post, jen.Id(p.goName).Op("=").Qual(FFIImplPath, "GoStringN").Call(jen.Id(buf).Index(jen.Op(":"))))
		case roleBufferLen:
			word(jen.Lit(stringBufferLen))
		case roleStrings:
			word(jen.Uintptr().Call(unsafePointer(jen.Qual("unsafe", "SliceData").Call(jen.Id(p.goName + "C")))))
			keep(jen.Id(p.goName + "C"))
		case roleCount:
			word(jen.Uintptr().Call(jen.Len(jen.Id(p.countOf.goName))))
		case roleCallback, roleCallbackSync:
			word(jen.Id("cbAddr"))
		case roleGlobalFunc:
			word(jen.Id(p.goName + "Addr"))
		case roleHostParams:
			word(jen.Uintptr().Call(unsafePointer(jen.Id(p.goName + "C"))))
			keep(jen.Id(p.goName + "C"))
		case roleUserData:
			word(jen.Uintptr().Call(jen.Id("hdl")))
		}
	}
	w.ints = w.m.callsInts(w.fn, w.cargs, w.heap)
}

// call makes the C call, through ffiimpl.CallInts where every argument is a
// register word, else through a Frame, and keeps the arguments alive.
//
// A CallInts call cannot fail once the symbol resolved. A Frame call can:
// whether the arguments fit the Frame is decided by ffiimpl's classification
// for the architecture it runs on (on arm64 a large struct is copied into
// the Frame's stack area), which the generator does not model, so the
// wrapper checks frame.Err and returns it.
func (w *wrapper) call() {
	m := w.m
	if w.ints {
		args := []jen.Code{jen.Id("sym")}
		for _, a := range w.cargs {
			args = append(args, a.word)
		}
		for len(args) < 1+ffiIntsArgs {
			args = append(args, jen.Lit(0))
		}
		call := jen.Qual(FFIImplPath, "CallInts").Call(args...)
		if w.errRes || w.cResult != nil {
			w.body = append(w.body, jen.Id("r").Op(":=").Add(call))
		} else {
			w.body = append(w.body, call) // void
		}
		w.ret = jen.Id("r")
		w.keepAlives()
		return
	}
	frameRef := jen.Op("&").Id("frame")
	if w.heap {
		w.body = append(w.body, jen.Id("frame").Op(":=").Qual(FFIImplPath, "NewHeapFrame").Call())
		frameRef = jen.Id("frame")
	} else {
		w.body = append(w.body, jen.Var().Id("frame").Qual(FFIImplPath, "Frame"))
	}
	if w.cResult != nil && m.record(w.cResult) != nil {
		w.body = append(w.body, jen.Id("frame").Dot("StructResult").Call(unsafePointer(jen.Op("&").Id("ret")), jen.Op("&").Id(m.layoutName(w.fn.Result))))
	}
	if w.recStatus {
		w.body = append(w.body,
			jen.Var().Id("rs").Id(m.typeName(m.structRef(w.fn.Result))),
			jen.Id("frame").Dot("StructResult").Call(unsafePointer(jen.Op("&").Id("rs")), jen.Op("&").Id(m.layoutName(w.fn.Result))))
	}
	for _, a := range w.cargs {
		if a.frame != nil {
			w.body = append(w.body, a.frame)
		} else {
			w.body = append(w.body, jen.Id("frame").Dot("Int").Call(a.word))
		}
	}
	w.body = append(w.body, jen.Qual(FFIImplPath, "Call").Call(jen.Id("sym"), frameRef))
	w.keepAlives()
	var cleanup []jen.Code
	if hasHandle(w.ps) {
		cleanup = append(cleanup, jen.Id("hdl").Dot("Delete").Call())
	}
	w.body = append(w.body, jen.If(jen.Id("err").Op("=").Id("frame").Dot("Err").Call(), jen.Id("err").Op("!=").Nil()).Add(w.fail(cleanup...)))
	w.ret = jen.Id("frame").Dot("Ret").Call()
	if w.recStatus {
		w.body = append(w.body, jen.Id("frame").Dot("RetStruct").Call(unsafePointer(jen.Op("&").Id("rs")), jen.Op("&").Id(m.layoutName(w.fn.Result))))
		w.ret = jen.Id("rs")
	}
}

func (w *wrapper) keepAlives() {
	w.body = append(w.body, w.copyBack...)
	for _, k := range w.keepAlive {
		w.body = append(w.body, jen.Qual("runtime", "KeepAlive").Call(k))
	}
}

// result turns the C result into the wrapper's: the error of a status
// code (ffiimpl.Error: nil for success), or the converted C result, then the
// outputs and what a successful call keeps.
func (w *wrapper) result() {
	m := w.m
	// status is the C result as the library's status; errOf its error.
	status := func() jen.Code { return jen.Id(m.errorType()).Call(w.ret) }
	errOf := func(code jen.Code) jen.Code { return jen.Qual(FFIImplPath, "Error").Call(jen.Id(w.proc), code) }
	if w.recStatus {
		status = func() jen.Code { return w.ret }
		errOf = func(code jen.Code) jen.Code { return jen.Id("statusError").Call(jen.Id(w.proc), code) }
	}
	switch {
	case w.errRes && (hasHandle(w.ps) || len(w.tail) > 0):
		// Keeping a handle is for a successful call only.
		var onErr []jen.Code
		if hasHandle(w.ps) {
			onErr = append(onErr, jen.Comment("C never calls back after a failed registration."), jen.Id("hdl").Dot("Delete").Call())
		}
		if w.recStatus {
			onErr = append(onErr, jen.Id("err").Op("=").Id("rc"), jen.Return())
			w.body = append(w.body, jen.If(jen.Id("rc").Op(":=").Add(errOf(status())), jen.Id("rc").Op("!=").Nil()).Block(onErr...))
		} else {
			onErr = append(onErr, jen.Id("err").Op("=").Add(errOf(jen.Id("rc"))), jen.Return())
			w.body = append(w.body, jen.If(jen.Id("rc").Op(":=").Add(status()), jen.Id("rc").Op("!=").Lit(0)).Block(onErr...))
		}
		w.body = append(w.body, w.post...)
		w.body = append(w.body, w.tail...)
		w.body = append(w.body, jen.Return())
		return
	case w.errRes && !w.named && m.logOf(w.fn) != "":
		// The library explains the failure in a log of the handle the
		// call took first: the error carries it.
		w.body = append(w.body,
			jen.If(jen.Err().Op(":=").Add(errOf(status())), jen.Err().Op("!=").Nil()).Block(
				jen.List(jen.Id("log"), jen.Id("_")).Op(":=").Id(m.logOf(w.fn)).Call(jen.Id(w.ps[0].goName)),
				jen.Return(jen.Qual(FFIImplPath, "WithLog").Call(jen.Err(), jen.Id("log"))),
			),
			jen.Return(jen.Nil()))
		return
	case w.errRes && !w.named:
		w.body = append(w.body, jen.Return(errOf(status())))
		return
	case w.errRes:
		// Outputs are converted either way: after a failure they are the
		// zero values or what C left in them.
		w.body = append(w.body, w.post...)
		var res []jen.Code
		for _, p := range w.ps {
			if p.role.isResult() {
				res = append(res, jen.Id(p.goName))
			}
		}
		w.body = append(w.body, jen.Return(append(res, errOf(status()))...))
		return
	case w.cResult != nil && w.ptrRes:
		w.body = append(w.body, jen.Id("ret").Op("=").Parens(m.goType(w.cResult)).Call(jen.Qual(FFIImplPath, "Pointer").Call(w.ret)))
		w.body = append(w.body, w.post...)
	case w.cResult != nil && m.record(w.cResult) == nil:
		w.body = append(w.body, jen.Id("ret").Op("=").Add(m.retConversion(w.cResult, w.ret)))
		w.body = append(w.body, w.post...)
	case w.cResult != nil:
		w.body = append(w.body, jen.Id("frame").Dot("RetStruct").Call(unsafePointer(jen.Op("&").Id("ret")), jen.Op("&").Id(m.layoutName(w.cResult))))
		w.body = append(w.body, w.post...)
	default:
		w.body = append(w.body, w.post...)
	}
	w.body = append(w.body, w.tail...)
	if w.named {
		w.body = append(w.body, jen.Return())
	}
}

// tailStmts are what a successful call keeps: a registered callback's
// handle, a host node's Go func, a callback recorded into a capture graph.
func (w *wrapper) tailStmts() []jen.Code {
	stmts := w.m.registryStmts(w.fn, w.ps)
	for _, p := range w.ps {
		if p.role != roleHostParams {
			continue
		}
		var keep jen.Code
		switch {
		case p.life == lifeExec:
			keep = jen.Id("callbackRegistry").Dot("Add").Call(jen.Uintptr().Call(jen.Id(p.owner.goName)), jen.Id("hdl"))
		case p.owner == nil:
			keep = jen.Id("err").Op("=").Id("retainHandle").Call(jen.Id("ownerGraph"), jen.Id("hdl"))
		default:
			keep = jen.Id("err").Op("=").Id("retainHandle").Call(jen.Id(p.owner.goName), jen.Id("hdl"))
		}
		stmts = append(stmts, jen.If(jen.Id("hdl").Op("!=").Lit(0)).Block(keep))
	}
	if hasLife(w.ps, lifeStream) {
		stmts = append(stmts, jen.If(jen.Id("cbGraph").Op("!=").Lit(0)).Block(
			jen.Id("err").Op("=").Id("retainHandle").Call(jen.Id("cbGraph"), jen.Id("hdl")),
		))
	}
	return stmts
}

// genAliases gives each C alias macro (#define cuGraphInstantiate
// cuGraphInstantiateWithFlags) a Go function of its own name, with the
// wrapper's signature, that calls the wrapper.
func (m *model) genAliases(f *jen.File, w *wrapper) {
	fn := w.fn
	var args []jen.Code
	for _, p := range w.ps {
		if !p.role.isResult() && !p.role.filled() {
			args = append(args, jen.Id(p.goName))
		}
	}
	if addsOwnerGraph(w.ps) {
		args = append(args, jen.Id("ownerGraph"))
	}
	results := w.results()
	for _, a := range fn.Aliases {
		an := m.aliasNames[a]
		comment(f, fmt.Sprintf("%s is %s, which %s defines as %s: it calls [%s].", an, a, fn.Pos.File, fn.Name, w.name))
		var stmt jen.Code = jen.Return(jen.Id(w.name).Call(args...))
		if len(results) == 0 {
			stmt = jen.Id(w.name).Call(args...)
		}
		f.Func().Id(an).Params(w.params()...).Params(results...).Block(stmt)
		f.Line()
	}
}

// field is a named parameter or result.
type field struct {
	name string
	typ  jen.Code
}

// fieldList writes fields as Go does by hand: consecutive fields of one
// type share it, (x, y, z uint32).
func fieldList(fs []field) []jen.Code {
	var out []jen.Code
	for i := 0; i < len(fs); {
		j := i + 1
		for j < len(fs) && sameType(fs[j].typ, fs[i].typ) {
			j++
		}
		var names []jen.Code
		for _, f := range fs[i:j] {
			names = append(names, jen.Id(f.name))
		}
		out = append(out, jen.List(names...).Add(fs[i].typ))
		i = j
	}
	return out
}

// sameType reports whether two Go types are the same jennifer code, token
// by token. (Rendering them to compare, through GoString, runs gofmt on
// each: it was a third of the generator's time.)
func sameType(a, b jen.Code) bool { return reflect.DeepEqual(a, b) }

// registryStmts keeps a registered callback's handle until its unregister
// call: the register wrapper adds it under the registration handle C
// returned, the unregister wrapper removes (and deletes) it.
func (m *model) registryStmts(fn *ir.Function, ps []*param) []jen.Code {
	if _, ok := m.desc.Overrides.RegisteredCallbacks[fn.Name]; ok && hasHandle(ps) {
		for _, p := range ps {
			if p.role == roleOut {
				return []jen.Code{jen.Id("callbackRegistry").Dot("Add").Call(jen.Uintptr().Call(jen.Id(p.goName)), jen.Id("hdl"))}
			}
		}
	}
	if m.graph != nil && m.graph.execOwned && fn.Name == m.graph.api.ExecDestroy {
		if p := handleParam(ps, m.graph.api.Exec); p != nil && p.role == roleValue {
			return []jen.Code{jen.Comment("Release the Go funcs given to the exec's host nodes."), jen.Id("callbackRegistry").Dot("Remove").Call(jen.Uintptr().Call(jen.Id(p.goName)))}
		}
	}
	// In name order: with two registrations sharing one unregister
	// function, map order would decide the output.
	for _, reg := range slices.Sorted(maps.Keys(m.desc.Overrides.RegisteredCallbacks)) {
		if m.desc.Overrides.RegisteredCallbacks[reg] != fn.Name {
			continue
		}
		var key string // the C type of the registration handle
		for _, g := range m.funcs {
			if g.Name == reg {
				for _, p := range g.Params {
					if p.Direction == ir.Out && p.Type.Elem != nil {
						key = p.Type.Elem.Name
					}
				}
			}
		}
		for _, p := range ps {
			if key != "" && p.c.Type.Name == key && p.role == roleValue {
				return []jen.Code{jen.Id("callbackRegistry").Dot("Remove").Call(jen.Uintptr().Call(jen.Id(p.goName)))}
			}
		}
	}
	return nil
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

// callbackField returns the path of the first function pointer field
// inside the record t names, looking through nested records and unions
// ("host.fn"), or "".
func (m *model) callbackField(t *ir.Type, depth int) string {
	return m.callbackFieldIn(m.record(t), depth)
}

func (m *model) callbackFieldIn(r *ir.Record, depth int) string {
	if r == nil || depth > 4 {
		return ""
	}
	for _, f := range r.Fields {
		if m.resolve(f.Type).Kind == ir.FuncPtr {
			return f.Name
		}
		sub := ""
		if f.Record != nil {
			sub = m.callbackFieldIn(f.Record, depth+1)
		} else if f.Type.Kind != ir.Pointer {
			sub = m.callbackField(f.Type, depth+1)
		}
		if sub != "" {
			if f.Name == "" || f.Anonymous {
				return sub
			}
			return f.Name + "." + sub
		}
	}
	return ""
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

// scopeStmts opens the wrapper's ffiimpl.CallbackScope: C may run the Go
// callback on this thread during the call (see ffiimpl.Recover).
func (m *model) scopeStmts() []jen.Code {
	return []jen.Code{
		jen.Id("cbScope").Op(":=").Qual(FFIImplPath, "EnterCallbacks").Call(),
		jen.Defer().Id("cbScope").Dot("Exit").Call(),
	}
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

// structRef returns the reference name of the record a by-value parameter
// type names, following typedefs to the one that has a Go name.
func (m *model) structRef(t *ir.Type) string {
	if m.typeName(t.Name) != "" {
		return t.Name
	}
	return m.resolve(t).Name
}

func (m *model) resultGoType(t *ir.Type) jen.Code {
	r := m.resolve(t)
	if r.Kind == ir.Pointer && r.Elem != nil && r.Elem.Kind == ir.Int && r.Elem.Size == 1 {
		return jen.String()
	}
	return m.goType(t)
}

// isConstRecordPtr reports a pointer to a const struct or union, a result
// the library keeps (nppGetLibVersion's static NppLibraryVersion): the
// wrapper returns a Go copy of it (nil for NULL), never C memory.
func (m *model) isConstRecordPtr(r *ir.Type) bool {
	return r.Kind == ir.Pointer && r.Elem != nil && r.Elem.Const && m.record(r.Elem) != nil
}

// isPointerResult reports a non-const pointer result the library listed
// in Overrides.PointerResults (NPP's allocators): returned as the typed
// Go pointer, never read.
func (m *model) isPointerResult(f *ir.Function, r *ir.Type) bool {
	return r.Kind == ir.Pointer && r.Elem != nil && !r.Elem.Const && r.Elem.Kind != ir.Void && m.desc.Overrides.PointerResult(f.Name)
}

// retConversion converts a scalar C result to its Go type: raw is the
// integer result register (a uintptr expression); float results come from
// the Frame, the only call path that returns them.
func (m *model) retConversion(t *ir.Type, raw jen.Code) jen.Code {
	r := m.resolve(t)
	switch {
	case r.Kind == ir.Pointer && r.Elem != nil && r.Elem.Kind == ir.Int && r.Elem.Size == 1:
		return jen.Qual(FFIImplPath, "GoString").Call(raw)
	case m.isConstRecordPtr(r):
		return jen.Qual(FFIImplPath, "CopyOut").Types(m.goType(r.Elem)).Call(raw)
	case r.Kind == ir.Float && r.Size == 4:
		return jen.Id("frame").Dot("RetFloat32").Call()
	case r.Kind == ir.Float:
		return jen.Id("frame").Dot("RetFloat64").Call()
	}
	return jen.Add(m.goType(t)).Call(raw)
}

// callArg is one C argument of a call: an integer-register word, or (for
// floats and by-value structs) the Frame statement that adds it.
type callArg struct {
	word  jen.Code
	frame jen.Code
}

// ffiIntsArgs is the number of arguments ffiimpl.CallInts takes.
const ffiIntsArgs = 6

// callsInts reports whether fn is called through ffiimpl.CallInts rather than
// a Frame: every argument an integer-register word and at most six of them,
// a result that is void, an integer or a pointer, and no Go callback (a
// callback needs the heap Frame, see the stack invariant on ffiimpl.Frame).
func (m *model) callsInts(fn *ir.Function, args []callArg, heap bool) bool {
	if heap || len(args) > ffiIntsArgs {
		return false
	}
	for _, a := range args {
		if a.frame != nil {
			return false
		}
	}
	if fn.Result.Kind == ir.Void {
		return true
	}
	if m.record(fn.Result) != nil {
		return false
	}
	return m.resolve(fn.Result).Kind != ir.Float
}

// launchArrayDoc explains the Go form of a launch's argument arrays.
func launchArrayDoc(ps []*param) string {
	var out []string
	for _, p := range ps {
		switch p.role {
		case roleKernelArgs:
			out = append(out, p.goName+" holds one pointer per kernel parameter, each to a Go value of the\n"+
				"parameter's C type (nil: NULL); CUDA copies the values when the launch is\n"+
				"enqueued, so they may change once the call returns.")
		case roleLaunchExtra:
			out = append(out, p.goName+" is the kernel's arguments packed into one buffer at the offsets\n"+
				"the kernel expects (nil: NULL); the wrapper passes it to C as\n"+
				"{CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,\n"+
				"CU_LAUNCH_PARAM_END}. Give either the pointers or the buffer, not both.")
		}
	}
	return strings.Join(out, "\n\n")
}
