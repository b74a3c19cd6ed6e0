package cuda

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cugen/cugen/cuda/launcher"
	"github.com/cugen/cugen/cuda/sys/nccl"
	"github.com/cugen/cugen/cugentest"
)

// standInNCCL replaces ncclGetUniqueId and ncclCommInitRankConfig for a
// test on the CPU: the id is random bytes; the join records the size,
// rank and id it was given and returns a handle the fake driver destroys.
func standInNCCL(t *testing.T) *[]string {
	var mu sync.Mutex
	var joins []string
	oldID, oldInit, oldLog := ncclUniqueID, commInitRank, rendezvousLog
	t.Cleanup(func() { ncclUniqueID, commInitRank, rendezvousLog = oldID, oldInit, oldLog })
	ncclUniqueID = func() (nccl.UniqueId, error) {
		var id nccl.UniqueId
		rand.Read(id.Internal[:])
		return id, nil
	}
	commInitRank = func(size int32, id nccl.UniqueId, rank int32) (nccl.Comm, error) {
		mu.Lock()
		defer mu.Unlock()
		joins = append(joins, fmt.Sprintf("rank=%d size=%d id=%x", rank, size, sha256.Sum256(id.Internal[:])))
		return nccl.Comm(uintptr(0xc000 + rank)), nil
	}
	return &joins
}

// TestJoinJobOneRank: a job of one rank joins without a network; the
// launcher's errors come back as they are; a bad job is refused.
func TestJoinJobOneRank(t *testing.T) {
	joins := standInNCCL(t)
	_, c := newFake(t)
	defer c.Close()
	env := launcher.Lookup(func(k string) (string, bool) {
		v, ok := map[string]string{"SLURM_PROCID": "0", "SLURM_NTASKS": "1", "SLURM_LOCALID": "0"}[k]
		return v, ok
	})
	comm, err := JoinCommFromEnv(context.Background(), c, env)
	if err != nil {
		t.Fatal(err)
	}
	if comm.Rank() != 0 || comm.Size() != 1 || len(*joins) != 1 || !strings.HasPrefix((*joins)[0], "rank=0 size=1 id=") {
		t.Errorf("comm rank %d of %d, joins %q", comm.Rank(), comm.Size(), *joins)
	}
	if err := comm.Close(); err != nil {
		t.Error(err)
	}
	if _, err := JoinCommFromEnv(context.Background(), c, env, launcher.Rank(1)); err == nil || !strings.Contains(err.Error(), "launcher: option Rank is 1, not in 0..0 (SLURM_NTASKS 1)") {
		t.Errorf("rank 1 of 1: %v", err)
	}
	if _, err := JoinJob(context.Background(), c, launcher.Job{Rank: 2, Size: 2}); err == nil || err.Error() != "cuda: JoinJob: rank 2 of 2" {
		t.Errorf("JoinJob(rank 2 of 2): %v", err)
	}
	if len(*joins) != 1 {
		t.Errorf("NCCL joined %d times, want once", len(*joins))
	}
}

// joinChildEnv marks the test binary run as one rank by
// TestJoinCommFromEnvProcs; its value is the rendezvous timeout.
const joinChildEnv = "CUGEN_JOIN_CHILD"

// TestJoinRankChild is one rank's process of TestJoinCommFromEnvProcs
// (it does nothing in a plain run): the fake driver and the stand-in
// NCCL, the job from the environment; it prints JOINED with what the
// stand-in was given, or ERROR, and rank 0's rendezvous log (LOG).
func TestJoinRankChild(t *testing.T) {
	timeout, err := time.ParseDuration(os.Getenv(joinChildEnv))
	if err != nil {
		t.Skip("run by TestJoinCommFromEnvProcs")
	}
	joins := standInNCCL(t)
	rendezvousLog = func(format string, args ...any) { fmt.Printf("LOG: "+format+"\n", args...) }
	_, c := newFake(t)
	defer c.Close()
	job, err := launcher.Detect()
	if err != nil {
		fmt.Println("ERROR:", err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	comm, err := JoinJob(ctx, c, job)
	if err != nil {
		fmt.Println("ERROR:", err)
		return
	}
	defer comm.Close()
	fmt.Printf("JOINED launcher=%s local=%d %s\n", job.Launcher, job.LocalRank, (*joins)[0])
}

// rankProc is one rank's process.
type rankProc struct {
	cmd  *exec.Cmd
	out  syncBuffer
	done chan struct{}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// launcherVar: a variable some launcher sets, left out of the ranks'
// environment unless the test sets it (the tests may run under a launcher).
func launcherVar(k string) bool {
	for _, p := range []string{"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "TORCHELASTIC_", "JOBSET_", "OMPI_", "PMI_", "PMIX_", "MPI_LOCAL", "SLURM_"} {
		if k == p || (strings.HasSuffix(p, "_") && strings.HasPrefix(k, p)) {
			return true
		}
	}
	return false
}

// startRank starts a rank's process with env and a rendezvous timeout.
func startRank(t *testing.T, timeout time.Duration, env ...string) *rankProc {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &rankProc{cmd: exec.Command(exe, "-test.run=^TestJoinRankChild$"), done: make(chan struct{})}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !launcherVar(k) && k != joinChildEnv {
			p.cmd.Env = append(p.cmd.Env, kv)
		}
	}
	p.cmd.Env = append(p.cmd.Env, append(env, joinChildEnv+"="+timeout.String())...)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.cmd.Process.Kill(); <-p.done })
	return p
}

