package cuda

import "github.com/cugen/cugen/cuda/sys/cu"

// On Windows the driver refuses a pool shared as a POSIX file descriptor
// (ipc_windows.go); the fake driver does as it does. ipcfd_test.go has
// the fake's descriptors elsewhere.

func (f *fakeDriver) memPoolExportFD(pool cu.MemoryPool) (int, error) {
	return -1, cu.ErrorNotSupported
}

func (f *fakeDriver) memPoolImportFD(fd int) (cu.MemoryPool, error) {
	return 0, cu.ErrorNotSupported
}
