//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package doctor

import (
	"errors"
	"strings"

	"github.com/cugen/cugen/cuda/launcher"
)

// launcher prints the job a launcher's variables describe here (torchrun,
// srun, mpirun, PMI): what cuda.JoinCommFromEnv would join. Variables it
// cannot read are a note.
func (r *run) launcher() {
	job, err := launcher.Detect()
	switch {
	case errors.Is(err, launcher.ErrNoLauncher):
		r.printf("launcher: none (no RANK, OMPI_COMM_WORLD_RANK, SLURM_PROCID, PMI_RANK or PMIX_RANK)")
	case err != nil:
		text := strings.TrimPrefix(err.Error(), "launcher: ")
		r.printf("launcher: %s", text)
		r.problem(false, "launcher", text+": cuda.JoinCommFromEnv would fail")
	default:
		r.printf("launcher: %s", job)
	}
}
