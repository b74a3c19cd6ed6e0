//go:build !windows

package cuda

import (
	"encoding/hex"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cugentest"
)

// The environment a two-process test hands its child.
const (
	envIPCMem   = "CUGEN_TEST_IPC_MEM"   // an IPCHandle's bytes, in hex
	envIPCEvent = "CUGEN_TEST_IPC_EVENT" // an IPCEventHandle's bytes, in hex
	envIPCSock  = "CUGEN_TEST_IPC_SOCK"  // the Unix socket a pool's descriptor comes on
)

const (
	ipcN    = 1 << 20 // elements of the shared buffer
	ipcSkip = 1000    // the first ones are not exported (the view starts there)
)

// envBytes decodes the hex bytes of the environment variable name.
func envBytes(t *testing.T, name string) []byte {
	b, err := hex.DecodeString(os.Getenv(name))
	if err != nil || len(b) == 0 {
		t.Fatalf("%s: %d bytes, %v", name, len(b), err)
	}
	return b
}

// checkShared checks got[i] = mul*(i+ipcSkip), the exported view of a
// buffer holding its indices after the child multiplied the view by mul.
func checkShared(t *testing.T, got []int32, mul int32) {
	t.Helper()
	for i, v := range got {
		if want := mul * int32(i+ipcSkip); v != want {
			t.Fatalf("element %d of the view = %d, want %d", i, v, want)
		}
	}
}

// TestGPUIPCTwoProcesses: the parent fills a buffer with its indices and
// exports a view of it and an IPC event; a child process (this test
// binary again) opens both, checks the view, triples it, records the
// event and exits; the parent waits on the event and finds the view
// tripled and the rest untouched.
func TestGPUIPCTwoProcesses(t *testing.T) {
	if cugentest.IsChild(t) {
		ipcChild(t)
		return
	}
	c := gpuContext(t)
	host := make([]int32, ipcN)
	for i := range host {
		host[i] = int32(i)
	}
	b, err := AllocFrom(c, host)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	h, err := b.Slice(ipcSkip, ipcN).ExportIPC()
	if err != nil {
		t.Fatal(err)
	}
	ev, err := c.NewIPCEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()
	eh, err := ev.Export()
	if err != nil {
		t.Fatal(err)
	}
	hb, _ := h.MarshalBinary()
	ehb, _ := eh.MarshalBinary()
	cugentest.RunChild(t, envIPCMem+"="+hex.EncodeToString(hb), envIPCEvent+"="+hex.EncodeToString(ehb))
	if err := ev.Synchronize(); err != nil {
		t.Fatal(err)
	}
	got := make([]int32, ipcN)
	if err := b.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	for i := range ipcSkip {
		if got[i] != int32(i) {
			t.Fatalf("element %d, before the view, = %d: the child wrote outside it", i, got[i])
		}
	}
	checkShared(t, got[ipcSkip:], 3)
	t.Logf("parent: the child tripled the %d exported elements, the %d before them untouched", ipcN-ipcSkip, ipcSkip)
}

func ipcChild(t *testing.T) {
	var h IPCHandle[int32]
	if err := h.UnmarshalBinary(envBytes(t, envIPCMem)); err != nil {
		t.Fatal(err)
	}
	var eh IPCEventHandle
	if err := eh.UnmarshalBinary(envBytes(t, envIPCEvent)); err != nil {
		t.Fatal(err)
	}
	c := gpuContext(t)
	b, err := OpenIPC(c, h)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := c.OpenIPCEvent(eh)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]int32, b.Len())
	if err := b.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	checkShared(t, got, 1)
	for i := range got {
		got[i] *= 3
	}
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.CopyFromAsync(s, got); err != nil {
		t.Fatal(err)
	}
	if err := ev.Record(s); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{s.Close(), ev.Close(), b.Close()} {
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("child: opened %d elements at %#x, checked, tripled, event recorded", len(got), b.Ptr())
}

// TestGPUIPCPoolTwoProcesses: the parent makes an IPC pool, allocates a
// buffer of its indices from it and sends the pool's descriptor and a
// view's pointer export over a Unix socket (SCM_RIGHTS); the child
// imports the pool and the view, checks it, triples it and frees its
// mapping in stream order; the parent finds the view tripled.
func TestGPUIPCPoolTwoProcesses(t *testing.T) {
	if cugentest.IsChild(t) {
		ipcPoolChild(t)
		return
	}
	c := gpuContext(t)
	if v, err := c.Device().Attribute(cu.DeviceAttributeMempoolSupportedHandleTypes); err != nil || v&int(cu.MemHandleTypePosixFileDescriptor) == 0 {
		t.Fatalf("CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES = %#x, %v: no POSIX descriptors", v, err)
	}
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, err := c.NewIPCMemPool(MemPoolOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	b, err := AllocFromPool[int32](p.MemPool, s, ipcN)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	host := make([]int32, ipcN)
	for i := range host {
		host[i] = int32(i)
	}
	if err := b.CopyFromAsync(s, host); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	h, err := ExportPoolPointer(b.Slice(ipcSkip, ipcN))
	if err != nil {
		t.Fatal(err)
	}
	hb, _ := h.MarshalBinary()
	fd, err := p.ExportFD()
	if err != nil {
		t.Fatal(err)
	}
	defer fd.Close()
	sock := filepath.Join(t.TempDir(), "pool.sock")
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	sent := make(chan error, 1)
	go func() {
		conn, err := l.AcceptUnix()
		if err != nil {
			sent <- err
			return
		}
		defer conn.Close()
		sent <- SendFiles(conn, hb, fd)
	}()
	cugentest.RunChild(t, envIPCSock+"="+sock)
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	got := make([]int32, ipcN)
	if err := b.CopyTo(got); err != nil {
		t.Fatal(err)
	}
	for i := range ipcSkip {
		if got[i] != int32(i) {
			t.Fatalf("element %d, before the view, = %d: the child wrote outside it", i, got[i])
		}
	}
	checkShared(t, got[ipcSkip:], 3)
	t.Logf("parent: the child tripled the %d elements of the pool buffer's view", ipcN-ipcSkip)
}

func ipcPoolChild(t *testing.T) {
	conn, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: os.Getenv(envIPCSock), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	buf := make([]byte, IPCHandleSize)
	n, files, err := ReceiveFiles(conn, buf, 1)
	if err != nil || len(files) != 1 {
		t.Fatalf("ReceiveFiles: %d files, %v", len(files), err)
	}
	var h PoolPointer[int32]
	if err := h.UnmarshalBinary(buf[:n]); err != nil {
		t.Fatal(err)
	}
	c := gpuContext(t)
	p, err := c.ImportMemPool(files[0])
	files[0].Close()
	if err != nil {
		t.Fatal(err)
	}
	acc, err := p.Access(c.Device())
	if err != nil {
		t.Fatal(err)
	}
	if acc != cu.MemAccessFlagsProtReadwrite {
		if err := p.SetAccess(c.Device(), cu.MemAccessFlagsProtReadwrite); err != nil {
			t.Fatal(err)
		}
	}
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	b, err := ImportPoolPointer(p, s, h)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]int32, b.Len())
	if err := b.CopyToAsync(s, got); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	checkShared(t, got, 1)
	for i := range got {
		got[i] *= 3
	}
	if err := b.CopyFromAsync(s, got); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil { // cuMemFreeAsync on s, after the copy
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{s.Close(), p.Close()} {
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("child: pool imported (access %v), %d elements checked and tripled", acc, len(got))
}
