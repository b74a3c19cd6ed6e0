package launcher

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// vars is an environment of NAME=value pairs.
func vars(kv ...string) Option {
	m := map[string]string{}
	for _, s := range kv {
		k, v, _ := strings.Cut(s, "=")
		m[k] = v
	}
	return Lookup(func(k string) (string, bool) { v, ok := m[k]; return v, ok })
}

// TestDetect: every launcher's environment gives its job, with the
// launcher named, and options override every value.
func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
		want Job
	}{
		{"torchrun", []Option{vars("RANK=3", "WORLD_SIZE=8", "LOCAL_RANK=1", "LOCAL_WORLD_SIZE=4", "MASTER_ADDR=node0", "MASTER_PORT=29500", "TORCHELASTIC_RUN_ID=abc")},
			Job{Launcher: Env, Rank: 3, Size: 8, LocalRank: 1, Addr: "node0:29500", ID: "torchrun:abc", Via: "RANK"}},
		{"torchrun with the agent's store", []Option{vars("RANK=1", "WORLD_SIZE=2", "LOCAL_RANK=1", "MASTER_ADDR=node0", "MASTER_PORT=29500", "TORCHELASTIC_USE_AGENT_STORE=True", "TORCHELASTIC_RUN_ID=x")},
			Job{Launcher: Env, Rank: 1, Size: 2, LocalRank: 1, Addr: "node0:29501", ID: "torchrun:x", Via: "RANK"}},
		{"Kubernetes PyTorchJob (no LOCAL_RANK)", []Option{vars("RANK=1", "WORLD_SIZE=2", "MASTER_ADDR=job-master-0", "MASTER_PORT=23456", "KUBERNETES_SERVICE_HOST=10.0.0.1")},
			Job{Launcher: Env, Rank: 1, Size: 2, Addr: "job-master-0:23456", Via: "RANK"}},
		{"JobSet", []Option{vars("RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=js-0-0.js", "MASTER_PORT=1234", "JOBSET_NAME=js")},
			Job{Launcher: Env, Rank: 0, Size: 2, Addr: "js-0-0.js:1234", ID: "jobset:js", Via: "RANK"}},
		{"IPv6 master", []Option{vars("RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=fd00::1", "MASTER_PORT=1234")},
			Job{Launcher: Env, Rank: 0, Size: 2, Addr: "[fd00::1]:1234", Via: "RANK"}},
		{"torchrun world of 1, no master", []Option{vars("RANK=0", "WORLD_SIZE=1")},
			Job{Launcher: Env, Size: 1, Via: "RANK"}},
		{"slurm", []Option{vars("SLURM_PROCID=5", "SLURM_NTASKS=8", "SLURM_NPROCS=8", "SLURM_LOCALID=1", "SLURM_STEP_NODELIST=gpu[01-04,07]", "SLURM_JOB_NODELIST=other", "SLURM_JOB_ID=1234", "SLURM_STEP_ID=2")},
			Job{Launcher: Slurm, Rank: 5, Size: 8, LocalRank: 1, Addr: "gpu01:" + strconv.Itoa(20000+1234%760*16+2), ID: "slurm:1234.2", Via: "SLURM_PROCID"}},
		{"slurm world of 1, no node list", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=1")},
			Job{Launcher: Slurm, Size: 1, Via: "SLURM_PROCID"}},
		{"slurm job nodelist, no step id", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=2", "SLURM_JOB_NODELIST=a1,b[2-3]", "SLURM_JOB_ID=7")},
			Job{Launcher: Slurm, Rank: 0, Size: 2, Addr: "a1:20112", ID: "slurm:7.0", Via: "SLURM_PROCID"}},
		{"slurm MASTER_PORT overrides the port", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=2", "SLURM_NODELIST=n[9-10]", "MASTER_PORT=4000")},
			Job{Launcher: Slurm, Rank: 0, Size: 2, Addr: "n9:4000", Via: "SLURM_PROCID"}},
		{"slurm MASTER_ADDR overrides the host", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=2", "SLURM_JOB_ID=1", "MASTER_ADDR=10.1.1.1")},
			Job{Launcher: Slurm, Rank: 0, Size: 2, Addr: "10.1.1.1:20016", ID: "slurm:1.0", Via: "SLURM_PROCID"}},
		{"open mpi", []Option{vars("OMPI_COMM_WORLD_RANK=2", "OMPI_COMM_WORLD_SIZE=4", "OMPI_COMM_WORLD_LOCAL_RANK=0", "OMPI_COMM_WORLD_LOCAL_SIZE=2", "PMIX_RANK=2", "PMIX_NAMESPACE=prterun-x-1@1", "MASTER_ADDR=h", "MASTER_PORT=9",
			"SLURM_PROCID=0", "SLURM_NTASKS=1")},
			Job{Launcher: OpenMPI, Rank: 2, Size: 4, Addr: "h:9", ID: "pmix:prterun-x-1@1", Via: "OMPI_COMM_WORLD_RANK"}},
		{"hydra PMI", []Option{vars("PMI_RANK=1", "PMI_SIZE=2", "MPI_LOCALRANKID=1", "MPI_LOCALNRANKS=2", "MASTER_ADDR=h", "MASTER_PORT=9")},
			Job{Launcher: PMI, Rank: 1, Size: 2, LocalRank: 1, Addr: "h:9", Via: "PMI_RANK"}},
		{"PMIx", []Option{vars("PMIX_RANK=1", "PMI_SIZE=3", "PMIX_NAMESPACE=ns", "MASTER_ADDR=h", "MASTER_PORT=9")},
			Job{Launcher: PMI, Rank: 1, Size: 3, Addr: "h:9", ID: "pmix:ns", Via: "PMIX_RANK"}},
		{"srun --mpi=pmix reads as slurm", []Option{vars("PMIX_RANK=1", "PMI_SIZE=2", "SLURM_PROCID=1", "SLURM_NTASKS=2", "SLURM_LOCALID=0", "SLURM_STEP_NODELIST=x[3-4]", "SLURM_JOB_ID=0", "SLURM_STEP_ID=0")},
			Job{Launcher: Slurm, Rank: 1, Size: 2, Addr: "x3:20000", ID: "slurm:0.0", Via: "SLURM_PROCID"}},
		{"mpirun in a Slurm allocation: PMI wins over a disagreeing Slurm", []Option{vars("PMI_RANK=3", "PMI_SIZE=4", "SLURM_PROCID=0", "SLURM_NTASKS=1", "MASTER_ADDR=h", "MASTER_PORT=9")},
			Job{Launcher: PMI, Rank: 3, Size: 4, Addr: "h:9", Via: "PMI_RANK"}},
		{"torchrun under srun: env wins", []Option{vars("RANK=6", "WORLD_SIZE=8", "LOCAL_RANK=2", "MASTER_ADDR=h", "MASTER_PORT=9", "SLURM_PROCID=1", "SLURM_NTASKS=2")},
			Job{Launcher: Env, Rank: 6, Size: 8, LocalRank: 2, Addr: "h:9", Via: "RANK"}},
		{"options alone", []Option{vars(), Rank(1), Size(2), Addr("127.0.0.1:5")},
			Job{Launcher: Options, Rank: 1, Size: 2, Addr: "127.0.0.1:5", Via: "options"}},
		{"options override every value", []Option{vars("RANK=3", "WORLD_SIZE=8", "LOCAL_RANK=1", "MASTER_ADDR=node0", "MASTER_PORT=29500", "TORCHELASTIC_RUN_ID=abc"),
			Rank(0), Size(1), LocalRank(0), Addr("127.0.0.2:7"), JobID("mine")},
			Job{Launcher: Env, Rank: 0, Size: 1, Addr: "127.0.0.2:7", ID: "mine", Via: "RANK"}},
		{"options fix a broken value", []Option{vars("RANK=9", "WORLD_SIZE=8", "MASTER_ADDR=h", "MASTER_PORT=9"), Rank(7)},
			Job{Launcher: Env, Rank: 7, Size: 8, Addr: "h:9", Via: "RANK"}},
		{"Addr option spares MPI its MASTER_*", []Option{vars("OMPI_COMM_WORLD_RANK=0", "OMPI_COMM_WORLD_SIZE=2"), Addr("n:1")},
			Job{Launcher: OpenMPI, Size: 2, Addr: "n:1", Via: "OMPI_COMM_WORLD_RANK"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Detect(tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Detect:\n got %+v\nwant %+v", got, tc.want)
			}
			if got.Launcher != tc.want.Launcher {
				t.Errorf("launcher %s, want %s", got.Launcher, tc.want.Launcher)
			}
		})
	}
}

