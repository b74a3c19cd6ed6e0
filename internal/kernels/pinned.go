package kernels

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/cugen/cugen/internal/gen"
	"github.com/cugen/cugen/internal/lock"
)

// UsePinned adds to o the include directories of the headers.lock entries
// named (cugen kernels -headers), fetched into the default cache, with
// each file's pin; with pin set it first rewrites the entries (in the lock
// file lockPath, "headers.lock" if empty) to pin the headers the source
// reads from them (-pin).
func UsePinned(o *Options, lockPath string, names []string, pin bool, stdout, logw io.Writer) error {
	if len(names) == 0 {
		if pin {
			return errors.New("cugen kernels: -pin pins the -headers entries, and there is none")
		}
		return nil
	}
	if pin && lockPath == "" {
		lockPath = "headers.lock"
	}
	l, err := gen.ReadLock(lockPath)
	if err != nil {
		return err
	}
	var entries []*lock.Entry
	for _, name := range names {
		e, err := l.Headers(name)
		if err != nil {
			return fmt.Errorf("cugen kernels: -headers %s: %w", name, err)
		}
		dir, err := lock.Fetch(context.Background(), e, "", logw) // "": the default cache
		if err != nil {
			return fmt.Errorf("cugen kernels: -headers %s: %w", name, err)
		}
		entries = append(entries, e)
		o.Pinned = append(o.Pinned, PinnedDir{Dir: dir, Entry: e.String() + " of " + l.Path})
	}
	if pin {
		if err := pinHeaders(*o, entries, l, lockPath, stdout); err != nil {
			return err
		}
	}
	for i, e := range entries {
		o.Pinned[i].Files = map[string]string{}
		for _, f := range e.Files {
			o.Pinned[i].Files[f.Path] = f.SHA256
		}
	}
	return nil
}

// pinHeaders rewrites each entry of l to pin the headers the source reads
// from its directory, and writes l to path.
func pinHeaders(o Options, entries []*lock.Entry, l *lock.Lock, path string, stdout io.Writer) error {
	hs, err := ReadHeaders(o)
	if err != nil {
		return err
	}
	files := make([][]string, len(entries))
	for _, h := range hs {
		for i, p := range o.Pinned {
			if rel, ok := InDir(p.Dir, h.Path); ok && h.Path != "" {
				files[i] = append(files[i], rel)
				break
			}
		}
	}
	for i, e := range entries {
		before := len(e.Files)
		if err := lock.Update(e, o.Pinned[i].Dir, files[i]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "cugen kernels: %s: %d files pinned (%d before) in %s\n", e, len(e.Files), before, path)
	}
	return l.WriteFile(path)
}
