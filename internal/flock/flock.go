// Package flock takes exclusive advisory locks on lock files, so that two
// cugen processes writing one directory (the header cache, an output
// directory) take turns.
package flock

import "context"

// Lock takes an exclusive lock on the file at path, creating it (0644, less
// the umask) if need be; a symbolic link there is refused, never followed.
// While another process holds the lock it calls waiting once, then polls
// until the lock is free or ctx is done. The returned function releases the
// lock (the file stays: removing it would let a third process lock a new
// file while the second still holds the old one).
func Lock(ctx context.Context, path string, waiting func()) (unlock func(), err error) {
	return lock(ctx, path, waiting)
}
