package emit

import (
	"strings"
	"unicode"
)

// commentWidth is the column generated comments end by, counting a tab as
// four columns, as the headers' own text and gofmt'd Go mostly do.
const commentWidth = 80

// docCommentWidth is the width of a top-level doc comment's text.
const docCommentWidth = commentWidth - 3

// specCommentWidth is the width of a comment's text before a spec of a
// const block: the tab, then "// ".
const specCommentWidth = commentWidth - 4 - 3

// wrapText reflows each paragraph of a doc comment's text to at most width
// characters, breaking only at spaces (Go doc joins the lines of a
// paragraph, so this changes no meaning); a word longer than width keeps a
// line of its own. Code lines (tab-indented) are kept whole. A list item
// ("  - name: text") and its indented continuation lines are one
// paragraph, continued indented to its text. A wrapped line never starts
// with what Go doc comments read as a list marker ("-", "+", "*", "1." or
// "1)"), which gofmt would then turn into a list.
func wrapText(text string, width int) string {
	var out []string
	var para string // the paragraph being joined
	flush := func() {
		if para != "" {
			out = append(out, wrapLine(para, width)...)
		}
		para = ""
	}
	for _, line := range strings.Split(text, "\n") {
		body := strings.TrimLeft(line, " ")
		indented := body != line
		item := false
		if w, _, _ := strings.Cut(body, " "); indented && listMarker(w) {
			item = true
		}
		switch {
		case strings.TrimSpace(line) == "", strings.HasPrefix(line, "\t"):
			flush()
			out = append(out, line)
		case para == "", item, indented != (para[0] == ' '):
			flush()
			para = strings.TrimRight(line, " ")
		default:
			para += " " + strings.TrimSpace(line)
		}
	}
	flush()
	return strings.Join(out, "\n")
}

// wrap is wrapLine's lines joined: one paragraph or list item broken at
// spaces into lines of at most width characters.
func wrap(line string, width int) string { return strings.Join(wrapLine(line, width), "\n") }

func wrapLine(line string, width int) []string {
	if len(line) <= width || strings.HasPrefix(line, "\t") {
		return []string{line}
	}
	body := strings.TrimLeft(line, " ")
	first := line[:len(line)-len(body)] // the indentation
	cont := first
	if w, rest, _ := strings.Cut(body, " "); first != "" && listMarker(w) {
		first += w + " "
		cont += strings.Repeat(" ", len(w)+1)
		body = rest
	}
	words := strings.Fields(body)
	if len(words) == 0 {
		return []string{line}
	}
	var lines [][]string
	var cur []string
	n := len(first) // length of the line so far
	for _, w := range words {
		if len(cur) > 0 && n+1+len(w) > width {
			if listMarker(w) && len(cur) > 1 {
				// Carry the last word over, so the marker is not first.
				last := cur[len(cur)-1]
				lines = append(lines, cur[:len(cur)-1])
				cur, n = []string{last}, len(cont)+len(last)
			} else {
				lines = append(lines, cur)
				cur, n = nil, len(cont)
			}
		}
		if len(cur) > 0 {
			n++
		}
		cur = append(cur, w)
		n += len(w)
	}
	lines = append(lines, cur)
	out := make([]string, len(lines))
	for i, l := range lines {
		prefix := cont
		if i == 0 {
			prefix = first
		}
		out[i] = prefix + strings.Join(l, " ")
	}
	return out
}

// listMarker reports whether a line starting with word w would be a list
// item in a Go doc comment.
func listMarker(w string) bool {
	switch w {
	case "-", "+", "*", "•":
		return true
	}
	digits := strings.TrimRightFunc(w, func(r rune) bool { return r == '.' || r == ')' })
	if len(digits) == len(w)-1 && digits != "" {
		for _, r := range digits {
			if !unicode.IsDigit(r) {
				return false
			}
		}
		return true
	}
	return false
}

// wrapComments rewraps, in gofmt'd Go source, each group of full-line //
// comments (consecutive lines at one indentation) that has a line past
// commentWidth columns, a tab counting four, at the width left after its
// indentation and "// ": the one place every generated comment is held
// to the width, whichever part of emit wrote it. A group within the
// width is left as it is; code lines (//\t...) and a word longer than
// the width keep their lines (see wrapText); directives (//go:) are not
// comments to wrap. The file's header lines (the group at line 1) are
// left whole: the marker line must be one line.
func wrapComments(src []byte) []byte {
	lines := strings.Split(string(src), "\n")
	var out []string
	changed := false
	for i := 0; i < len(lines); {
		indent, ok := isLineComment(lines[i])
		if !ok {
			out = append(out, lines[i])
			i++
			continue
		}
		j := i + 1
		for j < len(lines) {
			if in, ok := isLineComment(lines[j]); !ok || in != indent {
				break
			}
			j++
		}
		group := lines[i:j]
		if i == 0 || !needsWrap(group) {
			out = append(out, group...)
			i = j
			continue
		}
		texts := make([]string, len(group))
		for k, l := range group {
			t := strings.TrimPrefix(l[len(indent):], "//")
			texts[k] = strings.TrimPrefix(t, " ")
		}
		width := commentWidth - columns(indent) - 3
		for _, t := range strings.Split(wrapText(strings.Join(texts, "\n"), width), "\n") {
			switch {
			case t == "":
				out = append(out, indent+"//")
			case strings.HasPrefix(t, "\t"):
				out = append(out, indent+"//"+t)
			default:
				out = append(out, indent+"// "+t)
			}
		}
		changed = true
		i = j
	}
	if !changed {
		return src
	}
	return []byte(strings.Join(out, "\n"))
}

// isLineComment reports whether l is a full-line // comment (not a
// directive such as //go:build), and its indentation.
func isLineComment(l string) (indent string, ok bool) {
	body := strings.TrimLeft(l, "\t")
	if !strings.HasPrefix(body, "//") {
		return "", false
	}
	if rest := body[2:]; rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", false // //go:generate, //line, //export
	}
	return l[:len(l)-len(body)], true
}

// needsWrap reports a comment group with a line of text (not code) past
// commentWidth columns.
func needsWrap(group []string) bool {
	for _, l := range group {
		if columns(l) > commentWidth && !preformatted(l) {
			return true
		}
	}
	return false
}

// preformatted reports a comment line that cannot be wrapped: a code line
// (//\t...), or one word (after a list marker) longer than the width.
func preformatted(l string) bool {
	body := strings.TrimLeft(l, "\t")
	body = strings.TrimPrefix(body, "//")
	if strings.HasPrefix(body, "\t") {
		return true
	}
	words := strings.Fields(body)
	if len(words) == 2 && listMarker(words[0]) {
		words = words[1:]
	}
	return len(words) == 1
}

// columns is the width of l with a tab as four columns.
func columns(l string) int {
	n := 0
	for _, r := range l {
		if r == '\t' {
			n += 4
		} else {
			n++
		}
	}
	return n
}
