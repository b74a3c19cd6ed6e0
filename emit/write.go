package emit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// IsGenerated reports whether the file content starts with cugen's marker
// (in a // or # comment on its first line).
func IsGenerated(b []byte) bool {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	line = bytes.TrimSpace(line)
	line = bytes.TrimLeft(line, "/# ")
	return bytes.HasPrefix(line, []byte(Marker))
}

// Write puts pkg into dir, replacing the package there as a whole.
//
// # What is never lost
//
// A user entry is anything in dir that is not a regular file with cugen's
// marker on its first line: a hand-written .go file, a subdirectory, a
// symbolic link. Write never overwrites or deletes one; a generated name
// taken by a user entry is an error before anything is written. Generated
// files that the new package no longer has (stale) disappear with the old
// package. dir itself must not be a symbolic link (Write would otherwise
// swap the link, not the package it points to): give the real directory.
// Every name in pkg must be a plain file name (no separator, not "." or
// "..") and every file must carry the marker, so the next run recognizes it.
//
// # The swap
//
// Beside dir, in its parent, Write uses two directories whose names start
// with a dot (so `go build ./...` ignores them): .DIR.cugen-new and
// .DIR.cugen-old. Steps:
//
//  1. write every generated file into .DIR.cugen-new (fsynced);
//  2. move the user entries of dir into it, one rename each;
//  3. rename dir to .DIR.cugen-old;
//  4. rename .DIR.cugen-new to dir;
//  5. move any user entry still in .DIR.cugen-old into dir, then delete
//     the old generated files and the directory.
//
// A failure returned by a step undoes the earlier steps. If the process dies
// between steps, dir holds the complete old package (steps 1-2; user files
// moved so far wait in .DIR.cugen-new), nothing for an instant (between 3
// and 4) or the complete new one (4-5); never a mix. The next Write (or
// [Recover]) finishes or undoes what it finds: user entries go back to dir,
// a swapped-in package stays. POSIX has no atomic exchange of two
// directories, hence the instant between steps 3 and 4. Two runs of cugen
// must not write the same dir at the same time.
func Write(dir string, pkg *Package) error {
	names, err := checkFiles(pkg)
	if err != nil {
		return err
	}
	sw, err := newSwap(dir)
	if err != nil {
		return err
	}
	if err := sw.recover(); err != nil {
		return err
	}
	users, err := sw.userEntries(pkg)
	if err != nil {
		return err
	}

	// Step 1: the complete new package, beside dir.
	if err := hook("mkdir"); err != nil {
		return err
	}
	if err := os.Mkdir(sw.newDir, 0o755); err != nil {
		return err
	}
	for _, n := range names {
		if err := hook("write " + n); err != nil {
			return sw.undo(err, nil, false)
		}
		if err := writeSynced(filepath.Join(sw.newDir, n), pkg.Files[n]); err != nil {
			return sw.undo(err, nil, false)
		}
	}
	// Step 2: the user's entries join it.
	var moved []string
	for _, u := range users {
		if err := hook("move " + u); err != nil {
			return sw.undo(err, moved, false)
		}
		if err := os.Rename(filepath.Join(sw.dir, u), filepath.Join(sw.newDir, u)); err != nil {
			return sw.undo(err, moved, false)
		}
		moved = append(moved, u)
	}
	syncDir(sw.newDir)
	// Steps 3 and 4: the swap.
	if sw.exists {
		if err := hook("aside"); err != nil {
			return sw.undo(err, moved, false)
		}
		if err := os.Rename(sw.dir, sw.oldDir); err != nil {
			return sw.undo(err, moved, false)
		}
	}
	if err := hook("swap"); err != nil {
		return sw.undo(err, moved, sw.exists)
	}
	if err := os.Rename(sw.newDir, sw.dir); err != nil {
		return sw.undo(err, moved, sw.exists)
	}
	syncDir(sw.parent)
	// Step 5: the old package goes.
	if !sw.exists {
		return nil
	}
	if err := hook("cleanup"); err != nil {
		return err // the new package is in place; the next run removes the old one
	}
	return sw.removeOld()
}

