//go:build linux

// Command simpleIPC is NVIDIA's cuda-samples simpleIPC
// (Samples/0_Introduction/simpleIPC) in Go with the layer, package cuda
// (github.com/cugen/cugen/cuda): one process per GPU sharing device memory and
// events between processes (CUDA IPC). The parent picks the devices that
// can all reach each other's memory, allocates 64 MB and an interprocess
// event on each, and exports them (Buffer.ExportIPC, IPCEvent.Export);
// then it starts one child per device. Each child opens every buffer and
// event (cuda.OpenIPC, Context.OpenIPCEvent) and, in as many steps as
// there are processes, fills the next process's buffer with its own
// index, ordered across the processes by the events, a barrier after
// each step. At the end each buffer must hold the index of the process
// after its owner; each child checks its own and exits with status 1 on
// a mismatch, and so does the parent when a child failed.
//
// What differs from the C++ sample:
//   - The handles reach the children over a Unix socket each child
//     inherits as descriptor 3, and the barrier runs through the parent
//     over the same sockets (examples/internal/multiproc), where the
//     sample shares a struct in POSIX shared memory and spins on atomics
//     in it. So the "PP/CP: lshmName = ..." lines, which name that shared
//     memory, are not printed; the rest is the sample's output.
//   - simpleKernel is compiled at run time by NVRTC (Context.ModuleFromSource).
//   - A verification mismatch prints the first 10 and exits with status 1
//     (the sample prints every one and exits 0).
//
// It needs Linux, an NVIDIA GPU, its driver and NVRTC 13 (libnvrtc.so.13;
// or set CUGEN_LIBNVRTC):
//
//	go run ./examples/simpleIPC
//
// The C++ original, from a checkout of NVIDIA/cuda-samples:
//
//	nvcc -O2 -ICommon -o simpleIPC Samples/0_Introduction/simpleIPC/simpleIPC.cu Common/helper_multiprocess.cpp
package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/examples/internal/multiproc"
	"github.com/cugen/cugen/examples/internal/sample"
)

const (
	maxDevices = 32
	dataSize   = 64 << 20 // bytes per buffer
	threads    = 128
	exitWaived = 2 // the samples' EXIT_WAIVED
)

const kernelSource = `
extern "C" __global__ void simpleKernel(char *ptr, int sz, char val) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    for (; idx < sz; idx += gridDim.x * blockDim.x) ptr[idx] = val;
}`

// handles is what the parent sends each child: the devices, one per
// process, and each process's buffer and event.
type handles struct {
	devices []int
	mem     []cuda.IPCHandle[int8]
	events  []cuda.IPCEventHandle
}

func (h *handles) write(w io.Writer) error {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(h.devices)))
	for i, d := range h.devices {
		b = binary.LittleEndian.AppendUint32(b, uint32(d))
		m, _ := h.mem[i].MarshalBinary()
		e, _ := h.events[i].MarshalBinary()
		b = append(append(b, m...), e...)
	}
	_, err := w.Write(b)
	return err
}

func (h *handles) read(r io.Reader) error {
	var n uint32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return err
	}
	if n == 0 || n > maxDevices {
		return fmt.Errorf("%d processes", n)
	}
	h.devices = make([]int, n)
	h.mem = make([]cuda.IPCHandle[int8], n)
	h.events = make([]cuda.IPCEventHandle, n)
	buf := make([]byte, 4+2*cuda.IPCHandleSize)
	for i := range n {
		if _, err := io.ReadFull(r, buf); err != nil {
			return err
		}
		h.devices[i] = int(binary.LittleEndian.Uint32(buf))
		if err := h.mem[i].UnmarshalBinary(buf[4 : 4+cuda.IPCHandleSize]); err != nil {
			return err
		}
		if err := h.events[i].UnmarshalBinary(buf[4+cuda.IPCHandleSize:]); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	id, conn, isChild, err := multiproc.Child()
	sample.Check(err)
	if isChild {
		childProcess(id, conn)
		return
	}
	parentProcess()
}

