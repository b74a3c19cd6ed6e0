// Command ncclLaunchers joins an NCCL communicator the way a job on a
// cluster does, from the variables its launcher sets, and all-reduces
// over it (docs/nccl.md):
//
//	torchrun --nnodes 2 --nproc-per-node 8 --rdzv-endpoint node0:29500 --no-python ./ncclLaunchers
//	srun -N 2 --ntasks-per-node 8 --gpus-per-node 8 ./ncclLaunchers
//	mpirun -np 16 -x MASTER_ADDR=node0 -x MASTER_PORT=29500 ./ncclLaunchers
//
// Each rank opens the GPU of its local rank (modulo the GPUs it sees),
// calls cuda.JoinCommFromEnv, all-reduces rank+1 and checks the sum.
//
// Started by hand, outside any launcher, it runs itself once under each
// launcher's environment with a world of one rank (torchrun, a
// Kubernetes JobSet, srun, Open MPI's mpirun, Hydra, a PMIx launcher) and
// checks that each found its launcher and completed the all-reduce:
//
//	go run ./examples/ncclLaunchers
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/launcher"
	"github.com/cugen/cugen/cuda/sys/nccl"
	"github.com/cugen/cugen/examples/internal/sample"
)

func main() {
	job, err := launcher.Detect()
	if errors.Is(err, launcher.ErrNoLauncher) {
		demo()
		return
	}
	sample.Check(err)
	sample.Check(rank(job))
}

// rank is one rank of the job: its GPU, the communicator, an all-reduce.
func rank(job launcher.Job) error {
	n, err := cuda.DeviceCount()
	if err != nil {
		return err
	}
	if n < 1 {
		return errors.New("no GPU")
	}
	c, err := cuda.NewContext(job.LocalRank % n)
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	comm, err := cuda.JoinJob(ctx, c, job)
	if err != nil {
		return err
	}
	defer comm.Close()
	s, err := c.NewStream()
	if err != nil {
		return err
	}
	defer s.Close()
	const count = 1 << 20
	x, err := cuda.Alloc[float32](c, count)
	if err != nil {
		return err
	}
	defer x.Close()
	if err := x.Fill(float32(job.Rank + 1)); err != nil {
		return err
	}
	if err := cuda.AllReduce(comm, s, x, x, nccl.Sum); err != nil {
		return err
	}
	if err := s.Synchronize(); err != nil {
		return err
	}
	got := make([]float32, count)
	if err := x.CopyTo(got); err != nil {
		return err
	}
	want := float32(job.Size * (job.Size + 1) / 2)
	for i, v := range got {
		if v != want {
			return fmt.Errorf("rank %d: element %d is %v, want %v", job.Rank, i, v, want)
		}
	}
	fmt.Printf("%s: GPU %d, all-reduce of %d floats = %v: PASS\n", job, job.LocalRank%n, count, want)
	return nil
}

// worlds are the launchers' environments for a world of one rank.
var worlds = []struct {
	name string
	want launcher.Launcher
	env  []string
}{
	{"torchrun", launcher.Env, []string{"RANK=0", "WORLD_SIZE=1", "LOCAL_RANK=0", "LOCAL_WORLD_SIZE=1", "MASTER_ADDR=127.0.0.1", "MASTER_PORT=29500", "TORCHELASTIC_RUN_ID=demo"}},
	{"kubernetes jobset", launcher.Env, []string{"RANK=0", "WORLD_SIZE=1", "JOBSET_NAME=demo"}},
	{"srun", launcher.Slurm, []string{"SLURM_PROCID=0", "SLURM_NTASKS=1", "SLURM_LOCALID=0", "SLURM_STEP_NODELIST=gpu[01]", "SLURM_JOB_ID=1", "SLURM_STEP_ID=0"}},
	{"mpirun (Open MPI)", launcher.OpenMPI, []string{"OMPI_COMM_WORLD_RANK=0", "OMPI_COMM_WORLD_SIZE=1", "OMPI_COMM_WORLD_LOCAL_RANK=0"}},
	{"mpiexec (Hydra)", launcher.PMI, []string{"PMI_RANK=0", "PMI_SIZE=1", "MPI_LOCALRANKID=0"}},
	{"PMIx", launcher.PMI, []string{"PMIX_RANK=0", "PMI_SIZE=1", "PMIX_NAMESPACE=demo"}},
}

// demo runs this command under each launcher's environment.
func demo() {
	exe, err := os.Executable()
	sample.Check(err)
	failed := 0
	for _, w := range worlds {
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), w.env...)
		out, err := cmd.CombinedOutput()
		line := strings.TrimSpace(string(out))
		fmt.Printf("%-18s %s\n", w.name+":", line)
		if err != nil || !strings.Contains(line, "from "+string(w.want)+" ") || !strings.HasSuffix(line, "PASS") {
			failed++
		}
	}
	if failed > 0 {
		log.Fatalf("%d of %d launchers failed", failed, len(worlds))
	}
	fmt.Println("every launcher's world of one rank joined NCCL and all-reduced: PASS")
}
