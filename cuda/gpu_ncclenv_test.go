package cuda

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/cugen/cugen/cuda/launcher"
	"github.com/cugen/cugen/cuda/sys/nccl"
	"github.com/cugen/cugen/cugentest"
)

// launcherWorldsOfOne is each launcher's environment for a world of one
// rank, as torchrun, a Kubernetes JobSet, srun, mpirun (Open MPI), Hydra
// and a PMIx launcher set it.
var launcherWorldsOfOne = []struct {
	name string
	want launcher.Launcher
	env  map[string]string
}{
	{"torchrun", launcher.Env, map[string]string{"RANK": "0", "WORLD_SIZE": "1", "LOCAL_RANK": "0", "LOCAL_WORLD_SIZE": "1", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": "29500", "TORCHELASTIC_RUN_ID": "none"}},
	{"jobset", launcher.Env, map[string]string{"RANK": "0", "WORLD_SIZE": "1", "JOBSET_NAME": "js"}},
	{"slurm", launcher.Slurm, map[string]string{"SLURM_PROCID": "0", "SLURM_NTASKS": "1", "SLURM_LOCALID": "0", "SLURM_STEP_NODELIST": "gpu[01]", "SLURM_JOB_ID": "42", "SLURM_STEP_ID": "0"}},
	{"openmpi", launcher.OpenMPI, map[string]string{"OMPI_COMM_WORLD_RANK": "0", "OMPI_COMM_WORLD_SIZE": "1", "OMPI_COMM_WORLD_LOCAL_RANK": "0", "PMIX_RANK": "0"}},
	{"hydra", launcher.PMI, map[string]string{"PMI_RANK": "0", "PMI_SIZE": "1", "MPI_LOCALRANKID": "0"}},
	{"pmix", launcher.PMI, map[string]string{"PMIX_RANK": "0", "PMI_SIZE": "1", "PMIX_NAMESPACE": "ns"}},
}

// TestGPUJoinCommFromEnv: under each launcher's environment, a world of
// one rank joins the real NCCL on the device of its local rank and
// all-reduces to completion (the sum over one rank is its input).
func TestGPUJoinCommFromEnv(t *testing.T) {
	_, err := DeviceCount()
	cugentest.NeedDevice(t, err)
	cugentest.NeedLibrary(t, nccl.SharedLibrary().Load())
	for _, w := range launcherWorldsOfOne {
		t.Run(w.name, func(t *testing.T) {
			lookup := launcher.Lookup(func(k string) (string, bool) { v, ok := w.env[k]; return v, ok })
			job, err := launcher.Detect(lookup)
			if err != nil {
				t.Fatal(err)
			}
			if job.Launcher != w.want {
				t.Fatalf("launcher %s, want %s", job.Launcher, w.want)
			}
			c, err := NewContext(job.LocalRank)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			comm, err := JoinCommFromEnv(ctx, c, lookup)
			if err != nil {
				t.Fatal(err)
			}
			defer comm.Close()
			if err := allReduceCheck(c, comm); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: all-reduce of %d ranks done", job, comm.Size())
		})
	}
}

// allReduceCheck all-reduces rank+1 (and two constants) in place on comm
// and checks the sums.
func allReduceCheck(c *Context, comm *Comm) error {
	s, err := c.NewStream()
	if err != nil {
		return err
	}
	defer s.Close()
	x, err := AllocFrom(c, []int32{int32(comm.Rank() + 1), 10, -5})
	if err != nil {
		return err
	}
	defer x.Close()
	if err := AllReduce(comm, s, x, x, nccl.Sum); err != nil {
		return err
	}
	if err := s.Synchronize(); err != nil {
		return err
	}
	got := make([]int32, 3)
	if err := x.CopyTo(got); err != nil {
		return err
	}
	n := int32(comm.Size())
	if want := []int32{n * (n + 1) / 2, 10 * n, -5 * n}; fmt.Sprint(got) != fmt.Sprint(want) {
		return fmt.Errorf("AllReduce: %v, want %v", got, want)
	}
	return nil
}
