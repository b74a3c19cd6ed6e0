package emit

import (
	"bytes"
	"fmt"
	"go/build/constraint"
	"go/scanner"
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text from outside cugen reaches the comments of generated Go: the
// headers' documentation, a description file's doc and title, cugen
// kernels' source name and kernel expressions, the command line and
// header set recorded in every file's header. A line of it could be a
// directive (//go:generate runs a shell command under go generate; //line
// moves positions; // +build drops a file), and a comment jennifer writes
// raw ("//...", "/*...") or as a block (several lines) could end early and
// turn the rest into code. commentLines is the one sanitiser every such
// text goes through, in the jennifer files and kernels.go alike;
// checkComments holds every rendered file to it afterwards.

// commentLines splits text into lines that are safe after "// ", and as
// jennifer's Comment (which writes a line starting with "//" or "/*" as
// it is): invalid UTF-8 becomes U+FFFD; every line break Go or an editor
// knows (\n, \r\n, \r, \v, \f, U+0085, U+2028, U+2029) ends a line;
// other control characters, the byte order mark (which Go rejects inside
// a file) and the bidirectional controls (which make a comment look like
// code) become spaces; a line starting with "//" or "/*" gets a space
// before it;
// "+build" becomes "+ build", so that no rewrapping can start a line with
// it; trailing blanks are trimmed. The lines of text that needs none of
// this (every NVIDIA header's) are its own.
func commentLines(text string) []string {
	if !strings.ContainsFunc(text, unsafeCommentRune) && utf8.ValidString(text) && !strings.Contains(text, "+build") {
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			lines[i] = safeLine(l)
		}
		return lines
	}
	text = strings.ToValidUTF8(text, "\uFFFD")
	var lines []string
	var b strings.Builder
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		switch {
		case r == '\r' && strings.HasPrefix(text[i:], "\n"):
			// \r\n is one break
		case lineBreak(r):
			lines = append(lines, safeLine(b.String()))
			b.Reset()
		case unsafeCommentRune(r):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return append(lines, safeLine(b.String()))
}

// commentText is text's commentLines joined by "\n", for the helpers
// that split it themselves (wrap, comment).
func commentText(text string) string { return strings.Join(commentLines(text), "\n") }

// commentOneLine is text on one comment line (a file header's, a
// kernel's signature): its lines joined by a space.
func commentOneLine(text string) string {
	lines := commentLines(text)
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return safeLine(strings.Join(lines, " "))
}

// lineBreak reports a rune that ends a line for Go (\n), or for a reader
// of the file (an editor, a diff): \r, \v, \f, NEL, LS, PS.
func lineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// unsafeCommentRune reports a rune commentLines replaces or breaks at:
// control characters but the tab, line breaks, the byte order mark and
// the bidirectional formatting controls.
func unsafeCommentRune(r rune) bool {
	switch {
	case r == '\t':
		return false
	case unicode.IsControl(r), lineBreak(r), r == 0xFEFF:
		return true
	case 0x202A <= r && r <= 0x202E, 0x2066 <= r && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	}
	return false
}

// safeLine is one line of commentLines: no trailing blanks, no leading
// "//" or "/*", no "+build".
func safeLine(l string) string {
	l = strings.TrimRight(l, " \t")
	l = strings.ReplaceAll(l, "+build", "+ build")
	if strings.HasPrefix(l, "//") || strings.HasPrefix(l, "/*") {
		return " " + l // jennifer would write it as it is
	}
	return l
}

// checkComments holds a rendered Go file to what the generator writes:
// only // comments, none of them a directive (//go:..., //line, //export,
// //extern, // +build or anything else "//" runs into without a blank)
// but those allowed lists exactly, and no line that go generate, which
// reads lines rather than tokens, would take for its directive. It is the
// backstop of commentLines: a text that reached a comment without it is
// an error naming the file and line, never code.
func checkComments(name string, src []byte, allowed ...string) error {
	fset := token.NewFileSet()
	file := fset.AddFile(name, -1, len(src))
	var s scanner.Scanner
	var scanErr error
	s.Init(file, src, func(pos token.Position, msg string) {
		if scanErr == nil {
			scanErr = fmt.Errorf("%s: %s", pos, msg)
		}
	}, scanner.ScanComments)
	used := 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.COMMENT {
			continue
		}
		switch {
		case strings.HasPrefix(lit, "/*"):
			return fmt.Errorf("%s: a /* */ comment: generated comments are // lines", fset.Position(pos))
		case directiveComment(lit):
			if used < len(allowed) && lit == allowed[used] {
				used++
				continue
			}
			return fmt.Errorf("%s: the comment %.60q is a directive the generator does not write", fset.Position(pos), lit)
		}
	}
	if scanErr != nil {
		return scanErr
	}
	// go generate reads lines, not tokens: a line inside a string would do.
	const gen = "//go:generate"
	for i := 0; i < len(src); {
		j := bytes.Index(src[i:], []byte(gen))
		if j < 0 {
			break
		}
		if i+j == 0 || src[i+j-1] == '\n' {
			return fmt.Errorf("%s:%d: a //go:generate line", name, bytes.Count(src[:i+j], []byte("\n"))+1)
		}
		i += j + len(gen)
	}
	return nil
}

// directiveComment reports a // comment that is not plain text to Go's
// tools: "//" followed by anything but a blank (//go:embed, //line,
// //export, //extern, //sys, //nolint), or a build constraint.
func directiveComment(c string) bool {
	rest, ok := strings.CutPrefix(c, "//")
	if !ok {
		return false
	}
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return true
	}
	return constraint.IsPlusBuild(c) || constraint.IsGoBuild(c)
}
