package lock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cugen/cugen/internal/bounded"
)

// A MismatchError reports a file whose sha256 is not the one headers.lock pins.
type MismatchError struct {
	Path  string // the file on disk
	Got   string // its sha256
	Want  string // the sha256 in the lock
	Entry string // "set 12.4"
	Lock  string // the lock file, "headers.lock"
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("%s: sha256 %s, but %s pins %s for %s", e.Path, e.Got, lockName(e.Lock), e.Want, e.Entry)
}

func lockName(path string) string {
	if path == "" {
		return "the lock"
	}
	return path
}

// maxReported caps how many bad files Verify lists one by one.
const maxReported = 10

// Verify checks every file e pins against the copy under dir, which is the
// extracted root of a deb entry or, for a toolkit entry, the toolkit's
// include directory. It reports each missing or different file by its
// path; a different file's error is a *MismatchError naming both hashes.
// Files under dir that e does not list are not looked at.
//
// Each file is read as hostile input, through the reader the parser reads
// headers with (internal/bounded): a regular file, within the size an
// entry of its kind may have, and no symbolic link to outside dir; any
// other is reported by its path and never waited on or read without end.
func Verify(dir string, e *Entry) error {
	var errs []error
	bad := 0
	o := readOptions(e, dir)
	for _, f := range e.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		got, err := hashFile(p, o)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			err = fmt.Errorf("%s: missing, but %s pins sha256 %s for %s: %w", p, lockName(e.Lock), f.SHA256, e, fs.ErrNotExist)
		case err != nil:
		case got != f.SHA256:
			err = &MismatchError{Path: p, Got: got, Want: f.SHA256, Entry: e.String(), Lock: e.Lock}
		}
		if err != nil {
			if bad++; bad <= maxReported {
				errs = append(errs, err)
			}
		}
	}
	if bad > maxReported {
		errs = append(errs, fmt.Errorf("%s: %d more of the %d files %s pins are missing or different", dir, bad-maxReported, len(e.Files), e))
	}
	return errors.Join(errs...)
}

// Update sets e.Files to the given files under dir, with their current
// sha256. files are paths relative to dir, as the parser reports the files
// it opened.
func Update(e *Entry, dir string, files []string) error {
	var out []File
	seen := map[string]bool{}
	for _, name := range files {
		rel := filepath.ToSlash(filepath.Clean(name))
		if !fs.ValidPath(rel) || rel == "." {
			return fmt.Errorf("%s: %q is not a path relative to %s", e, name, dir)
		}
		if seen[rel] {
			continue
		}
		seen[rel] = true
		sum, err := hashFile(filepath.Join(dir, filepath.FromSlash(rel)), readOptions(e, dir))
		if err != nil {
			return fmt.Errorf("%s: %w", e, err)
		}
		out = append(out, File{Path: rel, SHA256: sum})
	}
	if len(out) == 0 {
		return fmt.Errorf("%s: no files to lock", e)
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	e.Files = out
	return nil
}

// readOptions are the rules for reading e's files under root: its
// kind's size limit, no link leaving root.
func readOptions(e *Entry, root string) bounded.Options {
	if e.Kind == KindLib {
		return bounded.Options{Limit: bounded.Library, What: "a library file", Root: root}
	}
	return bounded.Options{Limit: bounded.Header, What: "a header", Root: root}
}

// hashFile returns the sha256 of the file at path, read through
// bounded.HashFile. Its refusals (and read errors) name no path: they get
// path in front; the os package's errors (missing) name it already.
func hashFile(path string, o bounded.Options) (string, error) {
	sum, err := bounded.HashFile(path, o)
	var pe *fs.PathError
	if err != nil && !errors.As(err, &pe) {
		err = fmt.Errorf("%s: %w", path, err)
	}
	return sum, err
}

// WriteFileAtomic writes data to a temporary file beside path and renames
// it into place, so readers see the old file or the new one.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
