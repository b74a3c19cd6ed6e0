// Command ncclCollectives runs NCCL's all-reduce, all-gather,
// reduce-scatter and broadcast across GPUs, checks every result and prints
// the bandwidth of each size as NCCL's own nccl-tests do: the algorithm
// bandwidth (bytes / time) and the bus bandwidth (what each link carries:
// all-reduce 2(n-1)/n of it, all-gather and reduce-scatter (n-1)/n,
// broadcast all of it).
//
// Two ways to run the ranks:
//
//	go run ./examples/ncclCollectives -mode procs [-nranks 2]   one process per GPU (default)
//	go run ./examples/ncclCollectives -mode threads             one process, a goroutine per GPU
//
// With -mode procs the command starts one copy of itself per rank. Rank 0
// makes the communicator's ncclUniqueId and hands it to the others over a
// TCP connection to -addr, which is how a job on several machines
// bootstraps: start the command on every node with -rank, -nranks, -device
// and the -addr of rank 0's node (see docs/nccl.md).
//
// A size is the largest buffer of the operation: the result of all-gather,
// the input of reduce-scatter. Elements are float32; rank r contributes
// r+1. Each size is run once and its result checked on the host, then run
// once more untimed (so that every rank has joined) and -iters times
// between two CUDA events on the rank's stream.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cudart"
	"github.com/cugen/cugen/cuda/sys/nccl"
	"github.com/cugen/cugen/examples/internal/sample"
)

func main() {
	mode := flag.String("mode", "procs", "procs: a process per rank; threads: one process, a goroutine per GPU")
	nranks := flag.Int("nranks", 0, "ranks (default: every GPU of this machine)")
	rank := flag.Int("rank", -1, "this process's rank (procs mode: set for the ranks the command starts, or by hand on each node)")
	device := flag.Int("device", -1, "this rank's GPU (default: the rank)")
	addr := flag.String("addr", "127.0.0.1:29511", "rank 0's address for the ncclUniqueId exchange")
	minBytes := flag.Int64("min", 8, "smallest size in bytes")
	maxBytes := flag.Int64("max", 4<<30, "largest size in bytes")
	step := flag.Int64("step", 8, "size factor from one size to the next")
	iters := flag.Int("iters", 20, "timed runs per size and operation")
	flag.Parse()
	if *minBytes < 4 || *maxBytes < *minBytes || *step < 2 || *iters < 1 {
		log.Fatalf("-min %d -max %d -step %d -iters %d: want 4 <= min <= max, step >= 2, iters >= 1", *minBytes, *maxBytes, *step, *iters)
	}
	cfg := config{min: *minBytes, max: *maxBytes, step: *step, iters: *iters}
	if *nranks == 0 {
		n, err := cudart.GetDeviceCount()
		sample.Check(err)
		*nranks = int(n)
	}
	if *nranks < 1 {
		log.Fatal("no GPU")
	}
	cfg.nranks = *nranks
	v, err := nccl.GetVersion()
	sample.Check(err)
	switch {
	case *mode == "threads":
		fmt.Printf("NCCL %d, %d ranks: one process, a goroutine per GPU (ncclCommInitAll)\n", v, cfg.nranks)
		threads(cfg)
	case *mode == "procs" && *rank < 0:
		fmt.Printf("NCCL %d, %d ranks: a process per GPU, ncclUniqueId over TCP %s\n", v, cfg.nranks, *addr)
		launch(cfg, *addr)
	case *mode == "procs":
		dev := *device
		if dev < 0 {
			dev = *rank
		}
		id := exchangeID(*rank, cfg.nranks, *addr)
		sample.Check(rankMain(cfg, *rank, dev, id))
	default:
		log.Fatalf("-mode %q: want procs or threads", *mode)
	}
}

type config struct {
	nranks         int
	min, max, step int64
	iters          int
}

// sizes are min, min*step, ... up to max, and max, each rounded down to
// whole float32 elements per rank.
func (c config) sizes() []int64 {
	var out []int64
	unit := 4 * int64(c.nranks)
	add := func(s int64) {
		if s = s / unit * unit; s > 0 && (len(out) == 0 || out[len(out)-1] != s) {
			out = append(out, s)
		}
	}
	for s := c.min; s < c.max; s *= c.step {
		add(s)
	}
	add(c.max)
	return out
}

