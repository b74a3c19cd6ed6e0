// Package bounded reads files cugen did not write as hostile input: the
// header and library cache, a header directory, a toolkit's include
// directory. It is the one reader through which the cache is verified
// (internal/lock hashes with it) and the headers are parsed (parser reads
// with it), so a file that passes one passes the other under the same
// rules:
//
//   - regular files only, by stat before the open and fstat after it, and
//     the open is non-blocking: a FIFO (or a device) is refused, never
//     waited on, also when it replaces the file between stat and open;
//   - with Options.Root, a symbolic link must resolve to a file inside
//     Root (a link within a library package, libcudart.so.12 to
//     libcudart.so.12.4.127, is fine; one to /dev/zero or /etc is not);
//   - the size fstat reports is checked against Options.Limit before
//     anything is read, and reading stops a little past the limit, for a
//     "regular file" (in /proc) that reports a size it does not have.
//
// Errors for these rules are *Error values: their text names no path,
// so the caller says which file (its name in the cache, or relative to
// the header directory). A missing file is the os package's error,
// fs.ErrNotExist.
package bounded

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// Limits of the files cugen reads.
const (
	// Header bounds one header file (the largest CUDA header, cuda.h of
	// 13.0, is about 1.4 MB). The parser refuses a larger one, so a
	// header set never pins one.
	Header = 4 << 20
	// Library bounds one file of a library package (the largest,
	// libcublasLt.so of CUDA 12.4, is about 500 MB).
	Library = 2 << 30
	// Deb bounds a downloaded .deb (nvidia-cuda-dev of CUDA 11.8 is
	// 774 MB).
	Deb = 4 << 30
)

// Options say what a file may be.
type Options struct {
	// Limit is the most bytes the file may have (Header, Library, Deb).
	Limit int64
	// What names the file in size errors: "a header".
	What string
	// Root, when not "", is the directory the file must lie in once
	// symbolic links are resolved (the extracted root of a cache entry,
	// the header directory of a pinned parse).
	Root string
}

// Why a file was refused.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("too large")
	ErrOutside    = errors.New("a symbolic link that leaves its directory")
)

// An Error is a file refused by a rule of this package. Its text names no
// path.
type Error struct {
	Kind error // ErrNotRegular, ErrTooLarge or ErrOutside
	Msg  string
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Kind }

// Open opens the file at path for reading under o's rules and returns it
// with its size (by fstat).
func Open(path string, o Options) (*os.File, int64, error) {
	flags := os.O_RDONLY | oNonblock
	if o.Root != "" {
		real, err := resolveIn(path, o.Root)
		if err != nil {
			return nil, 0, err
		}
		// Open what was checked, and refuse a link planted since.
		path, flags = real, flags|oNoFollow
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, 0, err
	}
	if err := check(st, o); err != nil {
		return nil, 0, err
	}
	// O_NONBLOCK: a file replaced by a FIFO after the Stat must not block
	// the open; the Fstat below then refuses it.
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, 0, &Error{Kind: ErrOutside, Msg: "a symbolic link appeared while it was opened"}
		}
		return nil, 0, err
	}
	st, err = f.Stat()
	if err == nil {
		err = check(st, o)
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}

func check(st fs.FileInfo, o Options) error {
	if !st.Mode().IsRegular() {
		return &Error{Kind: ErrNotRegular, Msg: fmt.Sprintf("not a regular file (%v): only regular files are read", st.Mode().Type())}
	}
	if st.Size() > o.Limit {
		return &Error{Kind: ErrTooLarge, Msg: fmt.Sprintf("%d bytes: larger than the %s %s may have", st.Size(), Size(o.Limit), what(o))}
	}
	return nil
}

func what(o Options) string {
	if o.What == "" {
		return "a file"
	}
	return o.What
}

// resolveIn resolves the symbolic links of path and checks that the file
// lies inside root (whose own links are resolved too).
func resolveIn(path, root string) (string, error) {
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	r, err = filepath.Abs(r)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(r, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", &Error{Kind: ErrOutside, Msg: "a symbolic link to a file outside its directory: links may only point within it"}
	}
	return real, nil
}

// ReadFile reads the file at path under o's rules.
func ReadFile(path string, o Options) ([]byte, error) {
	f, size, err := Open(path, o)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readAtMost(f, size, o.Limit)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > o.Limit {
		return nil, tooMuch(o)
	}
	return data, nil
}

func tooMuch(o Options) error {
	return &Error{Kind: ErrTooLarge, Msg: fmt.Sprintf("more than the %s %s may have", Size(o.Limit), what(o))}
}

// HashFile returns the sha256 (lower-case hex) of the file at path, read
// under o's rules without holding it in memory.
func HashFile(path string, o Options) (string, error) {
	f, _, err := Open(path, o)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if err := copyAtMost(h, f, o); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// copyAtMost writes r to h, failing once more than o.Limit bytes came.
func copyAtMost(h hash.Hash, r io.Reader, o Options) error {
	buf := make([]byte, 64<<10)
	var n int64
	for {
		k, err := r.Read(buf)
		h.Write(buf[:k])
		if n += int64(k); n > o.Limit {
			return tooMuch(o)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return readError(err)
		}
	}
}

// readAtMost reads r to its end or until it has read more than limit
// bytes. A file that reports a size within the limit is read into one
// buffer of that size (and one byte more, to see the end); any other in
// blocks of 64 KiB (files in /proc report no size or a false one, and
// refuse reads of odd sizes).
func readAtMost(r io.Reader, size, limit int64) ([]byte, error) {
	const block = 64 << 10
	var b []byte
	if size > 0 && size <= limit {
		b = make([]byte, 0, size+1)
	}
	for int64(len(b)) <= limit {
		if len(b) == cap(b) {
			b = slices.Grow(b, block)
		}
		n, err := r.Read(b[len(b):min(cap(b), len(b)+block)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, readError(err)
		}
	}
	return b, nil
}

// readError drops the path of an *fs.PathError: the caller names the file.
func readError(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		err = pe.Err
	}
	return fmt.Errorf("reading: %w", err)
}

// Size formats a limit: "4 MiB", "2 GiB".
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