// Recover finishes or undoes a Write of dir that was interrupted (the
// process killed between two steps): afterwards dir holds a complete
// package (old or new) with every user entry, and the two work directories
// beside it are gone. Write calls it first; it does nothing when there is
// nothing to recover.
func Recover(dir string) error {
	sw, err := newSwap(dir)
	if err != nil {
		return err
	}
	return sw.recover()
}

// writeHook, when set by a test, runs before each step of Write; an error it
// returns fails that step, a panic stands for the process dying there.
var writeHook func(step string) error

func hook(step string) error {
	if writeHook != nil {
		return writeHook(step)
	}
	return nil
}

// swap names the directories of one Write.
type swap struct {
	dir, parent, newDir, oldDir string
	exists                      bool // dir existed when Write started
}

func newSwap(dir string) (*swap, error) {
	if dir == "" {
		return nil, errors.New("cugen: empty output directory")
	}
	dir = filepath.Clean(dir)
	base := filepath.Base(dir)
	if base == "." || base == ".." || base == string(filepath.Separator) {
		return nil, fmt.Errorf("cugen: output directory %q must name a directory, not %q", dir, base)
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	sw := &swap{
		dir:    dir,
		parent: parent,
		newDir: filepath.Join(parent, "."+base+".cugen-new"),
		oldDir: filepath.Join(parent, "."+base+".cugen-old"),
	}
	return sw, nil
}

// stat sets sw.exists and checks that dir is a real directory.
func (sw *swap) stat() error {
	st, err := os.Lstat(sw.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		sw.exists = false
		return nil
	case err != nil:
		return err
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("cugen: output directory %s is a symbolic link: give the directory it points to", sw.dir)
	case !st.IsDir():
		return fmt.Errorf("cugen: output directory %s is not a directory", sw.dir)
	}
	sw.exists = true
	return nil
}

// checkFiles validates pkg's names and contents and returns the names sorted.
func checkFiles(pkg *Package) ([]string, error) {
	names := make([]string, 0, len(pkg.Files))
	for n, b := range pkg.Files {
		if !plainName(n) {
			return nil, fmt.Errorf("cugen: generated file name %q is not a plain file name", n)
		}
		if !IsGenerated(b) {
			return nil, fmt.Errorf("cugen: generated file %s does not start with %q: a later run could not replace it", n, Marker)
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

// plainName reports whether n names a file directly inside a directory: not
// empty, no separator, not "." or "..", not absolute, no NUL.
func plainName(n string) bool {
	return n != "" && n != "." && n != ".." && !strings.ContainsAny(n, "/\\\x00") &&
		!filepath.IsAbs(n) && filepath.Base(n) == n
}

// userEntries lists dir's user entries (sorted) and fails if one has a
// generated name. Nothing is written before it returns.
func (sw *swap) userEntries(pkg *Package) ([]string, error) {
	if err := sw.stat(); err != nil || !sw.exists {
		return nil, err
	}
	entries, err := os.ReadDir(sw.dir)
	if err != nil {
		return nil, err
	}
	var users []string
	for _, e := range entries {
		p := filepath.Join(sw.dir, e.Name())
		gen, err := isGeneratedFile(p)
		if err != nil {
			return nil, err
		}
		if gen {
			continue // replaced, or stale
		}
		if _, ours := pkg.Files[e.Name()]; ours {
			return nil, fmt.Errorf("cugen: %s exists and was not generated by cugen (no %q header): refusing to overwrite it", p, Marker)
		}
		users = append(users, e.Name())
	}
	return users, nil
}

// isGeneratedFile reports whether p is a regular file (not a link) with the
// marker on its first line.
func isGeneratedFile(p string) (bool, error) {
	st, err := os.Lstat(p)
	if err != nil {
		return false, err
	}
	if !st.Mode().IsRegular() {
		return false, nil
	}
	f, err := os.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadSlice('\n')
	if err != nil && len(line) == 0 {
		return false, nil // empty, or a read error: treat as the user's
	}
	return IsGenerated(line), nil
}

// undo reverses steps 1-4 after a failure: the old package back in dir
// (when it was already renamed aside), moved user entries back into it, and
// the new directory removed. It returns cause, with anything undo could not
// do appended.
func (sw *swap) undo(cause error, moved []string, aside bool) error {
	errs := []error{cause}
	if aside {
		if err := os.Rename(sw.oldDir, sw.dir); err != nil {
			errs = append(errs, fmt.Errorf("cugen: restoring %s from %s: %w", sw.dir, sw.oldDir, err))
			return errors.Join(errs...)
		}
	}
	for _, u := range moved {
		if err := os.Rename(filepath.Join(sw.newDir, u), filepath.Join(sw.dir, u)); err != nil {
			errs = append(errs, fmt.Errorf("cugen: moving your %s back from %s: %w", u, sw.newDir, err))
		}
	}
	if len(errs) == 1 {
		if err := removeGenerated(sw.newDir); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// recover brings dir back to a complete package after an interrupted Write.
func (sw *swap) recover() error {
	_, errOld := os.Lstat(sw.oldDir)
	_, errNew := os.Lstat(sw.newDir)
	if errOld != nil && errNew != nil {
		return sw.stat()
	}
	if err := sw.stat(); err != nil {
		return err
	}
	if errOld == nil {
		if !sw.exists {
			// Died between steps 3 and 4: the new package is complete
			// (with the user's entries), roll forward; without it,
			// put the old one back.
			src := sw.newDir
			if errNew != nil {
				src = sw.oldDir
			}
			if err := os.Rename(src, sw.dir); err != nil {
				return fmt.Errorf("cugen: recovering %s from an interrupted run: %w", sw.dir, err)
			}
			sw.exists = true
			if src == sw.oldDir {
				return nil
			}
		}
		// Died in step 5 (or just before it): finish it.
		if err := sw.removeOld(); err != nil {
			return err
		}
	}
	if _, err := os.Lstat(sw.newDir); err == nil {
		// Died in step 1 or 2: user entries go back, the rest is deleted.
		if err := sw.returnUserEntries(sw.newDir); err != nil {
			return err
		}
		if err := removeGenerated(sw.newDir); err != nil {
			return err
		}
	}
	return sw.stat()
}

// removeOld moves user entries left in the old package into dir and
// deletes the old package.
func (sw *swap) removeOld() error {
	if err := sw.returnUserEntries(sw.oldDir); err != nil {
		return err
	}
	return removeGenerated(sw.oldDir)
}

// returnUserEntries moves every user entry of from into dir (creating dir
// if needed). A name taken in dir is an error, and the entry stays put.
func (sw *swap) returnUserEntries(from string) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := filepath.Join(from, e.Name())
		gen, err := isGeneratedFile(p)
		if err != nil {
			return err
		}
		if gen {
			continue
		}
		if err := os.MkdirAll(sw.dir, 0o755); err != nil {
			return err
		}
		to := filepath.Join(sw.dir, e.Name())
		if _, err := os.Lstat(to); err == nil {
			return fmt.Errorf("cugen: your %s is in %s, left by an interrupted run, and %s exists: move it by hand", e.Name(), from, to)
		}
		if err := os.Rename(p, to); err != nil {
			return err
		}
	}
	return nil
}

// removeGenerated deletes d, which must hold only generated files: it
// refuses, leaving d in place, if anything else is in it.
func removeGenerated(d string) error {
	entries, err := os.ReadDir(d)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	for _, e := range entries {
		p := filepath.Join(d, e.Name())
		gen, err := isGeneratedFile(p)
		if err != nil {
			return err
		}
		if !gen {
			return fmt.Errorf("cugen: not removing %s: %s was not generated by cugen", d, p)
		}
	}
	for _, e := range entries {
		if err := os.Remove(filepath.Join(d, e.Name())); err != nil {
			return err
		}
	}
	return os.Remove(d)
}

// writeSynced writes a new file and flushes it to disk, so that a rename
// made after it never exposes an empty file after a crash.
func writeSynced(p string, b []byte) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir flushes a directory's entries; best effort (not every file system
// supports it).
func syncDir(d string) {
	if f, err := os.Open(d); err == nil {
		f.Sync()
		f.Close()
	}
}