// launch starts a copy of this command per rank and waits for all of them.
func launch(cfg config, addr string) {
	exe, err := os.Executable()
	sample.Check(err)
	var cmds []*exec.Cmd
	for r := 0; r < cfg.nranks; r++ {
		cmd := exec.Command(exe, append(os.Args[1:], "-rank", strconv.Itoa(r), "-nranks", strconv.Itoa(cfg.nranks), "-addr", addr)...)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if r > 0 {
			cmd.Stdout = io.Discard // rank 0 prints the table
		}
		sample.Check(cmd.Start())
		cmds = append(cmds, cmd)
	}
	failed := false
	for r, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			log.Printf("rank %d: %v", r, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

// exchangeID gives every rank rank 0's ncclUniqueId: rank 0 makes it and
// serves it to nranks-1 connections on addr; the others connect (retrying
// while rank 0 starts) and read its 128 bytes.
func exchangeID(rank, nranks int, addr string) nccl.UniqueId {
	var id nccl.UniqueId
	if rank == 0 {
		id, err := nccl.GetUniqueId()
		sample.Check(err)
		ln, err := net.Listen("tcp", addr)
		sample.Check(err)
		defer ln.Close()
		for i := 1; i < nranks; i++ {
			c, err := ln.Accept()
			sample.Check(err)
			_, err = c.Write(id.Internal[:])
			c.Close()
			sample.Check(err)
		}
		return id
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			if time.Now().After(deadline) {
				log.Fatalf("rank %d: rank 0 at %s: %v", rank, addr, err)
			}
			time.Sleep(50 * time.Millisecond)
			continue
		}
		_, err = io.ReadFull(c, id.Internal[:])
		c.Close()
		sample.Check(err)
		return id
	}
}

// threads runs every rank in this process: ncclCommInitAll makes the
// communicators, then a goroutine per GPU, each on its own OS thread (NCCL
// calls of different ranks must come from different threads), runs them.
func threads(cfg config) {
	comms := make([]nccl.Comm, cfg.nranks)
	sample.Check(nccl.CommInitAll(&comms[0], int32(cfg.nranks), nil))
	var wg sync.WaitGroup
	errs := make([]error, cfg.nranks)
	for r := range comms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[r] = runRank(cfg, r, r, comms[r])
		}()
	}
	wg.Wait()
	for r, err := range errs {
		if err != nil {
			log.Fatalf("rank %d: %v", r, err)
		}
	}
}

// rankMain is one rank of procs mode: its communicator from the shared id.
func rankMain(cfg config, rank, dev int, id nccl.UniqueId) error {
	runtime.LockOSThread()
	if err := cudart.SetDevice(int32(dev)); err != nil {
		return err
	}
	comm, err := nccl.CommInitRank(int32(cfg.nranks), id, int32(rank))
	if err != nil {
		return err
	}
	return runRank(cfg, rank, dev, comm)
}

// op is one collective: how it runs on a size and what each rank must
// find in its result.
type op struct {
	name string
	bus  func(n float64) float64 // bus bandwidth / algorithm bandwidth
	// run starts the collective on size bytes: send and recv hold that
	// many bytes at most.
	run func(send, recv unsafe.Pointer, size int64, r *rankState) error
	// want is the value of element i of the result of a size-byte run,
	// and how many elements the result has.
	want func(i int64, size int64, r *rankState) float32
	out  func(size int64, r *rankState) int64
}

type rankState struct {
	rank, nranks int
	comm         nccl.Comm
	stream       cudart.Stream
}

var ops = []op{
	{
		name: "all-reduce",
		bus:  func(n float64) float64 { return 2 * (n - 1) / n },
		run: func(send, recv unsafe.Pointer, size int64, r *rankState) error {
			return nccl.AllReduce(send, recv, uint64(size/4), nccl.Float32, nccl.Sum, r.comm, r.stream)
		},
		want: func(i, size int64, r *rankState) float32 { return float32(r.nranks * (r.nranks + 1) / 2) },
		out:  func(size int64, r *rankState) int64 { return size },
	},
	{
		name: "all-gather",
		bus:  func(n float64) float64 { return (n - 1) / n },
		run: func(send, recv unsafe.Pointer, size int64, r *rankState) error {
			return nccl.AllGather(send, recv, uint64(size/4/int64(r.nranks)), nccl.Float32, r.comm, r.stream)
		},
		want: func(i, size int64, r *rankState) float32 { return float32(i/(size/4/int64(r.nranks)) + 1) },
		out:  func(size int64, r *rankState) int64 { return size / int64(r.nranks) * int64(r.nranks) },
	},
	{
		name: "reduce-scatter",
		bus:  func(n float64) float64 { return (n - 1) / n },
		run: func(send, recv unsafe.Pointer, size int64, r *rankState) error {
			return nccl.ReduceScatter(send, recv, uint64(size/4/int64(r.nranks)), nccl.Float32, nccl.Sum, r.comm, r.stream)
		},
		want: func(i, size int64, r *rankState) float32 { return float32(r.nranks * (r.nranks + 1) / 2) },
		out:  func(size int64, r *rankState) int64 { return size / 4 / int64(r.nranks) * 4 },
	},
	{
		name: "broadcast",
		bus:  func(n float64) float64 { return 1 },
		run: func(send, recv unsafe.Pointer, size int64, r *rankState) error {
			return nccl.Broadcast(send, recv, uint64(size/4), nccl.Float32, 0, r.comm, r.stream)
		},
		want: func(i, size int64, r *rankState) float32 { return 1 }, // rank 0's
		out:  func(size int64, r *rankState) int64 { return size },
	},
}

