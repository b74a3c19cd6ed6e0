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
	if strings.TrimSpace(text) == "" {
		return comment{}
	}
	// Doxygen takes @cmd for \cmd; NVML's header writes @param.
	if strings.Contains(text, "@") {
		text = atCommandRE.ReplaceAllString(text, `$1\$2`)
	}
	p := &docParser{d: &ir.Doc{}, rawCur: -1}
	for _, line := range strings.Split(text, "\n") {
		p.line(line)
	}
	return p.finish()
}

// docSection is the part of a doc comment the open lines belong to.
type docSection int

const (
	sectionNone docSection = iota
	sectionBrief
	sectionPara
	sectionList
	sectionParam
	sectionReturns
	sectionNote
	sectionSeeAlso
	sectionDeprecated
)

// docParser is parseDoc's state between lines: the Doc so far, the open
// section and its lines, and the blocks (code, table, skipped output
// format) a line may be inside.
type docParser struct {
	c      comment
	d      *ir.Doc
	state  docSection
	buf    []string // the open section's lines
	code   []string // the lines of an open \code block
	inCode bool
	skipTo string   // the command that ends a skipped block
	table  []string // the lines of an open <table>
	rawCur int      // the c.params entry a line may continue; -1: none
}

// line reads one line of the comment.
func (p *docParser) line(line string) {
	t := strings.TrimSpace(line)
	// The regexps run only where they can match: most lines are text.
	var pm []string
	if strings.HasPrefix(t, `\param`) {
		pm = paramRE.FindStringSubmatch(t)
	}
	p.rawParam(t, pm)
	if p.block(t, line) {
		return
	}
	if m := pm; m != nil {
		p.flush()
		p.d.Params = append(p.d.Params, ir.ParamDoc{Name: m[2], Dir: strings.ReplaceAll(m[1], " ", "")})
		p.open(sectionParam, m[3])
		return
	}
	if m := commandAt(t); m != nil && p.command(m[1], m[2]) {
		return
	}
	p.text(t, line)
}

