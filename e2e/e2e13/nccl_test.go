package e2e13

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/generated/cuda13/cu"
	"github.com/cugen/cugen/generated/cuda13/cudart"
	"github.com/cugen/cugen/generated/cuda13/nccl"
)

// ncclGPUs skips the test unless the machine has two GPUs and NCCL loads
// (or fails it: cugentest.NeedDevice, NeedLibrary).
func ncclGPUs(t *testing.T) int {
	t.Helper()
	n, err := cudart.GetDeviceCount()
	cugentest.NeedDevice(t, err)
	cugentest.SkipFewGPUs(t, 2, int(n))
	cugentest.NeedLibrary(t, nccl.SharedLibrary().Load())
	return int(n)
}

// ncclRank runs an all-reduce and an all-gather of count float32 on one
// rank, on a locked OS thread with its device current, rank r giving
// r+1, and checks both results.
func ncclRank(comm nccl.Comm, rank, nranks, count int) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cudart.SetDevice(int32(rank)); err != nil {
		return err
	}
	s, err := cudart.StreamCreate()
	if err != nil {
		return err
	}
	defer cudart.StreamDestroy(s)
	send, err := cudart.Malloc(uint64(4 * count))
	if err != nil {
		return err
	}
	defer cudart.Free(send)
	recv, err := cudart.Malloc(uint64(4 * count * nranks))
	if err != nil {
		return err
	}
	defer cudart.Free(recv)
	if err := cu.MemsetD32Async(cu.Deviceptr(uintptr(send)), math.Float32bits(float32(rank+1)), uint64(count), cu.Stream(s)); err != nil {
		return err
	}
	host := make([]float32, count*nranks)
	copyBack := func(n int) error {
		if err := cudart.MemcpyAsync(unsafe.Pointer(&host[0]), recv, uint64(4*n), cudart.MemcpyDeviceToHost, s); err != nil {
			return err
		}
		return cudart.StreamSynchronize(s)
	}
	if err := nccl.AllReduce(send, recv, uint64(count), nccl.Float32, nccl.Sum, comm, s); err != nil {
		return err
	}
	if err := copyBack(count); err != nil {
		return err
	}
	sum := float32(nranks * (nranks + 1) / 2)
	for i, v := range host[:count] {
		if v != sum {
			return fmt.Errorf("rank %d: all-reduce element %d = %v, want %v", rank, i, v, sum)
		}
	}
	if err := nccl.AllGather(send, recv, uint64(count), nccl.Float32, comm, s); err != nil {
		return err
	}
	if err := copyBack(count * nranks); err != nil {
		return err
	}
	for i, v := range host {
		if want := float32(i/count + 1); v != want {
			return fmt.Errorf("rank %d: all-gather element %d = %v, want %v", rank, i, v, want)
		}
	}
	if n, err := nccl.CommCount(comm); err != nil || int(n) != nranks {
		return fmt.Errorf("rank %d: CommCount = %d, %v", rank, n, err)
	}
	if r, err := nccl.CommUserRank(comm); err != nil || int(r) != rank {
		return fmt.Errorf("rank %d: CommUserRank = %d, %v", rank, r, err)
	}
	return nil
}

// TestNCCLGoroutinePerGPU: one process, ncclCommInitAll, a goroutine per
// GPU (each on its own OS thread) running the collectives of its rank.
func TestNCCLGoroutinePerGPU(t *testing.T) {
	n := ncclGPUs(t)
	comms := make([]nccl.Comm, n)
	if err := nccl.CommInitAll(&comms[0], int32(n), nil); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for r := range comms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[r] = ncclRank(comms[r], r, n, 1<<20)
		}()
	}
	wg.Wait()
	for r, c := range comms {
		if errs[r] != nil {
			t.Error(errs[r])
		}
		if err := nccl.CommDestroy(c); err != nil {
			t.Error(err)
		}
	}
}

// TestNCCLTwoProcesses: one process per GPU, as a multi-node job runs,
// each rank's communicator made by ncclCommInitRankConfig.
// The test makes the ncclUniqueId and starts the test binary again per
// rank (TestNCCLRankProcess), handing it the id in the environment, the
// way a launcher or a TCP exchange would.
func TestNCCLTwoProcesses(t *testing.T) {
	if os.Getenv("CUGEN_NCCL_RANK") != "" {
		t.Skip("a rank process")
	}
	n := ncclGPUs(t)
	id, err := nccl.GetUniqueId()
	if err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	for r := 0; r < n; r++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestNCCLRankProcess$", "-test.v")
		cmd.Env = append(os.Environ(), "CUGEN_NCCL_RANK="+strconv.Itoa(r), "CUGEN_NCCL_NRANKS="+strconv.Itoa(n),
			"CUGEN_NCCL_ID="+hex.EncodeToString(id.Internal[:]))
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for r, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("rank %d: %v", r, err)
		}
	}
}

// TestNCCLRankProcess is one rank of TestNCCLTwoProcesses; it skips
// when the test binary is not started as one.
func TestNCCLRankProcess(t *testing.T) {
	rankEnv := os.Getenv("CUGEN_NCCL_RANK")
	if rankEnv == "" {
		t.Skip("not started by TestNCCLTwoProcesses")
	}
	rank, _ := strconv.Atoi(rankEnv)
	nranks, _ := strconv.Atoi(os.Getenv("CUGEN_NCCL_NRANKS"))
	b, err := hex.DecodeString(os.Getenv("CUGEN_NCCL_ID"))
	if err != nil || len(b) != nccl.UniqueIdBytes {
		t.Fatalf("CUGEN_NCCL_ID: %d bytes, %v", len(b), err)
	}
	var id nccl.UniqueId
	copy(id.Internal[:], b)
	runtime.LockOSThread()
	if err := cudart.SetDevice(int32(rank)); err != nil {
		t.Fatal(err)
	}
	// With a configuration, started from the header's initializer (NCCL
	// refuses a config without its size, magic and version).
	config := nccl.ConfigInitializer()
	config.Blocking = 1
	comm, err := nccl.CommInitRankConfig(int32(nranks), id, int32(rank), &config)
	if err != nil {
		t.Fatal(err)
	}
	defer nccl.CommDestroy(comm)
	if err := ncclRank(comm, rank, nranks, 1<<20); err != nil {
		t.Fatal(err)
	}
	t.Logf("rank %d of %d: all-reduce and all-gather checked", rank, nranks)
}

// TestNCCLErrors: a call NCCL refuses returns its typed error and text.
func TestNCCLErrors(t *testing.T) {
	cugentest.NeedLibrary(t, nccl.SharedLibrary().Load())
	v, err := nccl.GetVersion()
	if err != nil || v < 22203 {
		t.Fatalf("GetVersion = %d, %v", v, err)
	}
	t.Logf("NCCL %d from %s", v, nccl.SharedLibrary().Path())
	_, err = nccl.CommInitRank(2, nccl.UniqueId{}, 5) // rank out of range
	if err == nil {
		t.Fatal("CommInitRank with rank 5 of 2 succeeded")
	}
	t.Logf("%v", err)
	var code nccl.Result
	if !errors.As(err, &code) || code != nccl.InvalidArgument {
		t.Errorf("CommInitRank(2, id, 5) = %v, want ncclInvalidArgument", err)
	}
}
