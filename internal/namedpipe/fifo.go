// Package namedpipe makes named pipes for the tests of hostile inputs (a FIFO
// where a file is read blocks an open forever), on every system the
// module vets for: where there are none, Make returns an error the tests
// skip on.
package namedpipe

// Make makes a named pipe at path (mode 0644, less the umask).
func Make(path string) error { return mkfifo(path) }
