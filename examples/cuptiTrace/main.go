// Command cuptiTrace traces its own GPU work with CUPTI's activity API and
// compares what CUPTI measured with CUDA events. It uses the layer
// (package cuda) for the work and package cupti for the trace:
//
//   - After cuInit, before it makes a context, it registers two Go funcs
//     as CUPTI's buffer callbacks and enables the activity kinds
//     CONCURRENT_KERNEL, MEMCPY and MEMSET. CUPTI calls the funcs on
//     threads of its own whenever it wants a buffer or has filled one:
//     they lock what they share and never block for long (a panic in one
//     would end the program: it must not unwind through CUPTI).
//   - On one stream it copies two vectors of 2^24 floats to the device,
//     clears a third (a memset), adds them (vadd), scales the sum 256
//     times (scale), copies it device to device and back to the host,
//     each operation between two CUDA events. It does all this twice:
//     the first round loads the kernels (CUDA loads modules lazily) and
//     warms the copy engines; the second is the one compared.
//   - It flushes CUPTI's buffers, reads the records of the stream (the
//     CUPTI stream id of the layer's stream), pairs them with the
//     operations in order, and prints per operation of the second round
//     its kind, name, bytes, CUPTI's duration (end - start of the record),
//     the events' (cuEventElapsedTime) and their difference.
//
// The two durations agree when they differ by at most 25 µs plus 10% of
// CUPTI's: the events bracket the operation on the stream, so they also
// hold the gap between an event and the operation, a few microseconds.
// It exits with status 1 when a recorded activity is missing, when a
// record does not match its operation (kernel name, copy kind, bytes),
// when a pair disagrees, or when the result differs from the one
// computed on the host; it prints "Result = PASS" otherwise.
//
// It needs an NVIDIA GPU, its driver and CUPTI of the build's major: with
// -tags cuda12, CUPTI 12 (libcupti.so.12, or set CUGEN_LIBCUPTI):
//
//	go run -tags cuda12 ./examples/cuptiTrace
//
// and with no tag CUPTI 13. The activity record versions each CUPTI
// writes differ (records_cuda12.go, records_cuda13.go).
//
// CUPTI's buffer callbacks carry no user data: package cupti keeps the Go
// funcs given to cupti.ActivityRegisterCallbacks process-wide, and its
// trampolines call them from any thread.
package main

import (
	"cmp"
	_ "embed"
	"fmt"
	"math"
	"os"
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cupti"
	"github.com/cugen/cugen/ffi"
)

const (
	n          = 1 << 24 // floats per vector: 64 MiB
	scaleIters = 256
	rounds     = 2 // the first warms up; the last is compared
	// agreement: |events - CUPTI| <= tolAbs + tolRel * CUPTI
	tolAbs = 25 * time.Microsecond
	tolRel = 0.10
)

//go:embed kernels.ptx
var kernelPTX string

// record is what the program keeps of one CUPTI activity record.
type record struct {
	kind       cupti.ActivityKind // CONCURRENT_KERNEL, MEMCPY or MEMSET
	name       string             // the kernel's name
	copyKind   cupti.ActivityMemcpyKind
	bytes      uint64
	start, end uint64 // ns, CUPTI's clock
	stream     uint32
}

// trace is what the buffer callbacks share with main.
var trace struct {
	sync.Mutex
	buffers map[*byte][]uint64 // handed to CUPTI, kept until it gives them back
	records []record
	errs    []string
}

// bufferSize is the size of each buffer handed to CUPTI: 8 MiB, in
// uint64s so that it is 8-byte aligned (CUPTI_ACTIVITY_RECORD_ALIGNMENT).
const bufferSize = 8 << 20

