package parser

import (
	"html"
	"regexp"
	"strings"

	"github.com/cugen/cugen/parser/ir"
)

// This file reads Doxygen, once: parseDoc turns a comment (its markers
// already removed by cleanComment) into an ir.Doc, and hands the function
// classifier its \param texts as written.

// doxyAliases are the Doxygen aliases CUDA's headers use, expanded to their
// text (from NVIDIA's Doxyfile conventions, in our words). An empty text
// drops the alias. At the start of a line an alias is a note.
var doxyAliases = map[string]string{
	"notefnerr":                      "This function may also return error codes from previous, asynchronous launches.",
	"note_null_stream":               "This function uses standard default stream semantics.",
	"note_sync":                      "This function exhibits synchronous behavior for most use cases.",
	"note_async":                     "This function exhibits asynchronous behavior for most use cases.",
	"note_memset":                    "This function is asynchronous with respect to the host unless the destination is pinned host memory.",
	"note_init_rt":                   "This function may also return cudaErrorInitializationError, cudaErrorInsufficientDriver or cudaErrorNoDevice if this call tries to initialize internal CUDA RT state.",
	"note_callback":                  "This function may not be called from a callback.",
	"note_string_api_deprecation":    "",
	"note_string_api_deprecation2":   "",
	"note_string_api_deprecation_50": "",
	"note_devptr_param":              "",
	"note_cudaKernel_t":              "A kernel handle (cudaKernel_t, from cudaLibraryGetKernel or cudaGetKernel) may be passed where this function takes a function symbol.",
	"note_graph_thread_safety":       "Graph objects are not thread-safe: calls that use the same graph must not run concurrently (see \"Graph object thread safety\" in the CUDA Runtime API manual).",
	"note_null_event":                "Passing a NULL event is an error (an invalid handle).",
	"note_destroy_ub":                "Using the handle after this call is undefined behavior.",
	"note_memcpy":                    "A copy may not span host memory that is partly registered with CUDA and partly not: the whole region must be registered, or (pageable) not at all.",
	"note_version_mixing":            "Which runtime, driver and library versions may be mixed is described in \"Rules for version mixing\" in the CUDA Runtime API manual.",
	"note_device_sync_deprecated":    "Calling cudaDeviceSynchronize from device code was deprecated in CUDA 11.6 and is not supported for compute_90 and newer.",
	"link_sync_behavior":             "",
}

// Structural commands that carry nothing a declaration's documentation
// needs: the line is dropped.
var doxyDropLine = map[string]bool{
	"defgroup": true, "ingroup": true, "addtogroup": true, "file": true, "struct": true, "typedef": true,
	"page": true, "cond": true, "endcond": true, "fn": true, "var": true, "enum": true, "{": true, "}": true,
}

// doxySkip are the output-format blocks dropped with their contents.
var doxySkip = map[string]string{"xmlonly": "endxmlonly", "latexonly": "endlatexonly", "htmlonly": "endhtmlonly", "internal": "endinternal"}

var (
	// paramRE is a \param line: \param x, \param[in] x, \param [in] x
	// (nvrtc.h), with an optional "-" before the text.
	atCommandRE = regexp.MustCompile(`(?m)^(\s*)@(param|returns?|retval|brief|note|see|sa|deprecated)\b`)
	paramRE     = regexp.MustCompile(`^\\param\s*(?:\[([a-z, ]+)\])?\s+(\w+)\s*-?\s*(.*)$`)
	commandRE   = regexp.MustCompile(`^\\(\w+|\{|\})\s*(.*)$`)

	linkRE    = regexp.MustCompile(`\\link\s+#?(?:::)?([\w:]+)\s*(.*?)\s*\\endlink`)
	refQRE    = regexp.MustCompile(`\\ref\s+\S+?(?:\([^)]*\))?\s+"([^"]*)"`)
	refRE     = regexp.MustCompile(`\\ref\s+#?(?:::)?(\w+)(?:\([^)]*\))?`)
	emphRE    = regexp.MustCompile(`\\(?:e|b|c|a|em)\s+`)
	commandIn = regexp.MustCompile(`\\(\w+)`)
	// emphasisRE are the inline HTML tags, removed; htmlTagRE the tags
	// that separate words (breaks, lists, tables), replaced by a space.
	emphasisRE = regexp.MustCompile(`</?(?:b|i|tt|em|small|c|code)>`)
	htmlTagRE  = regexp.MustCompile(`</?(?:br|ul|ol|li|table|tr|td|th|thead|tbody|tgroup|row|entry|p)\s*/?>`)
	breakRE    = regexp.MustCompile(`\\n\b`)
	wordRE     = regexp.MustCompile(`^\w+$`)
	// typoRE is a \p written without its space before a handle parameter
	// (cuda.h's \phEvent, \phCtx): "p" and a name like hEvent.
	typoRE = regexp.MustCompile(`^p[a-z][A-Z]\w*$`)
	// escapeRE is a Doxygen escape: \<arch\> in nvrtc.h is "<arch>".
	escapeRE = regexp.MustCompile(`\\([<>#&$@%\\".|-]|::)`)
)

