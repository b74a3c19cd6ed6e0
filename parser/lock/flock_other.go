//go:build !unix

package lock

import (
	"context"
	"io"
)

// lockDir does nothing where flock does not exist; Fetch needs apt-get
// and dpkg-deb, so it only runs on Debian-like systems anyway.
func lockDir(ctx context.Context, path string, logw io.Writer) (func(), error) {
	return func() {}, nil
}