// runRank runs every operation at every size on one rank, on a locked
// OS thread with the rank's device current; rank 0 prints the results.
func runRank(cfg config, rank, dev int, comm nccl.Comm) (err error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cudart.SetDevice(int32(dev)); err != nil {
		return err
	}
	defer func() {
		if derr := nccl.CommDestroy(comm); err == nil {
			err = derr
		}
	}()
	r := &rankState{rank: rank, nranks: cfg.nranks, comm: comm}
	if r.stream, err = cudart.StreamCreate(); err != nil {
		return err
	}
	defer cudart.StreamDestroy(r.stream)
	send, err := cudart.Malloc(uint64(cfg.max))
	if err != nil {
		return err
	}
	defer cudart.Free(send)
	recv, err := cudart.Malloc(uint64(cfg.max))
	if err != nil {
		return err
	}
	defer cudart.Free(recv)
	start, err := cudart.EventCreate()
	if err != nil {
		return err
	}
	defer cudart.EventDestroy(start)
	stop, err := cudart.EventCreate()
	if err != nil {
		return err
	}
	defer cudart.EventDestroy(stop)
	host := make([]float32, cfg.max/4)

	for _, o := range ops {
		if rank == 0 {
			fmt.Printf("\n%s, %d ranks, float32 sum\n%14s %12s %12s %12s\n", o.name, cfg.nranks, "size (B)", "time (us)", "algbw GB/s", "busbw GB/s")
		}
		for _, size := range cfg.sizes() {
			// Checked run: the input rank+1, the output poisoned first.
			if err := cu.MemsetD32Async(cu.Deviceptr(uintptr(send)), math.Float32bits(float32(rank+1)), uint64(size/4), cu.Stream(r.stream)); err != nil {
				return err
			}
			if err := cu.MemsetD32Async(cu.Deviceptr(uintptr(recv)), 0xffffffff, uint64(size/4), cu.Stream(r.stream)); err != nil {
				return err
			}
			if err := o.run(send, recv, size, r); err != nil {
				return fmt.Errorf("%s %d B: %w", o.name, size, err)
			}
			out := o.out(size, r)
			if err := cudart.MemcpyAsync(unsafe.Pointer(unsafe.SliceData(host)), recv, uint64(out), cudart.MemcpyDeviceToHost, r.stream); err != nil {
				return err
			}
			if err := cudart.StreamSynchronize(r.stream); err != nil {
				return err
			}
			for i := int64(0); i < out/4; i++ {
				if w := o.want(i, size, r); host[i] != w {
					return fmt.Errorf("%s %d B: element %d is %v, want %v", o.name, size, i, host[i], w)
				}
			}
			// Timed runs, between two events on the rank's stream, after
			// one more untimed run: the ranks check their results on the
			// host each at its own pace, and the start event must not
			// count the wait for a peer still checking.
			if err := o.run(send, recv, size, r); err != nil {
				return err
			}
			if err := cudart.EventRecord(start, r.stream); err != nil {
				return err
			}
			for it := 0; it < cfg.iters; it++ {
				if err := o.run(send, recv, size, r); err != nil {
					return err
				}
			}
			if err := cudart.EventRecord(stop, r.stream); err != nil {
				return err
			}
			if err := cudart.EventSynchronize(stop); err != nil {
				return err
			}
			ms, err := cudart.EventElapsedTime(start, stop)
			if err != nil {
				return err
			}
			us := float64(ms) * 1e3 / float64(cfg.iters)
			algbw := float64(size) / us / 1e3
			if rank == 0 {
				fmt.Printf("%14d %12.2f %12.2f %12.2f\n", size, us, algbw, algbw*o.bus(float64(cfg.nranks)))
			}
		}
	}
	if rank == 0 {
		fmt.Println("\nevery result checked: PASS")
	}
	return nil
}