func childProcess(id int, conn *net.UnixConn) {
	var h handles
	sample.Check(h.read(conn))
	n := len(h.devices)
	if id >= n {
		sample.Check(fmt.Errorf("child %d of %d processes", id, n))
	}
	fmt.Printf("Process %d: Starting on device %d...\n", id, h.devices[id])

	ctx, err := cuda.NewContext(h.devices[id])
	sample.Check(err)
	props, err := ctx.Device().Properties()
	sample.Check(err)
	stream, err := ctx.NewNonBlockingStream()
	sample.Check(err)
	mod, err := ctx.ModuleFromSource(cuda.Source{Code: kernelSource})
	sample.Check(err)
	kernel, err := mod.Kernel("simpleKernel")
	sample.Check(err)
	blocks, err := kernel.MaxActiveBlocksPerSM(threads, 0)
	sample.Check(err)
	blocks *= props.MultiprocessorCount

	// Open every process's buffer and event; no peer access need be
	// enabled for buffers on other devices.
	ptrs := make([]*cuda.Buffer[int8], n)
	events := make([]*cuda.Event, n)
	for i := range n {
		ptrs[i], err = cuda.OpenIPC(ctx, h.mem[i])
		sample.Check(err)
		events[i], err = ctx.OpenIPCEvent(h.events[i])
		sample.Check(err)
	}

	// Each step fills the next process's buffer, after the work already
	// queued on it (its event), and records the event for the next
	// consumer; the barrier keeps a process from racing ahead and
	// recording an event another has yet to wait on.
	cfg := cuda.Config{Grid: cuda.Dim3{X: uint32(blocks)}, Block: cuda.Dim3{X: threads}, Stream: stream}
	for i := range n {
		buf := (i + id) % n
		sample.Check(stream.WaitEvent(events[buf]))
		sample.Check(kernel.Launch(cfg, ptrs[buf], int32(dataSize), int8(id)))
		sample.Check(events[buf].Record(stream))
		sample.Check(multiproc.Barrier(conn))
		if id == 0 {
			fmt.Printf("Step %d done\n", i)
		}
	}

	// Wait for this process's buffer, copy it here and check it.
	verification := make([]int8, dataSize)
	sample.Check(stream.WaitEvent(events[id]))
	sample.Check(ptrs[id].CopyToAsync(stream, verification))
	sample.Check(stream.Synchronize())

	fmt.Printf("Process %d: verifying...\n", id)
	compareID := int8((id + 1) % n)
	bad := 0
	for j, v := range verification {
		if v != compareID {
			if bad < 10 {
				fmt.Printf("Process %d: Verification mismatch at %d: %d != %d\n", id, j, v, compareID)
			}
			bad++
		}
	}

	for i := range n {
		sample.Check(ptrs[i].Close())
		sample.Check(events[i].Close())
	}
	sample.Check(stream.Close())
	sample.Check(mod.Close())
	if bad > 0 {
		fmt.Printf("Process %d: %d of %d bytes wrong\n", id, bad, dataSize)
		os.Exit(1)
	}
	fmt.Printf("Process %d complete!\n", id)
}

func parentProcess() {
	devs, err := cuda.Devices()
	sample.Check(err)
	var chosen []int
	ctxs := map[int]*cuda.Context{}
	for i, d := range devs {
		props, err := d.Properties()
		sample.Check(err)
		// CUDA IPC needs unified addressing.
		if !props.UnifiedAddressing {
			fmt.Printf("Device %d does not support unified addressing, skipping...\n", i)
			continue
		}
		// Two processes use each device: no exclusive or prohibited mode.
		if props.ComputeMode != 0 {
			fmt.Printf("Device %d is in an unsupported compute mode for this sample\n", i)
			continue
		}
		allPeers := true
		for _, j := range chosen {
			ij, err := d.CanAccessPeer(devs[j])
			sample.Check(err)
			ji, err := devs[j].CanAccessPeer(d)
			sample.Check(err)
			if !ij || !ji {
				allPeers = false
				break
			}
		}
		if !allPeers {
			fmt.Printf("Device %d is not peer capable with some other selected peers, skipping\n", i)
			continue
		}
		ctx, err := d.Context()
		sample.Check(err)
		defer ctx.Close()
		ctxs[i] = ctx
		// Not needed for IPC, but it sets the peers up (and on systems of
		// 8 peers at most it takes devices out of CanAccessPeer).
		for _, j := range chosen {
			sample.Check(ctx.EnablePeerAccess(ctxs[j]))
			sample.Check(ctxs[j].EnablePeerAccess(ctx))
		}
		chosen = append(chosen, i)
		if len(chosen) >= maxDevices {
			break
		}
	}
	if len(chosen) == 0 {
		fmt.Println("No CUDA devices support IPC")
		os.Exit(exitWaived)
	}

	// A buffer and an event on each device, exported for the children.
	h := handles{devices: chosen}
	var bufs []*cuda.Buffer[int8]
	var events []*cuda.IPCEvent
	for _, d := range chosen {
		b, err := cuda.Alloc[int8](ctxs[d], dataSize)
		sample.Check(err)
		mh, err := b.ExportIPC()
		sample.Check(err)
		e, err := ctxs[d].NewIPCEvent()
		sample.Check(err)
		eh, err := e.Export()
		sample.Check(err)
		bufs, events = append(bufs, b), append(events, e)
		h.mem, h.events = append(h.mem, mh), append(h.events, eh)
	}

	children, err := multiproc.Spawn(len(chosen))
	if err != nil {
		fmt.Println("Failed to create process")
		os.Exit(1)
	}
	for i := range chosen {
		sample.Check(h.write(children.Conn(i)))
	}
	barrierErr := children.Barriers(len(chosen))
	if err := children.Wait(); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	sample.Check(barrierErr)

	for i := range chosen {
		sample.Check(events[i].Synchronize())
		sample.Check(events[i].Close())
		sample.Check(bufs[i].Close())
	}
}
