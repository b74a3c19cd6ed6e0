package twin

import (
	"fmt"
	"sync"
	"testing"
	"unsafe"
)

// Activity is what a test's CUPTI activity buffer callbacks collect, on
// CUPTI's threads: the buffers handed to CUPTI (Go memory, kept alive
// until CUPTI gives them back) and what the records of the buffers given
// back describe. The completion callback walks a buffer's records with
// its major's record types inside [Activity.Complete].
type Activity struct {
	mu      sync.Mutex
	buffers map[*byte][]uint64

	Kernels          []string           // the kernel records' names
	Copies           map[int32][]uint64 // the copy records' bytes, by CUPTI's copy kind
	KernelNS, CopyNS uint64             // the kernels' and copies' durations
	Markers          []string           // the marker records, "NAME FLAGS"
}

// Reset forgets all, for a new test.
func (a *Activity) Reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.buffers, a.Copies = map[*byte][]uint64{}, map[int32][]uint64{}
	a.Kernels, a.KernelNS, a.CopyNS, a.Markers = nil, 0, 0, nil
}

// Request is the body of a CUpti_BuffersCallbackRequestFunc: it hands
// CUPTI a buffer of 1 MiB, 8-byte aligned
// (CUPTI_ACTIVITY_RECORD_ALIGNMENT), for as many records as fit.
func (a *Activity) Request(buffer **byte, size, maxNumRecords *uint64) {
	b := make([]uint64, 1<<17)
	p := (*byte)(unsafe.Pointer(&b[0]))
	a.mu.Lock()
	a.buffers[p] = b
	a.mu.Unlock()
	*buffer, *size, *maxNumRecords = p, uint64(8*len(b)), 0
}

// Complete is the body of a CUpti_BuffersCallbackCompleteFunc: it runs
// walk, which reads the buffer's records into a (Kernel, Copy, Markers),
// under a's lock, then lets the buffer go.
func (a *Activity) Complete(buffer *byte, walk func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	walk()
	delete(a.buffers, buffer)
}

// Kernel records a kernel record, within Complete's walk.
func (a *Activity) Kernel(name string, start, end uint64) {
	a.Kernels = append(a.Kernels, name)
	a.KernelNS += end - start
}

// Copy records a copy record of kind (CUPTI's CUpti_ActivityMemcpyKind),
// within Complete's walk.
func (a *Activity) Copy(kind int32, bytes, start, end uint64) {
	a.Copies[kind] = append(a.Copies[kind], bytes)
	a.CopyNS += end - start
}

// Read runs f under a's lock, to read what the callbacks collected.
func (a *Activity) Read(f func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	f()
}

// CheckVAdd checks what the vector addition of e2e's CUPTI tests
// (cudatest's PTX, copies of size bytes) left once flushed: one vadd
// kernel record with a duration, two host-to-device copies and one
// device-to-host copy of size bytes (h2d and d2h: CUPTI's kinds of
// those), and every buffer given back. It returns the records, for the
// log.
func (a *Activity) CheckVAdd(t testing.TB, h2d, d2h int32, size uint64) string {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	hd, dh := a.Copies[h2d], a.Copies[d2h]
	if len(a.Kernels) != 1 || a.Kernels[0] != "vadd" || a.KernelNS == 0 {
		t.Errorf("kernel records %q (%d ns), want one vadd with a duration", a.Kernels, a.KernelNS)
	}
	if len(hd) != 2 || hd[0] != size || hd[1] != size || len(dh) != 1 || dh[0] != size {
		t.Errorf("copy records: HtoD %v, DtoH %v; want two and one of %d bytes", hd, dh, size)
	}
	if len(a.buffers) != 0 {
		t.Errorf("%d buffers CUPTI did not give back after the forced flush", len(a.buffers))
	}
	return fmt.Sprintf("kernels %q %d ns; copies HtoD %v DtoH %v, %d ns in all", a.Kernels, a.KernelNS, hd, dh, a.CopyNS)
}