// TestDetectErrors: every bad or missing variable is an error naming it.
func TestDetectErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
		want string
	}{
		{"nothing", []Option{vars()}, ErrNoLauncher.Error()},
		{"only Rank option", []Option{vars(), Rank(0)}, ErrNoLauncher.Error()},
		{"WORLD_SIZE missing", []Option{vars("RANK=0")}, "launcher: WORLD_SIZE is not set"},
		{"RANK garbage", []Option{vars("RANK=one", "WORLD_SIZE=2")}, `launcher: RANK="one" is not an integer`},
		{"RANK empty", []Option{vars("RANK=", "WORLD_SIZE=2")}, `launcher: RANK="" is not an integer`},
		{"RANK negative", []Option{vars("RANK=-1", "WORLD_SIZE=2")}, "launcher: RANK=-1 is negative"},
		{"RANK = WORLD_SIZE", []Option{vars("RANK=2", "WORLD_SIZE=2", "MASTER_ADDR=h", "MASTER_PORT=1")}, "launcher: RANK is 2, not in 0..1 (WORLD_SIZE 2)"},
		{"WORLD_SIZE 0", []Option{vars("RANK=0", "WORLD_SIZE=0")}, "launcher: WORLD_SIZE is 0: want at least 1 rank"},
		{"WORLD_SIZE huge", []Option{vars("RANK=0", "WORLD_SIZE=99999999999999999999")}, `launcher: WORLD_SIZE="99999999999999999999" is not an integer`},
		{"LOCAL_RANK garbage", []Option{vars("RANK=0", "WORLD_SIZE=1", "LOCAL_RANK=0x1")}, `launcher: LOCAL_RANK="0x1" is not an integer`},
		{"LOCAL_RANK >= LOCAL_WORLD_SIZE", []Option{vars("RANK=0", "WORLD_SIZE=4", "LOCAL_RANK=2", "LOCAL_WORLD_SIZE=2")}, "launcher: LOCAL_RANK=2 is not below LOCAL_WORLD_SIZE=2"},
		{"LOCAL_WORLD_SIZE > WORLD_SIZE", []Option{vars("RANK=0", "WORLD_SIZE=2", "LOCAL_WORLD_SIZE=4")}, "launcher: LOCAL_WORLD_SIZE=4 is more than WORLD_SIZE=2"},
		{"LOCAL_RANK >= WORLD_SIZE", []Option{vars("RANK=0", "WORLD_SIZE=2", "LOCAL_RANK=2", "MASTER_ADDR=h", "MASTER_PORT=1")}, "launcher: LOCAL_RANK is 2, not in 0..1 (WORLD_SIZE 2)"},
		{"no master for 2 ranks", []Option{vars("RANK=0", "WORLD_SIZE=2")}, "launcher: env gives no rendezvous address for 2 ranks: set MASTER_ADDR and MASTER_PORT"},
		{"agent store at the last port", []Option{vars("RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=h", "MASTER_PORT=65535", "TORCHELASTIC_USE_AGENT_STORE=True")}, "launcher: MASTER_PORT=65535 is torchrun's store"},
		{"MASTER_PORT without MASTER_ADDR", []Option{vars("RANK=0", "WORLD_SIZE=2", "MASTER_PORT=1")}, "launcher: MASTER_PORT is set but MASTER_ADDR is not"},
		{"MASTER_ADDR without MASTER_PORT", []Option{vars("RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=h")}, "launcher: MASTER_ADDR is set but MASTER_PORT is not"},
		{"MASTER_PORT garbage", []Option{vars("RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=h", "MASTER_PORT=http")}, `launcher: MASTER_PORT: port "http": want 1 to 65535`},
		{"MASTER_PORT 0", []Option{vars("RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=h", "MASTER_PORT=0")}, `launcher: MASTER_PORT: port "0": want 1 to 65535`},
		{"MASTER_PORT 65536", []Option{vars("RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=h", "MASTER_PORT=65536")}, `launcher: MASTER_PORT: port "65536": want 1 to 65535`},
		{"MASTER_ADDR empty", []Option{vars("RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=", "MASTER_PORT=1")}, `launcher: MASTER_ADDR="": no host`},
		{"MASTER_ADDR with a space", []Option{vars("RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=a b", "MASTER_PORT=1")}, `launcher: MASTER_ADDR="a b": host has the character ' '`},
		{"MASTER_ADDR a URL", []Option{vars("RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=tcp://h", "MASTER_PORT=1")}, `launcher: MASTER_ADDR="tcp://h": host has the character '/'`},
		{"Addr option without port", []Option{vars("RANK=0", "WORLD_SIZE=2"), Addr("h")}, `launcher: option Addr "h": address h: missing port in address`},
		{"Addr option bad port", []Option{vars("RANK=0", "WORLD_SIZE=2"), Addr("h:x")}, `launcher: option Addr "h:x": port "x": want 1 to 65535`},
		{"Rank option out of range", []Option{vars("RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=h", "MASTER_PORT=1"), Rank(5)}, "launcher: option Rank is 5, not in 0..1 (WORLD_SIZE 2)"},
		{"Size option negative", []Option{vars(), Rank(0), Size(-1)}, "launcher: option Size is -1: want at least 1 rank"},
		{"LocalRank option negative", []Option{vars(), Rank(0), Size(1), LocalRank(-1)}, "launcher: option LocalRank is -1, not in 0..0 (option Size 1)"},

		{"SLURM_NTASKS missing", []Option{vars("SLURM_PROCID=0")}, "launcher: SLURM_NTASKS is not set"},
		{"SLURM_PROCID garbage", []Option{vars("SLURM_PROCID=x", "SLURM_NTASKS=2")}, `launcher: SLURM_PROCID="x" is not an integer`},
		{"SLURM_PROCID >= SLURM_NTASKS", []Option{vars("SLURM_PROCID=4", "SLURM_NTASKS=4", "SLURM_NODELIST=n1", "SLURM_JOB_ID=1")}, "launcher: SLURM_PROCID is 4, not in 0..3 (SLURM_NTASKS 4)"},
		{"SLURM_NPROCS disagrees", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=4", "SLURM_NPROCS=2")}, "launcher: SLURM_NPROCS=2 disagrees with SLURM_NTASKS=4"},
		{"SLURM_STEP_NUM_TASKS disagrees", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=4", "SLURM_STEP_NUM_TASKS=8")}, "launcher: SLURM_STEP_NUM_TASKS=8 disagrees with SLURM_NTASKS=4"},
		{"SLURM_LOCALID negative", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=4", "SLURM_LOCALID=-2")}, "launcher: SLURM_LOCALID=-2 is negative"},
		{"no nodelist", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=2", "SLURM_JOB_ID=1")}, "launcher: none of SLURM_STEP_NODELIST, SLURM_JOB_NODELIST, SLURM_NODELIST is set"},
		{"nodelist unbalanced", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=2", "SLURM_JOB_ID=1", "SLURM_STEP_NODELIST=gpu[01-04")}, `launcher: SLURM_STEP_NODELIST="gpu[01-04": '[' without ']'`},
		{"nodelist empty brackets", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=2", "SLURM_JOB_ID=1", "SLURM_JOB_NODELIST=gpu[]")}, `launcher: SLURM_JOB_NODELIST="gpu[]": empty brackets []`},
		{"nodelist letters in range", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=2", "SLURM_JOB_ID=1", "SLURM_JOB_NODELIST=gpu[a-b]")}, `launcher: SLURM_JOB_NODELIST="gpu[a-b]": [a-b]: "a-b" is not a number or a range a-b`},
		{"nodelist backwards", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=2", "SLURM_JOB_ID=1", "SLURM_JOB_NODELIST=gpu[5-3]")}, `launcher: SLURM_JOB_NODELIST="gpu[5-3]": [5-3]: range "5-3" runs backwards`},
		{"nodelist empty", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=2", "SLURM_JOB_ID=1", "SLURM_JOB_NODELIST=")}, `launcher: SLURM_JOB_NODELIST="": empty node list`},
		{"Size option needs the address", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=1"), Size(2)}, "launcher: slurm gives no rendezvous address for 2 ranks"},
		{"no SLURM_JOB_ID for the port", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=2", "SLURM_NODELIST=n1")}, "launcher: SLURM_JOB_ID is not set: the rendezvous port comes from it (or set MASTER_PORT)"},
		{"SLURM_JOB_ID garbage", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=2", "SLURM_NODELIST=n1", "SLURM_JOB_ID=j1")}, `launcher: SLURM_JOB_ID="j1" is not an integer`},
		{"SLURM_STEP_ID garbage", []Option{vars("SLURM_PROCID=0", "SLURM_NTASKS=2", "SLURM_NODELIST=n1", "SLURM_JOB_ID=1", "SLURM_STEP_ID=batch")}, `launcher: SLURM_STEP_ID="batch" is not an integer`},

		{"open mpi without master", []Option{vars("OMPI_COMM_WORLD_RANK=0", "OMPI_COMM_WORLD_SIZE=2")}, "launcher: openmpi gives no rendezvous address for 2 ranks: set MASTER_ADDR and MASTER_PORT (for mpirun: -x MASTER_ADDR=host -x MASTER_PORT=29500)"},
		{"OMPI size missing", []Option{vars("OMPI_COMM_WORLD_RANK=0")}, "launcher: OMPI_COMM_WORLD_SIZE is not set"},
		{"OMPI rank out of range", []Option{vars("OMPI_COMM_WORLD_RANK=2", "OMPI_COMM_WORLD_SIZE=2", "MASTER_ADDR=h", "MASTER_PORT=1")}, "launcher: OMPI_COMM_WORLD_RANK is 2, not in 0..1 (OMPI_COMM_WORLD_SIZE 2)"},
		{"OMPI and PMIX ranks disagree", []Option{vars("OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=2", "PMIX_RANK=0")}, "launcher: PMIX_RANK=0 disagrees with OMPI_COMM_WORLD_RANK=1"},
		{"OMPI local size", []Option{vars("OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=4", "OMPI_COMM_WORLD_LOCAL_RANK=3", "OMPI_COMM_WORLD_LOCAL_SIZE=2")}, "launcher: OMPI_COMM_WORLD_LOCAL_RANK=3 is not below OMPI_COMM_WORLD_LOCAL_SIZE=2"},
		{"PMI_SIZE missing", []Option{vars("PMI_RANK=0")}, "launcher: PMI_SIZE is not set"},
		{"PMI and PMIX ranks disagree", []Option{vars("PMI_RANK=0", "PMIX_RANK=1", "PMI_SIZE=2")}, "launcher: PMIX_RANK=1 disagrees with PMI_RANK=0"},
		{"PMI without master", []Option{vars("PMIX_RANK=0", "PMI_SIZE=2")}, "launcher: pmi gives no rendezvous address for 2 ranks: set MASTER_ADDR and MASTER_PORT"},
		{"MPI_LOCALRANKID garbage", []Option{vars("PMI_RANK=0", "PMI_SIZE=2", "MPI_LOCALRANKID=?")}, `launcher: MPI_LOCALRANKID="?" is not an integer`},
		{"MPI_LOCALNRANKS > PMI_SIZE", []Option{vars("PMI_RANK=0", "PMI_SIZE=2", "MPI_LOCALNRANKS=3")}, "launcher: MPI_LOCALNRANKS=3 is more than PMI_SIZE=2"},
		{"PMI rank out of range", []Option{vars("PMI_RANK=7", "PMI_SIZE=2", "MASTER_ADDR=h", "MASTER_PORT=1")}, "launcher: PMI_RANK is 7, not in 0..1 (PMI_SIZE 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := Detect(tc.opts...)
			if err == nil {
				t.Fatalf("Detect = %+v, want an error %q", j, tc.want)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Detect:\n got %q\nwant %q", err, tc.want)
			}
			if tc.want == ErrNoLauncher.Error() && !errors.Is(err, ErrNoLauncher) {
				t.Errorf("not ErrNoLauncher: %v", err)
			}
		})
	}
}

// TestFirstNode: the first host of Slurm's compressed node lists.
func TestFirstNode(t *testing.T) {
	for in, want := range map[string]string{
		"gpu01":                    "gpu01",
		"gpu[01-04,07]":            "gpu01",
		"gpu[07,01-04]":            "gpu07",
		"a1,b[2-3]":                "a1",
		"b[2-3],a1":                "b2",
		"rack[2-3]-n[005-006]":     "rack2-n005",
		"node[10]":                 "node10",
		"x[0009-0011].example.org": "x0009.example.org",
	} {
		got, err := FirstNode(in)
		if err != nil || got != want {
			t.Errorf("FirstNode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"n[1-2":         "'[' without ']'",
		"n]1":           "']' without '['",
		"n[[1]]":        "nested '['",
		"n[1-]":         `"1-" is not a number`,
		"n[1,,2]":       `"" is not a number`,
		" ":             "empty node list",
		"[1-2]":         "",
		"n[1]x y":       "host has the character ' '",
		"n]1[,a":        "']' without '['",
		"n[1-2]]":       "']' without '['",
		"n[1234567890]": "is not a number",
	} {
		got, err := FirstNode(in)
		if in == "[1-2]" { // a bare bracket is a host "1"
			if err != nil || got != "1" {
				t.Errorf("FirstNode(%q) = %q, %v", in, got, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("FirstNode(%q) = %q, %v; want an error saying %q", in, got, err, want)
		}
	}
}

// TestJobString: the log line names the launcher and the variable.
func TestJobString(t *testing.T) {
	j, err := Detect(vars("SLURM_PROCID=1", "SLURM_NTASKS=4", "SLURM_LOCALID=1", "SLURM_NODELIST=gpu01", "SLURM_JOB_ID=1"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := j.String(), "rank 1 of 4 (local 1) from slurm (SLURM_PROCID), rendezvous gpu01:20016"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
