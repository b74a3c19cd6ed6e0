// Command bandwidthTest is NVIDIA's cuda-samples bandwidthTest
// (Samples/1_Utilities/bandwidthTest) in quick mode, with the Go layer
// (package cuda): host-to-device, device-to-host and device-to-device
// bandwidth for one transfer size, timed with CUDA events around repeated
// copies. Pinned transfers copy from and to a HostBuffer on a stream
// (asynchronous, as the sample's cudaMemcpyAsync); pageable ones from and
// to a Go slice. The device-to-device figure counts each byte twice (read
// and written), as the sample does.
//
// What differs from the C++ sample: only quick mode, device 0, and the
// flags below; it also checks that the bytes arrived. It exits with status
// 1 when a call fails or a copy is wrong. It needs an NVIDIA GPU and its
// driver (libcuda.so.1):
//
//	go run ./examples/bandwidthTest [-memory pinned|pageable] [-size BYTES]
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/cugen/cugen/cuda"
)

const iterations = 100 // the sample's MEMCOPY_ITERATIONS

func main() {
	memory := flag.String("memory", "pinned", "host memory: pinned or pageable")
	size := flag.Int("size", 32_000_000, "transfer size in bytes (the sample's quick mode default)")
	flag.Parse()
	fmt.Println("[CUDA Bandwidth Test] - Starting...")
	if err := run(*memory, *size); err != nil {
		fmt.Fprintln(os.Stderr, "bandwidthTest:", err)
		fmt.Println("Result = FAIL")
		os.Exit(1)
	}
	fmt.Println("Result = PASS")
}

func run(memory string, size int) error {
	if memory != "pinned" && memory != "pageable" {
		return fmt.Errorf("-memory %q: want pinned or pageable", memory)
	}
	if size <= 0 {
		return fmt.Errorf("-size %d: want a positive size", size)
	}
	ctx, err := cuda.NewContext(0)
	if err != nil {
		return err
	}
	defer ctx.Close()
	name, err := ctx.Device().Name()
	if err != nil {
		return err
	}
	fmt.Printf("Running on...\n\n Device 0: %s\n Quick Mode\n\n", name)

	var host []byte
	var pinned *cuda.HostBuffer[byte]
	if memory == "pinned" {
		if pinned, err = cuda.AllocHost[byte](ctx, size); err != nil {
			return err
		}
		defer pinned.Close()
		host = pinned.Slice()
	} else {
		host = make([]byte, size)
	}
	for i := range host {
		host[i] = byte(i * 7)
	}
	dev, err := cuda.Alloc[byte](ctx, size)
	if err != nil {
		return err
	}
	defer dev.Close()
	dev2, err := cuda.Alloc[byte](ctx, size)
	if err != nil {
		return err
	}
	defer dev2.Close()
	stream, err := ctx.NewStream()
	if err != nil {
		return err
	}
	defer stream.Close()
	start, err := ctx.NewEvent()
	if err != nil {
		return err
	}
	defer start.Close()
	stop, err := ctx.NewEvent()
	if err != nil {
		return err
	}
	defer stop.Close()

	// timed runs copy iterations times on the stream between two events.
	timed := func(copy func() error) (time.Duration, error) {
		if err := start.Record(stream); err != nil {
			return 0, err
		}
		for range iterations {
			if err := copy(); err != nil {
				return 0, err
			}
		}
		if err := stop.Record(stream); err != nil {
			return 0, err
		}
		if err := stream.Synchronize(); err != nil {
			return 0, err
		}
		return cuda.Elapsed(start, stop)
	}
	report := func(title string, d time.Duration, factor float64) {
		gbs := factor * float64(size) * iterations / d.Seconds() / 1e9
		fmt.Printf(" %s Bandwidth, 1 Device(s)\n %s Memory Transfers\n   Transfer Size (Bytes)\tBandwidth(GB/s)\n   %d\t\t\t%.1f\n\n",
			title, map[string]string{"pinned": "PINNED", "pageable": "PAGEABLE"}[memory], size, gbs)
	}

	var h2d, d2h func() error
	if pinned != nil {
		h2d = func() error { return dev.CopyFromHostAsync(stream, pinned) }
		d2h = func() error { return dev.CopyToHostAsync(stream, pinned) }
	} else {
		// Pageable copies go through the driver's staging buffers; the
		// synchronous calls run on the legacy default stream, which the
		// stream (created blocking) waits for.
		h2d = func() error { return dev.CopyFrom(host) }
		d2h = func() error { return dev.CopyTo(host) }
	}
	d, err := timed(h2d)
	if err != nil {
		return err
	}
	report("Host to Device", d, 1)
	clear(host)
	if d, err = timed(d2h); err != nil {
		return err
	}
	report("Device to Host", d, 1)
	for i := range host {
		if host[i] != byte(i*7) {
			return fmt.Errorf("byte %d came back %d, want %d", i, host[i], byte(i*7))
		}
	}
	if d, err = timed(func() error { return dev2.CopyFromBufferAsync(stream, dev) }); err != nil {
		return err
	}
	report("Device to Device", d, 2)
	return nil
}
