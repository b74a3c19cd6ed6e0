//go:build linux && (amd64 || arm64)

package doctor

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// clearLaunchers unsets every launcher variable of this process until t
// ends (the test may run under a launcher).
func clearLaunchers(t *testing.T) {
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		for _, p := range []string{"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "TORCHELASTIC_", "JOBSET_", "OMPI_", "PMI_", "PMIX_", "MPI_LOCAL", "SLURM_"} {
			if k == p || strings.HasSuffix(p, "_") && strings.HasPrefix(k, p) {
				os.Unsetenv(k)
				t.Cleanup(func() { os.Setenv(k, v) })
				break
			}
		}
	}
}

// TestLauncherLine: doctor says which launcher's job this process is in
// (none, Slurm's), and a variable it cannot read is a note naming it.
func TestLauncherLine(t *testing.T) {
	clearLaunchers(t)
	o := Options{Majors: []int{13}, Libs: []string{"nvrtc"}}
	_, lines := doctor(t, o)
	hasLine(t, lines, regexp.QuoteMeta("launcher: none (no RANK, OMPI_COMM_WORLD_RANK, SLURM_PROCID, PMI_RANK or PMIX_RANK)"))

	for k, v := range map[string]string{"SLURM_PROCID": "1", "SLURM_NTASKS": "2", "SLURM_LOCALID": "1", "SLURM_STEP_NODELIST": "gpu[01-02]", "SLURM_JOB_ID": "1"} {
		t.Setenv(k, v)
	}
	_, lines = doctor(t, o)
	hasLine(t, lines, regexp.QuoteMeta("launcher: rank 1 of 2 (local 1) from slurm (SLURM_PROCID), rendezvous gpu01:20016"))

	t.Setenv("SLURM_NTASKS", "two")
	rep, lines := doctor(t, o)
	hasLine(t, lines, regexp.QuoteMeta(`launcher: SLURM_NTASKS="two" is not an integer`))
	hasLine(t, lines, regexp.QuoteMeta(`note: launcher: SLURM_NTASKS="two" is not an integer: cuda.JoinCommFromEnv would fail`))
	if rep.Notes < 1 {
		t.Errorf("Notes = %d, want the launcher's counted", rep.Notes)
	}
}
