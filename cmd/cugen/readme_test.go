package main

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The two groups of commands, as the usage and the README give them.
const (
	userGroup       = "Commands for users"
	maintainerGroup = "Commands for cugen's maintainers"
)

// wantUsers are the commands a user of cugen runs; every other command is
// for cugen's maintainers.
var wantUsers = []string{"diff", "doctor", "gen", "ir", "kernels"}

// commandGroups returns the commands named by the "cugen NAME" lines under
// each group heading of text (a heading is a line starting with the group's
// name; a blank line or another heading ends the group). In Markdown, a
// heading may start with #s and the lines may quote the command in
// backticks.
func commandGroups(text string) map[string][]string {
	groups := map[string][]string{}
	cmd := regexp.MustCompile("^\\s*(?:[|*-]\\s*)*`?cugen ([a-z]+)\\b")
	group := ""
	for _, l := range strings.Split(text, "\n") {
		head := strings.TrimLeft(l, "# ")
		switch {
		case strings.HasPrefix(head, userGroup):
			group = userGroup
		case strings.HasPrefix(head, maintainerGroup):
			group = maintainerGroup
		case strings.TrimSpace(l) == "" && !strings.HasPrefix(l, "#"):
			// A blank line ends a usage group, not a README section,
			// whose table follows a blank line.
			if group != "" && len(groups[group]) > 0 {
				group = ""
			}
		case strings.HasPrefix(l, "#"):
			group = ""
		case group != "":
			if m := cmd.FindStringSubmatch(l); m != nil && !slices.Contains(groups[group], m[1]) {
				groups[group] = append(groups[group], m[1])
			}
		}
	}
	for _, g := range groups {
		sort.Strings(g)
	}
	return groups
}

// checkGroups reports what of text's groups differs from the commands:
// users are wantUsers, maintainers every other command, each once.
func checkGroups(t *testing.T, what, text string) {
	t.Helper()
	groups := commandGroups(text)
	var maintainers []string
	for name := range commands {
		if !slices.Contains(wantUsers, name) {
			maintainers = append(maintainers, name)
		}
	}
	sort.Strings(maintainers)
	if !slices.Equal(groups[userGroup], wantUsers) {
		t.Errorf("%s: %q lists %q, want %q", what, userGroup, groups[userGroup], wantUsers)
	}
	if !slices.Equal(groups[maintainerGroup], maintainers) {
		t.Errorf("%s: %q lists %q, want %q", what, maintainerGroup, groups[maintainerGroup], maintainers)
	}
}

// TestUsageGroups: the usage lists the user's commands (gen, ir, diff,
// doctor) and the maintainers' (headers, lock, libs, layer) under two
// headings, every command in one of them; a command added to cugen fails
// here until it is placed.
func TestUsageGroups(t *testing.T) {
	checkGroups(t, "usage", usage)
	code, _, stderr := cugen(t)
	if code != 2 || !strings.Contains(stderr, userGroup+":") || !strings.Contains(stderr, maintainerGroup) {
		t.Errorf("cugen with no command: exit %d, stderr %q; want 2 and both groups", code, stderr)
	}
}

// TestREADMECommands: the README's "cugen's commands" section groups the
// commands as the usage does.
func TestREADMECommands(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	checkGroups(t, "README.md", string(readme))
}

// TestREADMEPackages: the table of the module's packages in
// docs/architecture.md (the one whose header row is
// "| directory | what it is |") names every directory
// of the module holding Go files, itself ("dir/") or through a row for a
// directory above it ("dir/..."), and only directories that exist. Other
// modules (a go.mod of their own) and testdata are not the module's.
func TestREADMEPackages(t *testing.T) {
	const doc = "docs/architecture.md"
	readme, err := os.ReadFile("../../" + doc)
	if err != nil {
		t.Fatal(err)
	}
	exact, below := map[string]bool{}, map[string]bool{}
	in := false
	row := regexp.MustCompile("^\\| `([^`]+)` \\|")
	for _, l := range strings.Split(string(readme), "\n") {
		switch {
		case strings.HasPrefix(l, "| directory | what it is |"):
			in = true
		case in && !strings.HasPrefix(l, "|"):
			in = false
		case in:
			if m := row.FindStringSubmatch(l); m != nil {
				if d, ok := strings.CutSuffix(m[1], "/..."); ok {
					below[d] = true
				} else {
					exact[strings.TrimSuffix(m[1], "/")] = true
				}
			}
		}
	}
	if len(exact)+len(below) == 0 {
		t.Fatalf(`%s has no table with the header "| directory | what it is |"`, doc)
	}
	root := filepath.Join("..", "..")
	named, missing := map[string]bool{}, map[string]bool{}
	err = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if e.IsDir() {
			name := e.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			if rel != "." {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		dir := path.Dir(rel)
		if exact[dir] {
			named[dir] = true
			return nil
		}
		for d := dir; d != "."; d = path.Dir(d) {
			if below[d] {
				named[d] = true
				return nil
			}
		}
		if !missing[dir] {
			missing[dir] = true
			t.Errorf("%s's package table does not name %s/ (add a row, or one for a directory above it ending in /...)", doc, dir)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for d := range exact {
		if !named[d] {
			t.Errorf("%s's package table names %s/, which holds no Go file of the module", doc, d)
		}
	}
	for d := range below {
		if !named[d] {
			t.Errorf("%s's package table names %s/..., under which the module has no Go file", doc, d)
		}
	}
}

// TestREADMEFrontDoor: the README stays a front door (issue 39): at most
// 250 lines, and its first screen (40 lines) gives the two commands, to
// generate and to test. Reference belongs in docs/ and package docs.
func TestREADMEFrontDoor(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	checkFrontDoor(t, string(readme))
}

// checkFrontDoor reports what of TestREADMEFrontDoor's rules text breaks.
func checkFrontDoor(t *testing.T, text string) {
	t.Helper()
	const maxLines, screen = 250, 40
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > maxLines {
		t.Errorf("README.md has %d lines, more than %d: move reference to docs/", len(lines), maxLines)
	}
	first := strings.Join(lines[:min(screen, len(lines))], "\n")
	for _, want := range []string{"go tool cugen gen", "make generate", "make test"} {
		if !strings.Contains(first, want) {
			t.Errorf("README.md's first %d lines do not name %q: the two commands belong on the first screen", screen, want)
		}
	}
}
