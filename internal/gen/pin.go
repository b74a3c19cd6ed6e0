package gen

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cugen/cugen/internal/lock"
	"github.com/cugen/cugen/parser"
)

// Pin is cugen lock: it rewrites the sha256 lines of src's set (Set, in
// the lock file Lock) to every header the parse of that set reads,
// hashed where it lies (the files already locked are verified first, by
// Set's fetch or toolkit check), and writes the lock file.
func Pin(src *Source, stdout, stderr io.Writer) error {
	// The parse is not held to the entry: adding what it reads is the point.
	dir, _, _, err := src.Resolve(stderr)
	if err != nil {
		return err
	}
	set := src.Fetched
	api, err := parser.ParseWith(dir, parser.Options{Extra: set.WithDirs})
	if err != nil {
		return err
	}
	// Each file the parse read goes to the entry whose directory holds it.
	// One that two directories hold is refused: both would pin the same
	// path, which FetchSetEntry refuses (the parse could not tell which
	// it read).
	entries := append([]*lock.Entry{set.Set}, set.With...)
	dirs := append([]string{set.Dir}, set.WithDirs...)
	files := make([][]string, len(entries))
	for _, f := range api.Sources {
		in := -1
		for i, d := range dirs {
			if _, err := os.Stat(filepath.Join(d, filepath.FromSlash(f))); err != nil {
				continue
			}
			if in >= 0 {
				return fmt.Errorf("cugen lock: %s is in the directories of both %s and %s", f, entries[in], entries[i])
			}
			in = i
			files[i] = append(files[i], f)
		}
	}
	for i, e := range entries {
		before := len(e.Files)
		if err := lock.Update(e, dirs[i], files[i]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "cugen: %s: %d files pinned (%d before) in %s\n", e, len(e.Files), before, src.Lock)
		e.Base().Files = e.Files // a derived set (12.4+cudnn9) pins its base's files
	}
	return src.LockFile.WriteFile(src.Lock)
}