// result waits up to d for the process to end and returns its JOINED or
// ERROR line.
func (p *rankProc) result(t *testing.T, d time.Duration, what string) string {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(d):
		p.cmd.Process.Kill()
		<-p.done
		t.Errorf("%s: still running after %v:\n%s", what, d, p.out.String())
		return ""
	}
	for _, l := range strings.Split(p.out.String(), "\n") {
		if strings.HasPrefix(l, "JOINED ") || strings.HasPrefix(l, "ERROR: ") {
			return l
		}
	}
	t.Errorf("%s printed no result:\n%s", what, p.out.String())
	return ""
}

// waitLog waits up to d for the process to print a line containing sub.
func (p *rankProc) waitLog(t *testing.T, d time.Duration, sub string) {
	t.Helper()
	for end := time.Now().Add(d); !strings.Contains(p.out.String(), sub); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("no %q within %v:\n%s", sub, d, p.out.String())
		}
	}
}

// freePort is a port of host nothing listens on now.
func freePort(t *testing.T, host string) string {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// agentStore stands for torchrun's agent store: it listens on a port
// of host whose next port is free, until t ends, and returns it.
func agentStore(t *testing.T, host string) string {
	t.Helper()
	for range 20 {
		ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			t.Fatal(err)
		}
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		p, _ := strconv.Atoi(port)
		if next, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(p+1))); err == nil {
			next.Close()
			t.Cleanup(func() { ln.Close() })
			return port
		}
		ln.Close()
	}
	t.Fatal("no port with a free next port")
	return ""
}

// slurmJob is a SLURM_JOB_ID whose rendezvous port (SlurmPort) is free on host.
func slurmJob(t *testing.T, host string) int {
	t.Helper()
	for job := 1; job < 760; job += 37 {
		ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(launcher.SlurmPort(job, 0))))
		if err == nil {
			ln.Close()
			return job
		}
	}
	t.Fatal("no free Slurm port")
	return 0
}

// slack is how long past its deadline a rank's process may take to fail
// (it starts a test binary on a busy machine first).
const slack = 5 * time.Second

