//go:build linux

// Command streamOrderedAllocationIPC is NVIDIA's cuda-samples
// streamOrderedAllocationIPC
// (Samples/2_Concepts_and_Techniques/streamOrderedAllocationIPC) in Go
// with the layer, package cuda (github.com/cugen/cugen/cuda): one process per GPU
// sharing stream-ordered allocations through memory pools exported
// between processes. The parent picks the devices that support pools
// with POSIX file descriptor handles and can all reach each other's
// memory, makes an IPC pool on each (Context.NewIPCMemPool), allocates
// 64 MB from it in stream order and exports the pool as a descriptor
// (IPCMemPool.ExportFD) and the allocation as a pointer export
// (cuda.ExportPoolPointer). It starts one child per device and sends
// them the descriptors (SCM_RIGHTS, cuda.SendFiles) and the exports.
// Each child imports every pool (Context.ImportMemPool) and allocation
// (cuda.ImportPoolPointer) and, in as many steps as there are processes,
// fills the next process's buffer with its own index, a barrier after
// each step. At the end each buffer must hold the index of the process
// after its owner; each child checks its own, frees its mappings in
// stream order before the parent frees the memory, and exits with status
// 1 on a mismatch, and so does the parent when a child failed.
//
// What differs from the C++ sample:
//   - The exports reach the children over a Unix socket each child
//     inherits as descriptor 3, which carries the descriptors too, and
//     the barrier runs through the parent over the same sockets
//     (examples/internal/multiproc); the sample shares a struct in POSIX
//     shared memory, spins on atomics in it and sends the descriptors over
//     a named socket. So the "PP/CP: lshmName = ..." lines are not
//     printed; the rest is the sample's output.
//   - The child imports allocation i from pool i; the sample tries every
//     export against every pool until one imports.
//   - The child closes the pools it imported (the sample leaves them to
//     its exit).
//   - simpleKernel is compiled at run time by NVRTC (Context.ModuleFromSource).
//   - A verification mismatch prints the first 10 and exits with status 1
//     (the sample prints every one and exits 0).
//
// It needs Linux, an NVIDIA GPU, its driver and NVRTC 13 (libnvrtc.so.13;
// or set CUGEN_LIBNVRTC):
//
//	go run ./examples/streamOrderedAllocationIPC
//
// The C++ original, from a checkout of NVIDIA/cuda-samples:
//
//	nvcc -O2 -ICommon -o streamOrderedAllocationIPC Samples/2_Concepts_and_Techniques/streamOrderedAllocationIPC/streamOrderedAllocationIPC.cu Common/helper_multiprocess.cpp -lcuda
package main

import (
	"encoding/binary"
	"fmt"
	"net"
	"os"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
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

// message is what the parent sends each child with the pools'
// descriptors: the devices, one per process, and each process's
// allocation, exported.
func message(devices []int, ptrs []cuda.PoolPointer[int8]) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(devices)))
	for i, d := range devices {
		b = binary.LittleEndian.AppendUint32(b, uint32(d))
		p, _ := ptrs[i].MarshalBinary()
		b = append(b, p...)
	}
	return b
}