// rawParam keeps what the function classifier reads: the \param texts as
// before (a \param line, then lines up to a blank one or one that starts
// with a command) and the first word of \brief. pm is t's \param match.
func (p *docParser) rawParam(t string, pm []string) {
	c := &p.c
	if m := pm; m != nil {
		c.params = append(c.params, paramDoc{name: m[2], text: m[3], tag: strings.ReplaceAll(m[1], " ", "")})
		p.rawCur = len(c.params) - 1
	} else if p.rawCur >= 0 {
		if t == "" || strings.HasPrefix(t, `\`) {
			p.rawCur = -1
		} else {
			c.params[p.rawCur].text = strings.TrimSpace(c.params[p.rawCur].text + " " + t)
		}
	}
	if c.brief == "" {
		if rest, ok := strings.CutPrefix(t, `\brief`); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				c.brief = strings.ToLower(f[0])
			}
		}
	}
}

// block reads a line inside a table, a skipped block or a code block, or
// a blank line, and reports whether it did.
func (p *docParser) block(t, line string) bool {
	switch {
	case p.table != nil || strings.HasPrefix(t, "<table"):
		p.table = append(p.table, t)
		if strings.Contains(t, "</table>") {
			p.flush()
			p.d.Body = append(p.d.Body, parseTable(strings.Join(p.table, " ")))
			p.table = nil
		}
	case p.skipTo != "":
		if strings.HasPrefix(t, `\`+p.skipTo) {
			p.skipTo = ""
		}
	case p.inCode:
		if strings.HasPrefix(t, `\endcode`) {
			p.inCode = false
			p.d.Body = append(p.d.Body, ir.Block{Kind: ir.Code, Text: strings.Join(trimCode(p.code), "\n")})
			p.code = nil
		} else {
			p.code = append(p.code, strings.TrimRight(strings.ReplaceAll(line, "\t", "    "), " "))
		}
	case t == "":
		p.flush()
	default:
		return false
	}
	return true
}

// command reads a line that starts with the command cmd, rest after it,
// and reports whether it knew the command; an unknown one is text.
func (p *docParser) command(cmd, rest string) bool {
	if alias, ok := doxyAliases[cmd]; ok {
		p.flush()
		if alias != "" {
			p.d.Notes = append(p.d.Notes, alias)
		}
		if rest != "" {
			p.open(sectionPara, rest)
		}
		return true
	}
	switch {
	case cmd == "code":
		p.flush()
		p.inCode = true
	case doxySkip[cmd] != "":
		p.flush()
		p.skipTo = doxySkip[cmd]
	case doxyDropLine[cmd]:
		p.flush()
	case cmd == "brief" || cmd == "short":
		p.open(sectionBrief, rest)
	case cmd == "details" || cmd == "par":
		p.open(sectionPara, rest)
	case cmd == "section" || cmd == "subsection":
		// \section name Title: the title is a paragraph.
		f := strings.Fields(rest)
		p.open(sectionPara, strings.Join(f[min(1, len(f)):], " "))
		p.flush()
	case cmd == "note" || cmd == "remark" || cmd == "remarks" || cmd == "attention" || cmd == "warning":
		p.open(sectionNote, rest)
	case cmd == "return" || cmd == "returns":
		p.open(sectionReturns, rest)
	case cmd == "sa" || cmd == "see":
		p.open(sectionSeeAlso, rest)
	case cmd == "deprecated":
		p.flush()
		p.d.Deprecated = true
		if rest != "" {
			p.open(sectionDeprecated, rest)
		}
	default:
		return false
	}
	return true
}

// text reads a line of text: a list item, or a line that opens or
// continues a section.
func (p *docParser) text(t, line string) {
	item, isItem := listItem(t)
	switch state := p.state; {
	case isItem && (state == sectionNone || state == sectionPara || state == sectionList || state == sectionBrief):
		// A list item of the description. (Inside a \param, \return
		// or \note a "- " line continues the entry.)
		p.open(sectionList, item)
	case isItem && state == sectionReturns:
		p.buf = append(p.buf, item+",")
	case state == sectionList && line != strings.TrimLeft(line, " \t"):
		p.buf = append(p.buf, t) // an indented line continues the item
	case state == sectionNone || state == sectionList:
		if htmlTagRE.ReplaceAllString(t, "") == "" {
			return // a line of tags only (<ul>, </table>)
		}
		p.open(sectionPara, t)
	case p.titleLine() && startsSentence(t):
		// "\brief Initialize the CUDA driver API" directly followed by
		// "Initializes the driver API and ...": the brief is its line.
		// So is a comment's first line, a title, without \brief ("CUDA
		// device pointer" above "CUdeviceptr is defined as ..."). A
		// longer line is a sentence that goes on ("... by the installed"
		// above "CUDA driver.").
		p.open(sectionPara, t)
	default:
		p.buf = append(p.buf, t)
	}
}

// titleLine reports whether the open section is a brief, or the comment's
// first paragraph, of one short line that does not end a sentence: a
// title, which a line that starts a sentence does not continue.
func (p *docParser) titleLine() bool {
	first := p.state == sectionBrief || p.state == sectionPara && p.d.Brief == "" && len(p.d.Body) == 0
	return first && len(p.buf) == 1 && len(strings.Fields(p.buf[0])) <= 6 && !strings.ContainsAny(p.buf[0][len(p.buf[0])-1:], ".:!?")
}

// open closes the open section and opens s, with first as its first line.
func (p *docParser) open(s docSection, first string) {
	p.flush()
	p.state = s
	if first != "" {
		p.buf = append(p.buf, first)
	}
}

// flush closes the open section into the Doc.
func (p *docParser) flush() {
	d := p.d
	t := inlineText(strings.Join(p.buf, " "))
	switch p.state {
	case sectionBrief:
		d.Brief = t
	case sectionPara:
		if t != "" {
			d.Body = append(d.Body, ir.Block{Kind: ir.Paragraph, Text: t})
		}
	case sectionList:
		if t != "" {
			if n := len(d.Body); n > 0 && d.Body[n-1].Kind == ir.List {
				d.Body[n-1].Items = append(d.Body[n-1].Items, t)
			} else {
				d.Body = append(d.Body, ir.Block{Kind: ir.List, Items: []string{t}})
			}
		}
	case sectionParam:
		d.Params[len(d.Params)-1].Text = t
	case sectionReturns:
		d.Returns = joinText(d.Returns, t)
	case sectionNote:
		if t != "" {
			d.Notes = append(d.Notes, t)
		}
	case sectionSeeAlso:
		for _, n := range strings.Split(t, ",") {
			n = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(n), "::"), "()")
			n = strings.TrimSpace(strings.TrimSuffix(n, "."))
			if n != "" {
				d.SeeAlso = append(d.SeeAlso, n)
			}
		}
	case sectionDeprecated:
		d.DeprecatedText = joinText(d.DeprecatedText, t)
	}
	p.state, p.buf = sectionNone, nil
}

// finish closes what the comment left open and returns it, with a nil Doc
// if it documents nothing.
func (p *docParser) finish() comment {
	d := p.d
	if p.table != nil {
		d.Body = append(d.Body, parseTable(strings.Join(p.table, " ")))
	}
	if p.inCode && len(p.code) > 0 {
		d.Body = append(d.Body, ir.Block{Kind: ir.Code, Text: strings.Join(trimCode(p.code), "\n")})
	}
	p.flush()
	d.Returns = strings.TrimSuffix(d.Returns, ",")
	if d.Empty() {
		return p.c
	}
	p.c.doc = d
	return p.c
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
