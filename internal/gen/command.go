package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Command is the cugen gen command line that regenerates out, which
// every generated file records under its marker line (emit.Options.Command):
// the flags that decide what is written, each path relative to the root of
// the module cugen runs in (the command runs from there), so it names no
// machine's directories. The output directory comes from its import path
// when that is inside the module, so that make check's temporary
// directory records the same command as make generate; -check is left
// out, and -importpath unless it is outside the module; -desc is recorded
// as a path like the others. A directory
// outside the module (a toolkit's include directory) is written DIR.
func Command(src *Source, irFile, desc, origin string, demo bool, out, importPath string, libs ...string) string {
	root, mod := ModuleRoot()
	rel := RelTo(root)
	args := []string{"cugen", "gen"}
	switch {
	case irFile != "":
		args = append(args, "-ir", rel(irFile))
		if origin != "" {
			args = append(args, "-origin", origin)
		}
	case src.Set != "":
		args = append(args, "-set", src.Set)
		// No -lock is the lock cugen carries: nothing to record.
		if src.Lock != "" {
			if l := rel(src.Lock); l != "headers.lock" {
				args = append(args, "-lock", l)
			}
		}
		for _, w := range src.With { // -desc's own headers
			args = append(args, "-with", rel(w))
		}
	default:
		args = append(args, "-headers", rel(src.Headers))
		for _, w := range src.With {
			args = append(args, "-with", rel(w))
		}
	}
	if desc != "" {
		args = append(args, "-desc", rel(desc))
	}
	if len(libs) > 0 { // an IR of one library (generated/cuda12/ir-cudnn.json.gz): only its package
		args = append(args, "-lib", strings.Join(libs, ","))
	}
	if !demo {
		args = append(args, "-demo=false")
	}
	o, derived := rel(out), false
	if mod != "" && importPath != "" {
		if r, ok := strings.CutPrefix(importPath, mod+"/"); ok {
			o, derived = r, true
		} else if importPath == mod {
			o, derived = ".", true
		}
	}
	args = append(args, "-out", o)
	if !derived && importPath != "" {
		args = append(args, "-importpath", importPath)
	}
	return CommandLine(args)
}

// CommandLine joins a recorded command's arguments, each quoted for a
// POSIX shell where it needs it (commandArg): one line that a shell reads
// back as the same arguments. It goes into a comment of every generated
// file, so no argument (a path, a -name, -origin) may break that line.
func CommandLine(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = commandArg(a)
	}
	return strings.Join(q, " ")
}

// commandArg is one argument of a recorded command line: as it is when
// it holds only characters no shell treats specially, else in single
// quotes, and with any control character (a newline, a carriage return)
// in $'...' with escapes, which bash, zsh and POSIX.1-2024 sh read back
// as the same bytes: the line stays one line.
func commandArg(s string) string {
	if s != "" && strings.Trim(s, safeArgChars) == "" {
		return s
	}
	if !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 }) && utf8.ValidString(s) {
		return ShellQuote(s)
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1, r < 0x20, r == 0x7f:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r == 0x85 || r == 0x2028 || r == 0x2029:
			for _, c := range []byte(s[i : i+n]) {
				fmt.Fprintf(&b, "\\x%02x", c)
			}
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('\'')
	return b.String()
}

// safeArgChars are the characters a recorded argument needs no quotes for.
const safeArgChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,+@%"

// RelTo returns the func that writes a path of a recorded command line:
// relative to root, the module root the command runs from, with slashes;
// "DIR" for a path outside it (a machine's directory).
func RelTo(root string) func(p string) string {
	return func(p string) string {
		if root == "" {
			if filepath.IsLocal(p) {
				return filepath.ToSlash(filepath.Clean(p))
			}
			return "DIR"
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return "DIR"
		}
		r, err := filepath.Rel(root, abs)
		if err != nil || !filepath.IsLocal(r) && r != "." {
			return "DIR"
		}
		return filepath.ToSlash(r)
	}
}

// ModuleRoot is the directory of the go.mod above the working directory
// and its module path; "" outside a module.
func ModuleRoot() (root, mod string) {
	wd, err := os.Getwd()
	if err != nil {
		return "", ""
	}
	return goModAbove(wd)
}

// ShellQuote quotes s for a POSIX shell when it needs it.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
