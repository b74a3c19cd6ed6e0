package cuda

import (
	"context"
	"fmt"

	"github.com/cugen/cugen/cuda/launcher"
	"github.com/cugen/cugen/cuda/rendezvous"
	"github.com/cugen/cugen/cuda/sys/nccl"
)

// The NCCL calls JoinJob makes; CPU tests replace them with stand-ins.
var (
	ncclUniqueID  = nccl.GetUniqueId
	rendezvousLog func(format string, args ...any) // rank 0's rendezvous log (tests)
)

// JoinCommFromEnv makes this process's rank of the communicator of the
// job its launcher started (torchrun, srun, mpirun, a Kubernetes
// training operator), on c's device: it reads the job from the
// environment ([launcher.Detect], whose options override any value) and
// joins it ([JoinJob]).
//
// The caller picks the device: to give each process of a node its own
// GPU, detect the job first and open the context of its local rank,
//
//	job, err := launcher.Detect()
//	c, err := cuda.NewContext(job.LocalRank) // or 0 where each process sees one GPU
//	comm, err := cuda.JoinJob(ctx, c, job)
//
// (docs/nccl.md has the torchrun, srun and mpirun command lines).
func JoinCommFromEnv(ctx context.Context, c *Context, opts ...launcher.Option) (*Comm, error) {
	job, err := launcher.Detect(opts...)
	if err != nil {
		return nil, err
	}
	return JoinJob(ctx, c, job)
}

// JoinJob makes rank job.Rank of the job's communicator of job.Size ranks
// on c's device. Rank 0 makes the NCCL unique id (ncclGetUniqueId) and
// serves it at job.Addr to the other ranks, which fetch it, retrying
// while rank 0 starts (package [github.com/cugen/cugen/cuda/rendezvous]
// documents the wire format); then every rank joins ([JoinComm]). ctx
// bounds the rendezvous: when it ends, or a rank leaves or is refused,
// every rank that reached rank 0 returns an error. It does not bound
// NCCL's initialisation after it, which returns when every rank has
// joined (NCCL's own timeouts apply). A job of one rank needs no network.
//
// Rank 0 listens on job.Addr's host when it is an IP address, else on
// every interface, at its port.
func JoinJob(ctx context.Context, c *Context, job launcher.Job) (*Comm, error) {
	if job.Size < 1 || job.Rank < 0 || job.Rank >= job.Size {
		return nil, fmt.Errorf("cuda: JoinJob: rank %d of %d", job.Rank, job.Size)
	}
	var id nccl.UniqueId
	var err error
	cfg := rendezvous.Config{JobID: job.ID, Size: job.Size, Logf: rendezvousLog}
	switch {
	case job.Size == 1:
		id, err = ncclUniqueID()
	case job.Rank == 0:
		if id, err = ncclUniqueID(); err != nil {
			break
		}
		ln, lerr := rendezvous.Listen(ctx, job.Addr)
		if lerr != nil {
			return nil, fmt.Errorf("cuda: JoinJob (%s): %w", job, lerr)
		}
		err = rendezvous.Serve(ctx, ln, cfg, id.Internal[:])
	default:
		var b []byte
		if b, err = rendezvous.Fetch(ctx, job.Addr, cfg, job.Rank); err == nil && len(b) != len(id.Internal) {
			err = fmt.Errorf("rank 0 sent an id of %d bytes, want %d", len(b), len(id.Internal))
		}
		copy(id.Internal[:], b)
	}
	if err != nil {
		return nil, fmt.Errorf("cuda: JoinJob (%s): %w", job, err)
	}
	return JoinComm(c, id, job.Rank, job.Size)
}
