package cuda

import "errors"

// A pool shared as a POSIX file descriptor ([IPCMemPool.ExportFD]) exists
// on Linux only: the driver refuses the handle type on Windows, and these
// stand-ins keep the package building there.

func closeOnExec(fd int) {}

func closeFD(fd int) {}

func dupHigh(fd int) (int, error) {
	return -1, errors.New("cuda: no descriptor duplication on Windows")
}
