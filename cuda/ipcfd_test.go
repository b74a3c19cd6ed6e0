//go:build !windows

package cuda

import (
	"math"
	"net"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// The fake driver's pool descriptors and the tests of passing them
// (POSIX file descriptors over a Unix socket), which exist on Linux only;
// ipc_windows_test.go stands in for the fake's part on Windows.

// inode returns the inode of fd: a descriptor's identity through dup and
// SCM_RIGHTS.
func inode(t testing.TB, fd int) uint64 {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		t.Errorf("fstat(%d): %v", fd, err)
		return 0
	}
	return st.Ino
}

// memPoolExportFD hands out the read end of a new pipe: a real descriptor
// whose inode names the pool.
func (f *fakeDriver) memPoolExportFD(pool cu.MemoryPool) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call("cuMemPoolExportToShareableHandle")
	f.mem.init()
	if f.mem.pools[pool] == nil {
		f.t.Errorf("export of pool %#x, not created", pool)
	}
	if f.mem.shared == nil {
		f.mem.shared = map[cu.MemoryPool]bool{}
	}
	f.mem.shared[pool] = true
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return -1, err
	}
	syscall.Close(p[1])
	f.vm.poolFDs[inode(f.t, p[0])] = pool
	return p[0], nil
}

func (f *fakeDriver) memPoolImportFD(fd int) (cu.MemoryPool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.call("cuMemPoolImportFromShareableHandle")
	f.mem.init()
	from, ok := f.vm.poolFDs[inode(f.t, fd)]
	if !ok {
		f.t.Errorf("import of descriptor %d, not exported", fd)
		return 0, cu.ErrorInvalidValue
	}
	h := f.mem.nextPool
	f.mem.nextPool++
	f.mem.pools[h] = map[cu.MemPoolAttribute]uint64{}
	f.vm.imports[h] = from
	return h, nil
}

