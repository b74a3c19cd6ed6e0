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