func parseMessage(b []byte) (devices []int, ptrs []cuda.PoolPointer[int8], err error) {
	if len(b) < 4 {
		return nil, nil, fmt.Errorf("a message of %d bytes", len(b))
	}
	n := int(binary.LittleEndian.Uint32(b))
	const each = 4 + cuda.IPCHandleSize
	if n == 0 || n > maxDevices || len(b) != 4+n*each {
		return nil, nil, fmt.Errorf("a message of %d bytes for %d processes", len(b), n)
	}
	devices, ptrs = make([]int, n), make([]cuda.PoolPointer[int8], n)
	for i := range n {
		e := b[4+i*each:]
		devices[i] = int(binary.LittleEndian.Uint32(e))
		if err := ptrs[i].UnmarshalBinary(e[4:each]); err != nil {
			return nil, nil, err
		}
	}
	return devices, ptrs, nil
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
	buf := make([]byte, 4+maxDevices*(4+cuda.IPCHandleSize))
	m, files, err := cuda.ReceiveFiles(conn, buf, maxDevices)
	sample.Check(err)
	devices, exports, err := parseMessage(buf[:m])
	sample.Check(err)
	n := len(devices)
	if id >= n || len(files) != n {
		sample.Check(fmt.Errorf("child %d: %d processes, %d descriptors", id, n, len(files)))
	}

	ctx, err := cuda.NewContext(devices[id])
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

	// Import every process's pool from its descriptor, give this device
	// access to it, and import the allocation exported from it.
	pools := make([]*cuda.ImportedMemPool, n)
	ptrs := make([]*cuda.Buffer[int8], n)
	for i := range n {
		pools[i], err = ctx.ImportMemPool(files[i])
		sample.Check(err)
		access, err := pools[i].Access(ctx.Device())
		sample.Check(err)
		if access != cu.MemAccessFlagsProtReadwrite {
			sample.Check(pools[i].SetAccess(ctx.Device(), cu.MemAccessFlagsProtReadwrite))
		}
		ptrs[i], err = cuda.ImportPoolPointer(pools[i], stream, exports[i])
		sample.Check(err)
		// The pool is imported: its descriptor is no longer needed.
		sample.Check(files[i].Close())
	}

	// Each step fills the next process's buffer; the stream is waited
	// for, then the barrier keeps every process at the same step.
	cfg := cuda.Config{Grid: cuda.Dim3{X: uint32(blocks)}, Block: cuda.Dim3{X: threads}, Stream: stream}
	for i := range n {
		b := (i + id) % n
		sample.Check(kernel.Launch(cfg, ptrs[b], int32(dataSize), int8(id)))
		sample.Check(stream.Synchronize())
		sample.Check(multiproc.Barrier(conn))
		if id == 0 {
			fmt.Printf("Step %d done\n", i)
		}
	}

	verification := make([]int8, dataSize)
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

	// Free the mappings (cuMemFreeAsync on the stream) before the
	// exporting process frees the memory.
	for i := range n {
		sample.Check(ptrs[i].Close())
	}
	sample.Check(stream.Synchronize())
	sample.Check(stream.Close())
	for i := range n {
		sample.Check(pools[i].Close())
	}
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
		if !props.MemoryPoolsSupported {
			fmt.Printf("Device %d does not support cuda memory pools, skipping...\n", i)
			continue
		}
		if props.MempoolSupportedHandleTypes == 0 {
			fmt.Printf("Device %d does not support Memory pool based IPC, skipping...\n", i)
			continue
		}
		if props.MempoolSupportedHandleTypes&int(cu.MemHandleTypePosixFileDescriptor) == 0 {
			fmt.Printf("Device %d does not support any supported handle types, skipping...\n", i)
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

	// On each device a stream, an IPC pool and 64 MB from it, exported.
	var (
		streams []*cuda.Stream
		pools   []*cuda.IPCMemPool
		bufs    []*cuda.Buffer[int8]
		fds     []*os.File
		exports []cuda.PoolPointer[int8]
	)
	for _, d := range chosen {
		s, err := ctxs[d].NewNonBlockingStream()
		sample.Check(err)
		p, err := ctxs[d].NewIPCMemPool(cuda.MemPoolOptions{})
		sample.Check(err)
		b, err := cuda.AllocFromPool[int8](p.MemPool, s, dataSize)
		sample.Check(err)
		fd, err := p.ExportFD()
		sample.Check(err)
		e, err := cuda.ExportPoolPointer(b)
		sample.Check(err)
		streams, pools, bufs = append(streams, s), append(pools, p), append(bufs, b)
		fds, exports = append(fds, fd), append(exports, e)
	}
	// The children use the allocations: they must be allocated by then.
	for _, s := range streams {
		sample.Check(s.Synchronize())
	}

	children, err := multiproc.Spawn(len(chosen))
	if err != nil {
		fmt.Println("Failed to create process")
		os.Exit(1)
	}
	msg := message(chosen, exports)
	for i := range chosen {
		sample.Check(cuda.SendFiles(children.Conn(i), msg, fds...))
	}
	// The descriptors are sent: close them here.
	for _, fd := range fds {
		sample.Check(fd.Close())
	}
	barrierErr := children.Barriers(len(chosen))
	if err := children.Wait(); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	sample.Check(barrierErr)

	for i := range chosen {
		sample.Check(bufs[i].Close()) // cuMemFreeAsync on its stream
		sample.Check(streams[i].Synchronize())
		sample.Check(pools[i].Close())
		sample.Check(streams[i].Close())
	}
}
