//go:build !unix

package namedpipe

import "errors"

func mkfifo(path string) error {
	return errors.New("namedpipe: no named pipes on this system")
}
