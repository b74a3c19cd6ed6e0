package lock

import (
	"context"
	"fmt"
	"io"

	"github.com/cugen/cugen/internal/flock"
)

// lockDir takes the cache's lock file at path, so that two fetches into one
// cache, for example from test packages run in parallel, take turns. The
// returned function releases it.
func lockDir(ctx context.Context, path string, logw io.Writer) (func(), error) {
	return flock.Lock(ctx, path, func() {
		fmt.Fprintf(logw, "cugen: waiting for another fetch holding %s\n", path)
	})
}
