package emit

import (
	"html"
	"regexp"
	"strings"

	"github.com/dave/jennifer/jen"
)

// Doxygen aliases CUDA's headers use, expanded to their text (from
// NVIDIA's Doxyfile conventions, shortened).
var doxyAliases = map[string]string{
	"notefnerr":                      "Note that this function may also return error codes from previous, asynchronous launches.",
	"note_null_stream":               "Note that this function uses standard default stream semantics.",
	"note_sync":                      "Note that this function exhibits synchronous behavior for most use cases.",
	"note_async":                     "Note that this function exhibits asynchronous behavior for most use cases.",
	"note_memset":                    "Note that this function is asynchronous with respect to the host unless the destination is pinned host memory.",
	"note_init_rt":                   "Note that this function may also return cudaErrorInitializationError, cudaErrorInsufficientDriver or cudaErrorNoDevice if this call tries to initialize internal CUDA RT state.",
	"note_callback":                  "Note that this function may not be called from a callback.",
	"note_string_api_deprecation":    "",
	"note_string_api_deprecation2":   "",
	"note_string_api_deprecation_50": "",
	"note_devptr_param":              "",
	// The texts below say in our words what NVIDIA's Doxygen aliases
	// expand to in the CUDA API reference manuals.
	"note_cudaKernel_t":           "A kernel handle (cudaKernel_t, from cudaLibraryGetKernel or cudaGetKernel) may be passed where this function takes a function symbol.",
	"note_graph_thread_safety":    "Graph objects are not thread-safe: calls that use the same graph must not run concurrently (see \"Graph object thread safety\" in the CUDA Runtime API manual).",
	"note_null_event":             "Passing a NULL event is an error (an invalid handle).",
	"note_destroy_ub":             "Using the handle after this call is undefined behavior.",
	"note_memcpy":                 "A copy may not span host memory that is partly registered with CUDA and partly not: the whole region must be registered, or (pageable) not at all.",
	"note_version_mixing":         "Which runtime, driver and library versions may be mixed is described in \"Rules for version mixing\" in the CUDA Runtime API manual.",
	"note_device_sync_deprecated": "Calling cudaDeviceSynchronize from device code was deprecated in CUDA 11.6 and is not supported for compute_90 and newer.",
}

// htmlTags are the inline HTML tags CUDA's comments use for emphasis.
var htmlTags = strings.NewReplacer("<b>", "", "</b>", "", "<i>", "", "</i>", "", "<tt>", "", "</tt>", "", "<em>", "", "</em>", "", "<br>", "", "<br/>", "")

var (
	refRE     = regexp.MustCompile(`::(\w+)(\(\))?`)
	inlineCmd = regexp.MustCompile(`\\(p|e|b|c|a|ref|em)\s+`)
	aliasRE   = regexp.MustCompile(`\\(\w+)`)
	paramLine = regexp.MustCompile(`^\\param(?:\[[a-z, ]+\])?\s+(\w+)\s*-?\s*`)
)