// bufferRequested is CUpti_BuffersCallbackRequestFunc: CUPTI asks for an
// empty buffer. A Go slice keeps the memory: Go's heap does not move, and
// the map keeps it alive until bufferCompleted. (A panic in a callback
// ends the program: it must not unwind through CUPTI's frames.)
func bufferRequested(buffer **byte, size, maxNumRecords *uint64) {
	b := make([]uint64, bufferSize/8)
	p := (*byte)(unsafe.Pointer(&b[0]))
	trace.Lock()
	trace.buffers[p] = b
	trace.Unlock()
	*buffer, *size, *maxNumRecords = p, bufferSize, 0 // 0: as many records as fit
}

// bufferCompleted is CUpti_BuffersCallbackCompleteFunc: CUPTI gives back a
// buffer with validSize bytes of records, on a thread of its own or, for
// a flush, on the flushing one.
func bufferCompleted(_ cu.Context, _ uint32, buffer *byte, _, validSize uint64) {
	trace.Lock()
	defer trace.Unlock()
	var a *cupti.Activity
	for cupti.ActivityGetNextRecord(buffer, validSize, &a) == nil {
		switch a.Kind {
		case cupti.ActivityKindConcurrentKernel, cupti.ActivityKindKernel:
			k := (*kernelRecord)(unsafe.Pointer(a))
			trace.records = append(trace.records, record{kind: cupti.ActivityKindConcurrentKernel,
				name: ffi.GoString(uintptr(unsafe.Pointer(k.Name)), 256), start: k.Start, end: k.End, stream: k.StreamId})
		case cupti.ActivityKindMemcpy:
			m := (*memcpyRecord)(unsafe.Pointer(a))
			trace.records = append(trace.records, record{kind: a.Kind, copyKind: cupti.ActivityMemcpyKind(m.CopyKind),
				bytes: m.Bytes, start: m.Start, end: m.End, stream: m.StreamId})
		case cupti.ActivityKindMemset:
			m := (*memsetRecord)(unsafe.Pointer(a))
			trace.records = append(trace.records, record{kind: a.Kind, bytes: m.Bytes, start: m.Start, end: m.End, stream: m.StreamId})
		}
	}
	var dropped uint64
	if err := cupti.ActivityGetNumDroppedRecords(0, 0, &dropped); err == nil && dropped > 0 {
		trace.errs = append(trace.errs, fmt.Sprintf("CUPTI dropped %d records", dropped))
	}
	delete(trace.buffers, buffer)
}

// startTrace registers the buffer callbacks and enables the kinds, before
// the context is made so that CUPTI sees all of its work.
func startTrace() (stop func()) {
	trace.buffers = map[*byte][]uint64{}
	check(cupti.ActivityRegisterCallbacks(bufferRequested, bufferCompleted))
	kinds := []cupti.ActivityKind{cupti.ActivityKindConcurrentKernel, cupti.ActivityKindMemcpy, cupti.ActivityKindMemset}
	for _, k := range kinds {
		check(cupti.ActivityEnable(k))
	}
	return func() {
		for _, k := range kinds {
			cupti.ActivityDisable(k)
		}
	}
}

// op is one timed operation on the stream, and what CUPTI must record
// for it.
type op struct {
	label    string
	kind     cupti.ActivityKind
	name     string // kernels
	copyKind cupti.ActivityMemcpyKind
	bytes    uint64 // copies and memsets
	run      func() error
}

