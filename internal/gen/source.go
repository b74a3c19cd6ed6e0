package gen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	modfiles "github.com/cugen/cugen"
	"github.com/cugen/cugen/emit"
	"github.com/cugen/cugen/internal/carried"
	"github.com/cugen/cugen/internal/lock"
	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser"
	"github.com/cugen/cugen/parser/ir"
)

// Source is where a command finds its headers: a directory (Headers, with
// more directories in With), or an entry of a lock (Set, of Lock; with
// Own, With are a -desc library's own header directories beside it).
type Source struct {
	Headers string
	With    []string
	Set     string
	// Own says With are the headers of a library of the user's own (gen
	// -desc): with Set too, searched after the set's and never held to
	// the lock (parser.Options.Own).
	Own bool
	// Lock is the lock file of Set; "" is the headers.lock cugen carries.
	Lock string
	// Libs are the libraries parsed; nil: library.All.
	Libs []*library.Desc

	// With Set, after Resolve: the lock read, and the set fetched.
	LockFile *lock.Lock
	Fetched  *lock.FetchedSet
}

// EmbeddedLock names the lock cugen carries (package cugen) in messages.
const EmbeddedLock = "cugen's headers.lock"

// ReadLock reads the lock file at path or, for "", the headers.lock cugen
// was built with: -set works in any directory, with no lock of its own.
func ReadLock(path string) (*lock.Lock, error) {
	if path == "" {
		return lock.Parse(bytes.NewReader(modfiles.HeadersLock), EmbeddedLock)
	}
	return lock.ReadFile(path)
}

// knownSets lists the sets of the lock at path ("" as ReadLock), for the
// error that asks for one.
func knownSets(path string) string {
	l, err := ReadLock(path)
	if err != nil {
		return ""
	}
	var names []string
	for _, e := range l.Entries {
		if e.Kind == lock.KindSet {
			names = append(names, e.Name)
		}
	}
	return strings.Join(names, ", ")
}

// Resolve returns the header directory, a label for generated headers and
// the parser options that hold the parse to the lock entry, if any; log
// gets a download's progress.
func (s *Source) Resolve(log io.Writer) (dir, origin string, opts parser.Options, err error) {
	switch {
	case s.Headers != "" && s.Set != "":
		return "", "", opts, errors.New("cugen: give -headers or -set, not both")
	case len(s.With) > 0 && s.Headers == "" && (s.Set == "" || !s.Own):
		// -set with -with is for -desc only: a set's own header packages
		// are those its lock entry names, all pinned.
		return "", "", opts, errors.New("cugen: -with goes with -headers DIR, or with -set NAME and -desc FILE (the directory of the library's own headers); a set's CUDA header packages are those its lock entry names")
	case s.Headers != "":
		opts.Extra = s.With
		return s.Headers, "", opts, nil
	case s.Set != "":
		l, err := ReadLock(s.Lock)
		if err != nil {
			return "", "", opts, err
		}
		e, err := l.Entry(s.Set)
		if err != nil {
			return "", "", opts, err
		}
		// Verified here are the files the entries list; the parser
		// holds every file it reads from their directories to the same
		// list and hashes, so a file no entry lists (cut short, or
		// dropped into a directory) fails the run.
		fs, err := l.FetchSetEntry(context.Background(), e, "", log) // "": the default cache
		if err != nil {
			return "", "", opts, err
		}
		s.LockFile, s.Fetched = l, fs
		opts.Pinned = fs.Pinned
		opts.Extra = fs.WithDirs
		opts.Own = s.With // with Own only (above): a -desc library's headers
		opts.PinnedBy = fmt.Sprintf("%s of %s (cugen lock -set %s pins a header added to the parser's list)", e, l.Path, e.Name)
		return fs.Dir, carried.Origin(e.Name, fs.Digest), opts, nil
	}
	return "", "", opts, s.Required("-headers DIR or -set NAME")
}

// carriedIR is the IR cugen carries of Set's entry, when it holds the
// libraries want (carried.Lookup); nil when there is none: the headers
// are then fetched and parsed.
func (s *Source) carriedIR(want []*library.Desc) (*ir.API, error) {
	if s.Set == "" || s.Headers != "" || len(s.With) > 0 {
		return nil, nil // Resolve says what is wrong
	}
	l, err := ReadLock(s.Lock)
	if err != nil {
		return nil, err
	}
	return carried.Lookup(l, s.Set, want, s.Lock != "")
}

// Required is the error for a command given no headers: what it takes,
// and the sets the lock has.
func (s *Source) Required(what string) error {
	lockName := EmbeddedLock
	if s.Lock != "" {
		lockName = s.Lock
	}
	if sets := knownSets(s.Lock); sets != "" {
		return fmt.Errorf("cugen: %s is required (the sets of %s: %s)", what, lockName, sets)
	}
	return fmt.Errorf("cugen: %s is required", what)
}

// Parse resolves the source and parses its headers (the libraries Libs).
func (s *Source) Parse(log io.Writer) (api *ir.API, origin string, err error) {
	parser.Prepare() // the C compiler answers while the lock is read and verified
	dir, origin, opts, err := s.Resolve(log)
	if err != nil {
		return nil, "", err
	}
	opts.Libraries = s.Libs
	api, err = parser.ParseWith(dir, opts)
	return api, origin, err
}

// ReadIR reads an IR saved by cugen ir (ir.ReadFile: a regular file,
// bounded, checked by ir.Validate, every library key one package library
// describes); its error names the file and the entry.
func ReadIR(file string) (*ir.API, error) {
	api, err := ir.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if err := emit.CheckLibraries(api, nil); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return api, nil
}