// TestJoinCommFromEnvProcs: under each launcher's environment, three
// processes (the test binary, the fake driver and a stand-in NCCL in each)
// find their ranks, meet at rank 0's address and join one communicator:
// NCCL is given the same id in every process, each rank once. Then the
// faults: rank 0 absent, a rank killed mid-rendezvous, a duplicate rank,
// a rank out of range, another job on the port, a deadline passing, a
// host that does not resolve; each ends in an error within its deadline.
// Where unshare works, it all runs in a network namespace of its own;
// every address is a 127.0.0.x the test picks.
func TestJoinCommFromEnvProcs(t *testing.T) {
	if runtime.GOOS == "windows" {
		// make test-windows runs this package under wine, where these
		// processes' start-up and deadlines were never tried.
		t.Skip("the launchers are Linux's; the processes and deadlines of this test are untried under wine")
	}
	if !cugentest.InFreshNetwork(t) {
		return
	}
	const n = 3
	for i, tc := range []struct {
		name     string
		launcher launcher.Launcher
		noLocal  bool // the environment has no local rank: 0
		env      func(rank int, host, port string) []string
	}{
		{"torchrun", launcher.Env, false, func(r int, host, port string) []string {
			return []string{"RANK=" + strconv.Itoa(r), "WORLD_SIZE=3", "LOCAL_RANK=" + strconv.Itoa(r), "LOCAL_WORLD_SIZE=3",
				"MASTER_ADDR=" + host, "MASTER_PORT=" + port, "TORCHELASTIC_RUN_ID=run1", "TORCHELASTIC_USE_AGENT_STORE=True"}
		}},
		{"jobset", launcher.Env, true, func(r int, host, port string) []string {
			return []string{"RANK=" + strconv.Itoa(r), "WORLD_SIZE=3", "MASTER_ADDR=" + host, "MASTER_PORT=" + port, "JOBSET_NAME=js"}
		}},
		{"slurm", launcher.Slurm, false, nil},
		{"openmpi", launcher.OpenMPI, false, func(r int, host, port string) []string {
			return []string{"OMPI_COMM_WORLD_RANK=" + strconv.Itoa(r), "OMPI_COMM_WORLD_SIZE=3", "OMPI_COMM_WORLD_LOCAL_RANK=" + strconv.Itoa(r),
				"PMIX_RANK=" + strconv.Itoa(r), "PMIX_NAMESPACE=prterun-1", "MASTER_ADDR=" + host, "MASTER_PORT=" + port}
		}},
		{"hydra", launcher.PMI, false, func(r int, host, port string) []string {
			return []string{"PMI_RANK=" + strconv.Itoa(r), "PMI_SIZE=3", "MPI_LOCALRANKID=" + strconv.Itoa(r), "MASTER_ADDR=" + host, "MASTER_PORT=" + port}
		}},
		{"pmix", launcher.PMI, true, func(r int, host, port string) []string {
			return []string{"PMIX_RANK=" + strconv.Itoa(r), "PMI_SIZE=3", "PMIX_NAMESPACE=ns1", "MASTER_ADDR=" + host, "MASTER_PORT=" + port}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			host := fmt.Sprintf("127.0.0.%d", 10+i)
			env := tc.env
			if env == nil { // Slurm: the host from the node list, the port from the job id
				job := slurmJob(t, host)
				env = func(r int, _, _ string) []string {
					return []string{"SLURM_PROCID=" + strconv.Itoa(r), "SLURM_NTASKS=3", "SLURM_LOCALID=" + strconv.Itoa(r),
						"SLURM_STEP_NODELIST=127.0.0.[" + strconv.Itoa(10+i) + "-" + strconv.Itoa(12+i) + "]",
						"SLURM_JOB_ID=" + strconv.Itoa(job), "SLURM_STEP_ID=0"}
				}
			}
			port := freePort(t, host)
			if tc.name == "torchrun" { // the agent's store holds MASTER_PORT: the rendezvous takes the next
				port = agentStore(t, host)
			}
			procs := make([]*rankProc, n)
			for r := n - 1; r >= 0; r-- { // rank 0 last: the others retry
				procs[r] = startRank(t, 20*time.Second, env(r, host, port)...)
			}
			var id string
			for r, p := range procs {
				got := p.result(t, 20*time.Second+slack, fmt.Sprintf("rank %d", r))
				local := r
				if tc.noLocal {
					local = 0
				}
				want := fmt.Sprintf("JOINED launcher=%s local=%d rank=%d size=3 id=", tc.launcher, local, r)
				if !strings.HasPrefix(got, want) {
					t.Errorf("rank %d: %q, want %q...", r, got, want)
					continue
				}
				if id == "" {
					id = got[len(want):]
				} else if got[len(want):] != id {
					t.Errorf("rank %d joined with id %s, rank 0 with %s", r, got[len(want):], id)
				}
			}
		})
	}

	torch := func(host, port, run string, rank, size int) []string {
		return []string{"RANK=" + strconv.Itoa(rank), "WORLD_SIZE=" + strconv.Itoa(size), "MASTER_ADDR=" + host, "MASTER_PORT=" + port, "TORCHELASTIC_RUN_ID=" + run}
	}
	expect := func(t *testing.T, p *rankProc, d time.Duration, what, want string) {
		t.Helper()
		start := time.Now()
		if got := p.result(t, d+slack, what); !strings.HasPrefix(got, "ERROR: ") || !strings.Contains(got, want) {
			t.Errorf("%s: %q after %v, want an error saying %q", what, got, time.Since(start), want)
		}
	}
	t.Run("rank 0 absent", func(t *testing.T) {
		t.Parallel()
		host := "127.0.0.30"
		port := freePort(t, host)
		p := startRank(t, 500*time.Millisecond, torch(host, port, "r", 1, 2)...)
		expect(t, p, 500*time.Millisecond, "rank 1", "rank 1 gave up on rank 0 at "+host+":"+port+" (context deadline exceeded); last try: dial tcp")
	})
	t.Run("rank killed", func(t *testing.T) {
		t.Parallel()
		host := "127.0.0.31"
		port := freePort(t, host)
		var procs [3]*rankProc
		procs[0] = startRank(t, 20*time.Second, torch(host, port, "k", 0, 4)...)
		for r := 1; r <= 2; r++ {
			procs[r] = startRank(t, 20*time.Second, torch(host, port, "k", r, 4)...)
			procs[0].waitLog(t, 10*time.Second, fmt.Sprintf("rank %d in from", r))
		}
		start := time.Now()
		procs[1].cmd.Process.Kill()
		expect(t, procs[0], time.Second, "rank 0", "rendezvous: rank 1 left before every rank was in")
		expect(t, procs[2], time.Second, "rank 2", "the rendezvous was abandoned: rank 1 left before every rank was in")
		if took := time.Since(start); took > slack {
			t.Errorf("the ranks failed %v after the kill", took)
		}
	})
	t.Run("duplicate rank", func(t *testing.T) {
		t.Parallel()
		host := "127.0.0.32"
		port := freePort(t, host)
		zero := startRank(t, 10*time.Second, torch(host, port, "d", 0, 3)...)
		a := startRank(t, 10*time.Second, torch(host, port, "d", 1, 3)...)
		zero.waitLog(t, 10*time.Second, "rank 1 in from")
		b := startRank(t, 10*time.Second, torch(host, port, "d", 1, 3)...)
		expect(t, zero, time.Second, "rank 0", "rank 1 joined twice")
		expect(t, a, time.Second, "the first rank 1", "the rendezvous was abandoned: rank 1 joined twice")
		expect(t, b, time.Second, "the second rank 1", "rank 0 refused this rank: rank 1 joined twice")
	})
	t.Run("rank out of range", func(t *testing.T) {
		t.Parallel()
		p := startRank(t, 10*time.Second, torch("127.0.0.33", "1", "o", 3, 3)...)
		expect(t, p, time.Second, "rank 3 of 3", "launcher: RANK is 3, not in 0..2 (WORLD_SIZE 3)")
	})
	t.Run("another job", func(t *testing.T) {
		t.Parallel()
		host := "127.0.0.34"
		port := freePort(t, host)
		zero := startRank(t, 10*time.Second, torch(host, port, "ours", 0, 2)...)
		stranger := startRank(t, time.Second, torch(host, port, "theirs", 1, 2)...)
		expect(t, stranger, time.Second, "the other job's rank 1", "last try: rank 0 serves another job")
		zero.waitLog(t, time.Second, "another job")
		ours := startRank(t, 10*time.Second, torch(host, port, "ours", 1, 2)...)
		for r, p := range []*rankProc{zero, ours} {
			if got := p.result(t, 10*time.Second, "our job"); !strings.HasPrefix(got, "JOINED ") {
				t.Errorf("our rank %d: %q", r, got)
			}
		}
	})
	t.Run("deadline", func(t *testing.T) {
		t.Parallel()
		host := "127.0.0.35"
		port := freePort(t, host)
		zero := startRank(t, 2*time.Second, torch(host, port, "t", 0, 3)...)
		one := startRank(t, 20*time.Second, torch(host, port, "t", 1, 3)...)
		expect(t, zero, 2*time.Second, "rank 0", "rank 0 gave up (context deadline exceeded) with 2 of 3 ranks in; missing [2]")
		expect(t, one, 2*time.Second, "rank 1", "the rendezvous was abandoned: rank 0 gave up")
	})
	t.Run("unresolvable host", func(t *testing.T) {
		t.Parallel()
		p := startRank(t, 20*time.Second, torch("rank0.cluster.invalid", "29500", "u", 1, 2)...)
		expect(t, p, 0, "rank 1", `rank 0's host "rank0.cluster.invalid" does not resolve`)
	})
}