func main() {
	v, err := cupti.GetVersion()
	check(err)
	// the driver first (cuInit: CUPTI attaches to it), then the trace,
	// then the context
	if count, err := cuda.DeviceCount(); err != nil || count == 0 {
		check(fmt.Errorf("no CUDA device (%d): %v", count, err))
	}
	stop := startTrace()

	ctx, err := cuda.NewContext(0)
	check(err)
	defer ctx.Close()
	s, err := ctx.NewStream()
	check(err)
	defer s.Close()
	mod, err := ctx.LoadModule([]byte(kernelPTX))
	check(err)
	defer mod.Close()
	vadd, err := mod.Kernel("vadd")
	check(err)
	scale, err := mod.Kernel("scale")
	check(err)

	hx, hy, hout := hostVector(ctx), hostVector(ctx), hostVector(ctx)
	x, y := hx.Slice(), hy.Slice()
	for i := range x {
		x[i], y[i] = float32(i%1000), float32(i%7)*0.25
	}
	dx, dy, dz, dw := deviceVector(ctx), deviceVector(ctx), deviceVector(ctx), deviceVector(ctx)
	const bytes = 4 * n
	ops := []op{
		{label: "HtoD x", kind: cupti.ActivityKindMemcpy, copyKind: cupti.ActivityMemcpyKindHtod, bytes: bytes,
			run: func() error { return dx.CopyFromHostAsync(s, hx) }},
		{label: "HtoD y", kind: cupti.ActivityKindMemcpy, copyKind: cupti.ActivityMemcpyKindHtod, bytes: bytes,
			run: func() error { return dy.CopyFromHostAsync(s, hy) }},
		{label: "memset z", kind: cupti.ActivityKindMemset, bytes: bytes,
			run: func() error { return dz.FillAsync(s, 0) }},
		{label: "vadd z = x + y", kind: cupti.ActivityKindConcurrentKernel, name: "vadd",
			run: func() error { return vadd.Launch(cuda.ForN(n, 256).On(s), dx, dy, dz, uint32(n)) }},
		{label: "scale z", kind: cupti.ActivityKindConcurrentKernel, name: "scale",
			run: func() error {
				return scale.Launch(cuda.ForN(n, 256).On(s), dz, float32(0.5), uint32(n), uint32(scaleIters))
			}},
		{label: "DtoD w = z", kind: cupti.ActivityKindMemcpy, copyKind: cupti.ActivityMemcpyKindDtod, bytes: bytes,
			run: func() error { return dw.CopyFromBufferAsync(s, dz) }},
		{label: "DtoH w", kind: cupti.ActivityKindMemcpy, copyKind: cupti.ActivityMemcpyKindDtoh, bytes: bytes,
			run: func() error { return dw.CopyToHostAsync(s, hout) }},
	}

	// events[r][i] bracket operation i of round r
	events := make([][][2]*cuda.Event, rounds)
	for r := range events {
		events[r] = make([][2]*cuda.Event, len(ops))
		for i := range ops {
			for j := range 2 {
				e, err := ctx.NewEvent()
				check(err)
				defer e.Close()
				events[r][i][j] = e
			}
		}
	}
	for r := range rounds {
		for i, o := range ops {
			check(events[r][i][0].Record(s))
			check(o.run())
			check(events[r][i][1].Record(s))
		}
	}
	check(s.Synchronize())
	check(cupti.ActivityFlushAll(uint32(cupti.ActivityFlagFlushForced)))
	stop()

	fail := false
	if bad := verify(x, y, hout.Slice()); bad != "" {
		fmt.Println(bad)
		fail = true
	}
	streamID, err := cupti.GetStreamIdEx(ctx.Raw(), s.Raw(), 0)
	check(err)

	trace.Lock()
	defer trace.Unlock()
	for _, e := range trace.errs {
		fmt.Println(e)
		fail = true
	}
	// the stream's records, per kind, in the order the GPU ran them
	byKind := map[cupti.ActivityKind][]record{}
	for _, rec := range trace.records {
		if rec.stream == streamID {
			byKind[rec.kind] = append(byKind[rec.kind], rec)
		}
	}
	for _, recs := range byKind {
		slices.SortFunc(recs, func(a, b record) int { return cmp.Compare(a.start, b.start) })
	}
	fmt.Printf("CUPTI %d: %d records, %d of the stream %d\n", v, len(trace.records), countAll(byKind), streamID)
	fmt.Printf("agreement: |events - CUPTI| <= %v + %.0f%% of CUPTI; round %d of %d compared\n\n", tolAbs, 100*tolRel, rounds, rounds)
	fmt.Printf("%-8s %-16s %10s %12s %12s %10s\n", "kind", "name", "bytes", "CUPTI µs", "events µs", "diff µs")
	next := map[cupti.ActivityKind]int{}
	for r := range rounds {
		for i, o := range ops {
			k := next[o.kind]
			next[o.kind]++
			if k >= len(byKind[o.kind]) {
				fmt.Printf("round %d, %s: no CUPTI record\n", r+1, o.label)
				fail = true
				continue
			}
			rec := byKind[o.kind][k]
			if why := mismatch(o, rec); why != "" {
				fmt.Printf("round %d, %s: the record is %s\n", r+1, o.label, why)
				fail = true
				continue
			}
			ev, err := cuda.Elapsed(events[r][i][0], events[r][i][1])
			check(err)
			if r < rounds-1 {
				continue
			}
			dur := time.Duration(rec.end - rec.start)
			diff := ev - dur
			mark := ""
			if diff.Abs() > tolAbs+time.Duration(tolRel*float64(dur)) {
				mark = "  DISAGREE"
				fail = true
			}
			b := "-"
			if o.bytes > 0 {
				b = fmt.Sprint(rec.bytes)
			}
			fmt.Printf("%-8s %-16s %10s %12.1f %12.1f %+10.1f%s\n", kindName(o.kind), o.label, b, us(dur), us(ev), us(diff), mark)
		}
	}
	for k, recs := range byKind {
		if extra := len(recs) - next[k]; extra > 0 {
			fmt.Printf("%d %s records of the stream no operation made\n", extra, kindName(k))
			fail = true
		}
	}
	if fail {
		fmt.Println("Result = FAIL")
		os.Exit(1)
	}
	fmt.Println("Result = PASS")
}