// convertDoc turns a Doxygen comment into Go doc text: \brief dropped,
// \param as a list, ::cuX as a doc link [X] where X is in this package,
// inline markup removed, aliases expanded, code blocks indented.
func (m *model) convertDoc(doc string) string {
	var out, deprecated []string
	inCode, inDeprecated := false, false
	for _, line := range strings.Split(doc, "\n") {
		l := strings.TrimRight(line, " ")
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, `\code`):
			inCode = true
			out = append(out, "")
			continue
		case strings.HasPrefix(t, `\endcode`):
			inCode = false
			out = append(out, "")
			continue
		case inCode:
			out = append(out, "\t"+l)
			continue
		}
		switch {
		case strings.HasPrefix(t, `\brief`):
			t = strings.TrimSpace(strings.TrimPrefix(t, `\brief`))
		case paramLine.MatchString(t):
			t = paramLine.ReplaceAllString(t, "  - $1: ")
		case strings.HasPrefix(t, `\returns`), strings.HasPrefix(t, `\return`):
			out = append(out, "")
			t = "Returns: " + strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(t, `\returns`), `\return`))
		case strings.HasPrefix(t, `\sa`):
			out = append(out, "")
			t = "See also: " + strings.TrimSpace(strings.TrimPrefix(t, `\sa`))
		case strings.HasPrefix(t, `\deprecated`):
			// Go wants the description first and the deprecation in a
			// paragraph of its own: the \deprecated paragraph is moved to
			// the end. A bare \deprecated (its reason, if any, is the
			// description that follows) becomes a short notice there.
			rest := strings.TrimSpace(strings.TrimPrefix(t, `\deprecated`))
			if rest == "" {
				deprecated = append(deprecated, "the header marks this deprecated.")
			} else {
				deprecated = append(deprecated, rest)
				inDeprecated = true
			}
			continue
		case inDeprecated && (t == "" || strings.HasPrefix(t, `\`)):
			inDeprecated = false
		case inDeprecated:
			deprecated = append(deprecated, t)
			continue
		case strings.HasPrefix(t, `\note`) && !aliasKnown(t):
			t = "Note: " + strings.TrimSpace(strings.TrimPrefix(t, `\note`))
		}
		// The regexps only run where they can match (most lines have no
		// markup at all): a third of convertDoc's time otherwise.
		if strings.Contains(t, "<") {
			t = htmlTags.Replace(t)
		}
		if strings.Contains(t, "&") {
			t = html.UnescapeString(t) // &times; -> ×
		}
		if strings.Contains(t, `\`) {
			t = inlineCmd.ReplaceAllString(t, "")
		}
		if strings.Contains(t, "::") {
			t = refRE.ReplaceAllStringFunc(t, m.docLink)
		}
		if !strings.Contains(t, `\`) {
			out = append(out, strings.TrimRight(t, " "))
			continue
		}
		t = aliasRE.ReplaceAllStringFunc(t, func(s string) string {
			name := s[1:]
			if v, ok := doxyAliases[name]; ok {
				return v
			}
			if name == "n" {
				return ""
			}
			return ""
		})
		out = append(out, strings.TrimRight(t, " "))
	}
	if len(deprecated) > 0 {
		d := m.convertDoc(strings.Join(deprecated, "\n"))
		out = append(out, "", "Deprecated: "+strings.Join(strings.Fields(d), " "))
	}
	// A list ends with a blank line: Go doc would otherwise read the next
	// line as a paragraph of its own (or a heading).
	var sep []string
	for i, l := range out {
		if i > 0 && strings.HasPrefix(out[i-1], "  - ") && strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "  ") {
			sep = append(sep, "")
		}
		if strings.TrimSpace(l) == "" {
			l = ""
		}
		sep = append(sep, l)
	}
	out = sep
	// Collapse runs of blank lines.
	var res []string
	for i, l := range out {
		if l == "" && (i == 0 || out[i-1] == "") {
			continue
		}
		res = append(res, l)
	}
	// A one-line paragraph without final punctuation would read as a
	// heading to gofmt; CUDA's \brief lines often lack the period.
	for i, l := range res {
		alone := (i == 0 || res[i-1] == "") && (i == len(res)-1 || res[i+1] == "")
		if alone && l != "" && !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "  ") && !strings.ContainsAny(l[len(l)-1:], ".:!?)]") {
			res[i] = l + "."
		}
	}
	return strings.TrimSpace(strings.Join(res, "\n"))
}

func aliasKnown(t string) bool {
	f := strings.Fields(t)
	if len(f) == 0 {
		return false
	}
	_, ok := doxyAliases[strings.TrimPrefix(f[0], `\`)]
	return ok
}

// docLink renders ::cuFoo as [Foo] when Foo is a function, type or constant
// of this package, else as the C name.
func (m *model) docLink(s string) string {
	name := strings.TrimSuffix(strings.TrimPrefix(s, "::"), "()")
	if m.funcByC == nil {
		// Index the functions once: a scan of funcNames per link was 15% of
		// Generate. API names first, then linked symbols, in header order,
		// so a name that could match two functions always picks the same.
		m.funcByC = make(map[string]string, 2*len(m.funcs))
		for _, f := range m.funcs {
			m.funcByC[f.Name] = m.funcNames[f]
		}
		for _, f := range m.funcs {
			if _, ok := m.funcByC[f.Symbol]; !ok {
				m.funcByC[f.Symbol] = m.funcNames[f]
			}
		}
	}
	if g, ok := m.funcByC[name]; ok {
		return "[" + g + "]"
	}
	if g := m.typeName(name); g != "" && !isBuiltinGo(g) {
		return "[" + g + "]"
	}
	if g, ok := m.valNames[name]; ok {
		return "[" + g + "]"
	}
	return name
}

func isBuiltinGo(s string) bool {
	switch s {
	case "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "uintptr":
		return true
	}
	return false
}

// firstSentence returns the first sentence of a paragraph, on one line.
func firstSentence(s string) string {
	s = strings.Join(strings.Fields(strings.SplitN(s, "\n\n", 2)[0]), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if s != "" && !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// docComment writes "// Name lead" followed by the converted header doc.
func (m *model) docComment(f *jen.File, name, lead, doc string) {
	text := name + " " + lead
	if d := m.convertDoc(doc); d != "" {
		text += "\n\n" + d
	}
	comment(f, text)
}

// comment writes text as // lines (jennifer would use /* */ for several).
func comment(f *jen.File, text string) {
	for _, l := range strings.Split(text, "\n") {
		f.Comment(strings.TrimRight(l, " \t"))
	}
}

// commentBlock is text as // lines followed by a new line, to prefix a
// const, var or field definition.
func commentBlock(text string) *jen.Statement {
	s := jen.Null()
	for _, l := range strings.Split(text, "\n") {
		s.Comment(strings.TrimRight(l, " \t")).Line()
	}
	return s
}
