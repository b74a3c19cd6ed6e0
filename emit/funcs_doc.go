package emit

import (
	"fmt"
	"strings"

	"github.com/cugen/cugen/parser/ir"
)

// This file writes a function wrapper's doc comment: the header's text
// (comments.go renders it) and what the wrapper adds to it.

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