// mismatch says how rec differs from what o should have recorded, or "".
func mismatch(o op, rec record) string {
	switch {
	case o.kind == cupti.ActivityKindConcurrentKernel && rec.name != o.name:
		return fmt.Sprintf("of kernel %q", rec.name)
	case o.kind == cupti.ActivityKindMemcpy && rec.copyKind != o.copyKind:
		return fmt.Sprintf("a copy of kind %v", rec.copyKind)
	case o.bytes != 0 && rec.bytes != o.bytes:
		return fmt.Sprintf("of %d bytes, want %d", rec.bytes, o.bytes)
	case rec.end <= rec.start:
		return fmt.Sprintf("without a duration (start %d, end %d)", rec.start, rec.end)
	}
	return ""
}

// verify compares every 997th element of the result with the host's:
// z = x + y, then 256 times z = z*0.5 + 1 (z*0.5 is exact in float32, so
// fused or not, each step rounds once, as the kernel's fma does).
func verify(x, y, got []float32) string {
	for i := 0; i < len(got); i += 997 {
		z := x[i] + y[i]
		for range scaleIters {
			z = z*0.5 + 1
		}
		if got[i] != z && !(math.IsNaN(float64(z)) && math.IsNaN(float64(got[i]))) {
			return fmt.Sprintf("result[%d] = %v, want %v", i, got[i], z)
		}
	}
	return ""
}

func hostVector(ctx *cuda.Context) *cuda.HostBuffer[float32] {
	h, err := cuda.AllocHost[float32](ctx, n)
	check(err)
	return h
}

func deviceVector(ctx *cuda.Context) *cuda.Buffer[float32] {
	b, err := cuda.Alloc[float32](ctx, n)
	check(err)
	return b
}

func countAll(m map[cupti.ActivityKind][]record) int {
	c := 0
	for _, r := range m {
		c += len(r)
	}
	return c
}

func kindName(k cupti.ActivityKind) string {
	switch k {
	case cupti.ActivityKindConcurrentKernel:
		return "kernel"
	case cupti.ActivityKindMemcpy:
		return "memcpy"
	case cupti.ActivityKindMemset:
		return "memset"
	}
	return k.String()
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// check ends the program on an error.
func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "cuptiTrace:", err)
		os.Exit(1)
	}
}
