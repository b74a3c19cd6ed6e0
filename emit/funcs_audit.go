package emit

import (
	"fmt"
	"strings"

	"github.com/cugen/cugen/parser/ir"
)

// This file renders the audit file's lines for a function wrapper from
// the roles classify gave its parameters.

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