// TestIPCPool: an IPC pool's descriptor crosses a Unix socket, the pool
// imports from it, and a view of a pool buffer imports by pointer at its
// offset, freed on the importer's stream.
func TestIPCPool(t *testing.T) {
	f, c := newFake(t)
	s, closeStream := fakeStream(c, 0x51)
	p, err := c.NewIPCMemPool(MemPoolOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := AllocFromPool[int32](p.MemPool, s, 64)
	if err != nil {
		t.Fatal(err)
	}
	h, err := ExportPoolPointer(b.Slice(8, 24))
	if err != nil {
		t.Fatal(err)
	}
	fd, err := p.ExportFD()
	if err != nil {
		t.Fatal(err)
	}
	a, z := unixPair(t)
	if err := SendFiles(a, []byte("pool"), fd); err != nil {
		t.Fatal(err)
	}
	fd.Close()
	buf := make([]byte, 16)
	n, files, err := ReceiveFiles(z, buf, 1)
	if err != nil || string(buf[:n]) != "pool" || len(files) != 1 {
		t.Fatalf("ReceiveFiles = %q, %d files, %v", buf[:n], len(files), err)
	}
	data, _ := h.MarshalBinary()
	otherProcess(t)
	ip, err := c.ImportMemPool(files[0])
	files[0].Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := ip.SetAccess(c.Device(), cu.MemAccessFlagsProtReadwrite); err != nil {
		t.Fatal(err)
	}
	if acc, err := ip.Access(c.Device()); err != nil || acc != cu.MemAccessFlagsProtReadwrite {
		t.Errorf("Access = %v, %v", acc, err)
	}
	var got PoolPointer[int32]
	if err := got.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	o, err := ImportPoolPointer(ip, s, got)
	if err != nil {
		t.Fatal(err)
	}
	if o.Len() != 16 {
		t.Errorf("imported Len %d, want 16", o.Len())
	}
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	frees := len(f.mem.asyncFrees)
	f.mu.Unlock()
	if frees != 1 {
		t.Errorf("%d cuMemFreeAsync after the imported buffer's Close, want 1", frees)
	}
	ip.Close()
	b.Close()
	p.Close()
	if p.r.keep != nil {
		t.Errorf("the pool's own descriptor is still open after Close: %v", p.r.keep)
	}
	closeStream()
	c.Close()
	if live, _, released := f.state(); live != 0 || released != 1 {
		t.Errorf("live %d released %d, want 0 1", live, released)
	}
}

func unixPair(t *testing.T) (*net.UnixConn, *net.UnixConn) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	conn := func(fd int) *net.UnixConn {
		f := os.NewFile(uintptr(fd), "socket")
		defer f.Close()
		c, err := net.FileConn(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c.(*net.UnixConn)
	}
	return conn(fds[0]), conn(fds[1])
}

// TestSendFilesErrors: an empty message is refused; a message with more
// descriptors than the receiver takes is an error, its descriptors
// closed.
func TestSendFilesErrors(t *testing.T) {
	a, z := unixPair(t)
	r, w, _ := os.Pipe()
	defer r.Close()
	defer w.Close()
	if err := SendFiles(a, nil, r); err == nil {
		t.Error("SendFiles of an empty message succeeded")
	}
	if err := SendFiles(a, []byte("x"), r, w); err != nil {
		t.Fatal(err)
	}
	if _, files, err := ReceiveFiles(z, make([]byte, 4), 1); err == nil {
		t.Errorf("ReceiveFiles(max 1) of 2 descriptors = %d files, no error", len(files))
	}
}

// TestDupHigh: the descriptor number the pool import passes in a pointer
// is a duplicate of at least 4096 (a smaller number in a pointer slot
// crashes the runtime when the stack moves), of the same file.
func TestDupHigh(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur <= 4096 {
		t.Skipf("descriptor limit %d (%v): no room above 4096", lim.Cur, err)
	}
	hi, err := dupHigh(int(r.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(hi)
	if hi < 4096 || inode(t, hi) != inode(t, int(r.Fd())) {
		t.Errorf("dupHigh = %d (inode %d), want >= 4096 of inode %d", hi, inode(t, hi), inode(t, int(r.Fd())))
	}
	t.Logf("descriptor %d duplicated as %d (limit %d)", r.Fd(), hi, lim.Cur)
}

// openFDs counts this process's open descriptors, or -1 where /proc is not.
func openFDs() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}

// TestReceiveFilesBounds: maxFiles beyond what a message can carry is
// taken as MaxReceiveFiles, with a control buffer of that size; a message
// longer than the buffer is an error and its descriptors are closed. Was
// (issue 37): maxFiles = MaxInt refused a message of two descriptors
// ("carried more than 9223372036854775807 descriptors": the buffer's size
// overflowed), MaxInt32 allocated an 8 GiB buffer (fatal out of memory
// under a 4 GiB limit), and 100 bytes on a SEQPACKET socket into 64 came
// back as n = 64 and no error.
func TestReceiveFilesBounds(t *testing.T) {
	r, w, _ := os.Pipe()
	defer r.Close()
	defer w.Close()
	for _, max := range []int{math.MaxInt, math.MaxInt32, MaxReceiveFiles} {
		a, z := unixPair(t)
		if err := SendFiles(a, []byte("x"), r, w); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		n, files, err := ReceiveFiles(z, make([]byte, 4), max)
		runtime.ReadMemStats(&after)
		if err != nil || n != 1 || len(files) != 2 {
			t.Errorf("ReceiveFiles(max %d) of 2 descriptors = %d bytes, %d files, %v; want 1 byte, 2 files", max, n, len(files), err)
		}
		for _, f := range files {
			f.Close()
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
			t.Errorf("ReceiveFiles(max %d) allocated %d bytes", max, grew)
		}
	}
	if _, _, err := ReceiveFiles(nil, nil, -1); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("ReceiveFiles(max -1) = %v, want an error", err)
	}

	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no SEQPACKET sockets: %v", err)
	}
	conn := func(fd int) *net.UnixConn {
		f := os.NewFile(uintptr(fd), "seqpacket")
		defer f.Close()
		c, err := net.FileConn(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c.(*net.UnixConn)
	}
	a, z := conn(fds[0]), conn(fds[1])
	open := openFDs()
	if err := SendFiles(a, make([]byte, 100), r); err != nil {
		t.Fatal(err)
	}
	n, files, err := ReceiveFiles(z, make([]byte, 64), 4)
	if err == nil || !strings.Contains(err.Error(), "longer than the 64-byte buffer") || files != nil {
		t.Errorf("100 bytes into a 64-byte buffer = %d bytes, %d files, %v; want an error", n, len(files), err)
	} else {
		t.Log(err)
	}
	if open >= 0 && openFDs() != open {
		t.Errorf("%d descriptors open after the refused message, %d before: the one it carried was not closed", openFDs(), open)
	}
}