// paramDoc is one \param entry as the function classifier reads it: the
// text as written (markup and all) up to a blank line or a line that
// starts with a command. The out-parameter phrases were tuned on this form.
type paramDoc struct {
	name string
	text string
	tag  string // "in", "out", "in,out" from \param[...], if written
}

// comment is a parsed doc comment: the IR and what the classifier reads.
type comment struct {
	doc    *ir.Doc
	params []paramDoc // the \param entries as written
	brief  string     // the first word of \brief as written, lower case
}

// parseDoc parses a comment. An empty comment gives a nil Doc.
func parseDoc(text string) comment {
	var c comment
	if strings.TrimSpace(text) == "" {
		return c
	}
	// Doxygen takes @cmd for \cmd; NVML's header writes @param.
	if strings.Contains(text, "@") {
		text = atCommandRE.ReplaceAllString(text, `$1\$2`)
	}
	d := &ir.Doc{}
	const (
		none = iota
		inBrief
		inPara
		inList
		inParam
		inReturns
		inNote
		inSeeAlso
		inDeprecated
	)
	state := none
	var buf []string // the open section's lines
	var code []string
	inCode, skipTo := false, ""
	var table []string // the lines of an open <table>
	rawCur := -1
	flush := func() {
		t := inlineText(strings.Join(buf, " "))
		switch state {
		case inBrief:
			d.Brief = t
		case inPara:
			if t != "" {
				d.Body = append(d.Body, ir.Block{Kind: ir.Paragraph, Text: t})
			}
		case inList:
			if t != "" {
				if n := len(d.Body); n > 0 && d.Body[n-1].Kind == ir.List {
					d.Body[n-1].Items = append(d.Body[n-1].Items, t)
				} else {
					d.Body = append(d.Body, ir.Block{Kind: ir.List, Items: []string{t}})
				}
			}
		case inParam:
			d.Params[len(d.Params)-1].Text = t
		case inReturns:
			d.Returns = joinText(d.Returns, t)
		case inNote:
			if t != "" {
				d.Notes = append(d.Notes, t)
			}
		case inSeeAlso:
			for _, n := range strings.Split(t, ",") {
				n = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(n), "::"), "()")
				n = strings.TrimSpace(strings.TrimSuffix(n, "."))
				if n != "" {
					d.SeeAlso = append(d.SeeAlso, n)
				}
			}
		case inDeprecated:
			d.DeprecatedText = joinText(d.DeprecatedText, t)
		}
		state, buf = none, nil
	}
	open := func(s int, first string) {
		flush()
		state = s
		if first != "" {
			buf = append(buf, first)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		// The regexps run only where they can match: most lines are text.
		var pm []string
		if strings.HasPrefix(t, `\param`) {
			pm = paramRE.FindStringSubmatch(t)
		}
		// The classifier's \param texts, as before: a \param line, then
		// lines up to a blank one or one that starts with a command.
		if m := pm; m != nil {
			c.params = append(c.params, paramDoc{name: m[2], text: m[3], tag: strings.ReplaceAll(m[1], " ", "")})
			rawCur = len(c.params) - 1
		} else if rawCur >= 0 {
			if t == "" || strings.HasPrefix(t, `\`) {
				rawCur = -1
			} else {
				c.params[rawCur].text = strings.TrimSpace(c.params[rawCur].text + " " + t)
			}
		}
		if c.brief == "" {
			if rest, ok := strings.CutPrefix(t, `\brief`); ok {
				if f := strings.Fields(rest); len(f) > 0 {
					c.brief = strings.ToLower(f[0])
				}
			}
		}

		switch {
		case table != nil || strings.HasPrefix(t, "<table"):
			table = append(table, t)
			if strings.Contains(t, "</table>") {
				flush()
				d.Body = append(d.Body, parseTable(strings.Join(table, " ")))
				table = nil
			}
			continue
		case skipTo != "":
			if strings.HasPrefix(t, `\`+skipTo) {
				skipTo = ""
			}
			continue
		case inCode:
			if strings.HasPrefix(t, `\endcode`) {
				inCode = false
				d.Body = append(d.Body, ir.Block{Kind: ir.Code, Text: strings.Join(trimCode(code), "\n")})
				code = nil
			} else {
				code = append(code, strings.TrimRight(strings.ReplaceAll(line, "\t", "    "), " "))
			}
			continue
		case t == "":
			flush()
			continue
		}
		if m := pm; m != nil {
			flush()
			d.Params = append(d.Params, ir.ParamDoc{Name: m[2], Dir: strings.ReplaceAll(m[1], " ", "")})
			open(inParam, m[3])
			continue
		}
		if m := commandAt(t); m != nil {
			cmd, rest := m[1], m[2]
			if alias, ok := doxyAliases[cmd]; ok {
				flush()
				if alias != "" {
					d.Notes = append(d.Notes, alias)
				}
				if rest != "" {
					open(inPara, rest)
				}
				continue
			}
			switch {
			case cmd == "code":
				flush()
				inCode = true
				continue
			case doxySkip[cmd] != "":
				flush()
				skipTo = doxySkip[cmd]
				continue
			case doxyDropLine[cmd]:
				flush()
				continue
			case cmd == "brief" || cmd == "short":
				open(inBrief, rest)
				continue
			case cmd == "details" || cmd == "par":
				open(inPara, rest)
				continue
			case cmd == "section" || cmd == "subsection":
				// \section name Title: the title is a paragraph.
				f := strings.Fields(rest)
				open(inPara, strings.Join(f[min(1, len(f)):], " "))
				flush()
				continue
			case cmd == "note" || cmd == "remark" || cmd == "remarks" || cmd == "attention" || cmd == "warning":
				open(inNote, rest)
				continue
			case cmd == "return" || cmd == "returns":
				open(inReturns, rest)
				continue
			case cmd == "sa" || cmd == "see":
				open(inSeeAlso, rest)
				continue
			case cmd == "deprecated":
				flush()
				d.Deprecated = true
				if rest != "" {
					open(inDeprecated, rest)
				}
				continue
			}
		}
		item, isItem := listItem(t)
		switch {
		case isItem && (state == none || state == inPara || state == inList || state == inBrief):
			// A list item of the description. (Inside a \param, \return
			// or \note a "- " line continues the entry.)
			open(inList, item)
		case isItem && state == inReturns:
			buf = append(buf, item+",")
		case state == inList && line != strings.TrimLeft(line, " \t"):
			buf = append(buf, t) // an indented line continues the item
		case state == none || state == inList:
			if htmlTagRE.ReplaceAllString(t, "") == "" {
				continue // a line of tags only (<ul>, </table>)
			}
			open(inPara, t)
		case (state == inBrief || state == inPara && d.Brief == "" && len(d.Body) == 0) && len(buf) == 1 && len(strings.Fields(buf[0])) <= 6 && !strings.ContainsAny(buf[0][len(buf[0])-1:], ".:!?") && startsSentence(t):
			// "\brief Initialize the CUDA driver API" directly followed by
			// "Initializes the driver API and ...": the brief is its line.
			// So is a comment's first line, a title, without \brief ("CUDA
			// device pointer" above "CUdeviceptr is defined as ..."). A
			// longer line is a sentence that goes on ("... by the installed"
			// above "CUDA driver.").
			open(inPara, t)
		default:
			buf = append(buf, t)
		}
	}
	if table != nil {
		d.Body = append(d.Body, parseTable(strings.Join(table, " ")))
	}
	if inCode && len(code) > 0 {
		d.Body = append(d.Body, ir.Block{Kind: ir.Code, Text: strings.Join(trimCode(code), "\n")})
	}
	flush()
	d.Returns = strings.TrimSuffix(d.Returns, ",")
	if d.Empty() {
		return c
	}
	c.doc = d
	return c
}

var (
	rowRE  = regexp.MustCompile(`<tr[^>]*>`)
	cellRE = regexp.MustCompile(`<t[dh][^>]*>`)
)

// parseTable reads an HTML table (cuArray3DCreate's extents): one row per
// <tr>, one cell per <td> or <th>.
func parseTable(html string) ir.Block {
	b := ir.Block{Kind: ir.Table}
	for _, row := range rowRE.Split(html, -1)[1:] {
		var cells []string
		for _, cell := range cellRE.Split(row, -1)[1:] {
			cells = append(cells, inlineText(strings.NewReplacer("</td>", "", "</th>", "", "</tr>", "", "</table>", "").Replace(cell)))
		}
		if len(cells) > 0 {
			b.Rows = append(b.Rows, cells)
		}
	}
	return b
}

// commandAt matches a line that starts with a command: the command's name
// and the rest of the line. Most lines are text: the regexp runs only on
// those that start with a backslash.
func commandAt(t string) []string {
	if !strings.HasPrefix(t, `\`) {
		return nil
	}
	return commandRE.FindStringSubmatch(t)
}

// listItem reports whether a line starts a list item ("- text", "-# text",
// "<li>text") and returns the item's text.
func listItem(t string) (string, bool) {
	switch {
	case strings.HasPrefix(t, "- "):
		return strings.TrimSpace(t[2:]), true
	case strings.HasPrefix(t, "-# "):
		return strings.TrimSpace(t[3:]), true
	case strings.HasPrefix(t, "<li>"):
		return strings.TrimSpace(t[4:]), true
	}
	return "", false
}

// startsSentence reports whether a line starts with an upper-case letter.
func startsSentence(t string) bool {
	return t != "" && t[0] >= 'A' && t[0] <= 'Z'
}

// joinText joins two pieces of a section's text with a space.
func joinText(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + " " + b
}

// trimCode removes a code block's blank lines at either end and the
// indentation all its lines share.
func trimCode(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) >= indent && indent > 0 {
			l = l[indent:]
		}
		out[i] = l
	}
	return out
}

// inlineText turns a section's text into the IR's inline form (see
// ir.Doc): tags, emphasis and line breaks removed, entities decoded,
// \link and \ref as "::name" or their text, aliases expanded, unknown
// commands dropped, spaces collapsed.
func inlineText(s string) string {
	if strings.Contains(s, "<") {
		s = htmlTagRE.ReplaceAllString(emphasisRE.ReplaceAllString(s, ""), " ")
	}
	if strings.Contains(s, "&") {
		// NVML writes "Kepler &tm;" for the trademark sign, an entity HTML
		// does not have (it is &trade;).
		s = html.UnescapeString(strings.ReplaceAll(s, "&tm;", "&trade;")) // &times; -> ×
	}
	// Most texts have no command but \p, which stays: the regexps run
	// only where one can match.
	if n := strings.Count(s, `\`); n > 0 && n != strings.Count(s, `\p `) {
		s = escapeRE.ReplaceAllString(s, "$1")
		s = linkRE.ReplaceAllStringFunc(s, func(l string) string {
			m := linkRE.FindStringSubmatch(l)
			text := strings.TrimSpace(m[2])
			switch {
			case text == "":
				return "::" + m[1]
			case wordRE.MatchString(text):
				return "::" + text
			}
			return text
		})
		s = refQRE.ReplaceAllString(s, "$1")
		s = refRE.ReplaceAllString(s, "::$1")
		s = emphRE.ReplaceAllString(s, "")
		s = breakRE.ReplaceAllString(s, " ")
		s = commandIn.ReplaceAllStringFunc(s, func(c string) string {
			name := c[1:]
			switch {
			case name == "p":
				return c
			case typoRE.MatchString(name):
				return `\p ` + name[1:] // \phEvent: \p hEvent
			}
			return doxyAliases[name] // unknown commands are dropped
		})
	}
	return strings.Join(strings.Fields(s), " ")
}
