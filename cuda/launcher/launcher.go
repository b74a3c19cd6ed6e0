// Package launcher reads a distributed job's layout from the environment
// its launcher gives each process: this process's rank, the number of
// ranks, its rank on its node (to pick a GPU) and the host:port where rank
// 0 serves the rendezvous. It is plain Go (no CUDA); package cuda's
// JoinCommFromEnv uses it to start an NCCL communicator.
//
// The launchers, in the order they are looked for (the first whose rank
// variable is set wins):
//
//	env     torchrun, torch.distributed's env://, Kubernetes PyTorchJob and JobSet:
//	        RANK, WORLD_SIZE, LOCAL_RANK (0 if unset), LOCAL_WORLD_SIZE (checked if set),
//	        MASTER_ADDR, MASTER_PORT; the job is TORCHELASTIC_RUN_ID or JOBSET_NAME.
//	        Where TORCHELASTIC_USE_AGENT_STORE=True (torchrun's agent serves its
//	        TCPStore at MASTER_PORT), the rendezvous port is MASTER_PORT+1.
//	openmpi Open MPI's mpirun: OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK (_LOCAL_SIZE checked);
//	        the job is PMIX_NAMESPACE; the address is MASTER_ADDR and MASTER_PORT.
//	slurm   srun: SLURM_PROCID, SLURM_NTASKS (SLURM_NPROCS and SLURM_STEP_NUM_TASKS
//	        must agree with it), SLURM_LOCALID; the host is the first node of
//	        SLURM_STEP_NODELIST (else SLURM_JOB_NODELIST, SLURM_NODELIST); the port is
//	        20000 + (SLURM_JOB_ID mod 760)×16 + (SLURM_STEP_ID mod 16), in 20000-32175,
//	        so that the steps of one job and jobs sharing a node differ; MASTER_ADDR
//	        overrides the host, MASTER_PORT the port. The job is SLURM_JOB_ID.SLURM_STEP_ID.
//	pmi     MPICH/Hydra, Intel MPI, PMIx launchers: PMI_RANK or PMIX_RANK (they must
//	        agree), PMI_SIZE, MPI_LOCALRANKID (0 if unset; MPI_LOCALNRANKS checked);
//	        the job is PMIX_NAMESPACE; the address is MASTER_ADDR and MASTER_PORT.
//	        Under srun --mpi=pmix, where Slurm's variables give the same rank and
//	        size, the job is read as slurm (which knows the address).
//
// MPI and PMI launchers put no address in the environment: pass one with
// mpirun -x MASTER_ADDR=node0 -x MASTER_PORT=29500 (Open MPI) or
// -genv (Hydra), or with the [Addr] option.
//
// Options ([Rank], [Size], [LocalRank], [Addr], [JobID]) override every
// value read; with Rank and Size given no launcher is needed ([Options]).
// Every error names the variable (or option) at fault.
package launcher

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
)

// Launcher names what started the job.
type Launcher string

// The launchers Detect knows.
const (
	Env     Launcher = "env"     // torchrun / env:// / Kubernetes (RANK, WORLD_SIZE)
	OpenMPI Launcher = "openmpi" // Open MPI (OMPI_COMM_WORLD_RANK)
	Slurm   Launcher = "slurm"   // srun (SLURM_PROCID)
	PMI     Launcher = "pmi"     // PMI / PMIx (PMI_RANK, PMIX_RANK)
	Options Launcher = "options" // every value from options, no launcher
)

// Job is this process's place in a job.
type Job struct {
	Launcher  Launcher
	Rank      int    // 0 to Size-1
	Size      int    // the number of ranks (processes)
	LocalRank int    // the rank among this node's processes: a GPU to pick
	Addr      string // host:port of rank 0's rendezvous; "" only when Size is 1
	// ID is the launcher's name for the job (a Slurm job and step, a
	// torchrun run id, an MPI namespace), "" when it gives none: with the
	// size it tells the rendezvous of two jobs on one port apart.
	ID string
	// Via says which variables gave the rank, e.g. "SLURM_PROCID".
	Via string
}

// String is a line for a log: "rank 1 of 4 (local 1) from slurm
// (SLURM_PROCID), rendezvous gpu01:20018".
func (j Job) String() string {
	s := fmt.Sprintf("rank %d of %d (local %d) from %s", j.Rank, j.Size, j.LocalRank, j.Launcher)
	if j.Via != "" {
		s += " (" + j.Via + ")"
	}
	if j.Addr != "" {
		s += ", rendezvous " + j.Addr
	}
	return s
}

// Option overrides a value of the environment.
type Option func(*options)

type options struct {
	rank, size, localRank *int
	addr, jobID           *string
	lookup                func(string) (string, bool)
}

// Rank sets this process's rank.
func Rank(r int) Option { return func(o *options) { o.rank = &r } }

// Size sets the number of ranks.
func Size(n int) Option { return func(o *options) { o.size = &n } }

// LocalRank sets this process's rank on its node.
func LocalRank(r int) Option { return func(o *options) { o.localRank = &r } }

// Addr sets rank 0's rendezvous address, host:port.
func Addr(hostport string) Option { return func(o *options) { o.addr = &hostport } }

// JobID sets the job's identity (see Job.ID).
func JobID(id string) Option { return func(o *options) { o.jobID = &id } }

// Lookup reads the environment through lookup instead of os.LookupEnv
// (tests, or a program that holds the variables elsewhere).
func Lookup(lookup func(string) (string, bool)) Option {
	return func(o *options) { o.lookup = lookup }
}

// ErrNoLauncher is returned when no launcher's variables are set and the
// options do not give a rank and a size.
var ErrNoLauncher = errors.New("launcher: no launcher environment (none of RANK, OMPI_COMM_WORLD_RANK, SLURM_PROCID, PMI_RANK, PMIX_RANK is set) and no Rank and Size options")

// Detect reads the job from the environment and the options.
func Detect(opts ...Option) (Job, error) {
	o := options{lookup: os.LookupEnv}
	for _, opt := range opts {
		opt(&o)
	}
	e := env{lookup: o.lookup}
	var j Job
	var err error
	switch {
	case e.has("RANK"):
		j, err = e.torch()
	case e.has("OMPI_COMM_WORLD_RANK"):
		j, err = e.openMPI()
	case e.has("PMI_RANK") || e.has("PMIX_RANK"):
		j, err = e.pmi()
	case e.has("SLURM_PROCID"):
		j, err = e.slurm(o.addr != nil)
	case o.rank != nil && o.size != nil:
		j = Job{Launcher: Options, Via: "options"}
	default:
		return Job{}, ErrNoLauncher
	}
	if err != nil {
		return Job{}, err
	}
	if o.rank != nil {
		j.Rank = *o.rank
	}
	if o.size != nil {
		j.Size = *o.size
	}
	if o.localRank != nil {
		j.LocalRank = *o.localRank
	}
	if o.addr != nil {
		j.Addr = *o.addr
	}
	if o.jobID != nil {
		j.ID = *o.jobID
	}
	return j, j.check(o)
}

// check validates the final values, naming where each came from.
func (j Job) check(o options) error {
	name := func(opt string, set bool, v string) string {
		if set {
			return "option " + opt
		}
		return v
	}
	sizeName := name("Size", o.size != nil, j.sizeVar())
	rankName := name("Rank", o.rank != nil, j.Via)
	switch {
	case j.Size < 1:
		return fmt.Errorf("launcher: %s is %d: want at least 1 rank", sizeName, j.Size)
	case j.Rank < 0 || j.Rank >= j.Size:
		return fmt.Errorf("launcher: %s is %d, not in 0..%d (%s %d)", rankName, j.Rank, j.Size-1, sizeName, j.Size)
	case j.LocalRank < 0 || j.LocalRank >= j.Size:
		return fmt.Errorf("launcher: %s is %d, not in 0..%d (%s %d)", name("LocalRank", o.localRank != nil, j.localVar()), j.LocalRank, j.Size-1, sizeName, j.Size)
	}
	if j.Size == 1 && j.Addr == "" {
		return nil
	}
	addrName := name("Addr", o.addr != nil, "MASTER_ADDR:MASTER_PORT")
	if j.Addr == "" {
		return fmt.Errorf("launcher: %s gives no rendezvous address for %d ranks: set MASTER_ADDR and MASTER_PORT (for mpirun: -x MASTER_ADDR=host -x MASTER_PORT=29500) or pass the Addr option", j.Launcher, j.Size)
	}
	host, port, err := net.SplitHostPort(j.Addr)
	if err != nil {
		return fmt.Errorf("launcher: %s %q: %v", addrName, j.Addr, err)
	}
	if err := checkHost(host); err != nil {
		return fmt.Errorf("launcher: %s %q: %v", addrName, j.Addr, err)
	}
	if _, err := parsePort(port); err != nil {
		return fmt.Errorf("launcher: %s %q: %v", addrName, j.Addr, err)
	}
	return nil
}

func (j Job) sizeVar() string {
	switch j.Launcher {
	case Env:
		return "WORLD_SIZE"
	case OpenMPI:
		return "OMPI_COMM_WORLD_SIZE"
	case Slurm:
		return "SLURM_NTASKS"
	case PMI:
		return "PMI_SIZE"
	}
	return "option Size"
}

func (j Job) localVar() string {
	switch j.Launcher {
	case Env:
		return "LOCAL_RANK"
	case OpenMPI:
		return "OMPI_COMM_WORLD_LOCAL_RANK"
	case Slurm:
		return "SLURM_LOCALID"
	case PMI:
		return "MPI_LOCALRANKID"
	}
	return "option LocalRank"
}

// checkHost refuses a host no resolver takes: empty, or with spaces or
// control characters.
func checkHost(h string) error {
	if h == "" {
		return errors.New("no host")
	}
	if len(h) > 253 {
		return fmt.Errorf("host of %d characters (at most 253)", len(h))
	}
	for _, r := range h {
		if r <= ' ' || r == 0x7f || r == '/' || r == '[' || r == ']' {
			return fmt.Errorf("host has the character %q", r)
		}
	}
	return nil
}

func parsePort(p string) (int, error) {
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > 65535 {
		return 0, fmt.Errorf("port %q: want 1 to 65535", p)
	}
	return n, nil
}

// env reads variables with the errors this package gives.
type env struct {
	lookup func(string) (string, bool)
}

func (e env) has(k string) bool {
	_, ok := e.lookup(k)
	return ok
}

// int reads k as a decimal integer >= 0; def when unset (required: error).
func (e env) int(k string, required bool, def int) (int, bool, error) {
	v, ok := e.lookup(k)
	if !ok {
		if required {
			return 0, false, fmt.Errorf("launcher: %s is not set", k)
		}
		return def, false, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, true, fmt.Errorf("launcher: %s=%q is not an integer", k, v)
	}
	if n < 0 {
		return 0, true, fmt.Errorf("launcher: %s=%d is negative", k, n)
	}
	return n, true, nil
}

// must reads the required integers ks in order.
func (e env) must(ks ...string) ([]int, error) {
	out := make([]int, len(ks))
	for i, k := range ks {
		n, _, err := e.int(k, true, 0)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// same checks that k, if set, equals want, which came from wantVar.
func (e env) same(k string, want int, wantVar string) error {
	n, set, err := e.int(k, false, 0)
	if err != nil || !set {
		return err
	}
	if n != want {
		return fmt.Errorf("launcher: %s=%d disagrees with %s=%d", k, n, wantVar, want)
	}
	return nil
}

// localSize checks local < size-var (if set) and size-var <= size.
func (e env) localSize(k string, local int, localVar string, size int, sizeVar string) error {
	n, set, err := e.int(k, false, 0)
	if err != nil || !set {
		return err
	}
	switch {
	case n > size:
		return fmt.Errorf("launcher: %s=%d is more than %s=%d", k, n, sizeVar, size)
	case local >= n:
		return fmt.Errorf("launcher: %s=%d is not below %s=%d", localVar, local, k, n)
	}
	return nil
}

func (e env) str(k string) string {
	v, _ := e.lookup(k)
	return v
}

// master is MASTER_ADDR:MASTER_PORT, "" when neither is set; an error
// when only one is, or the port is no port.
func (e env) master() (string, error) {
	addr, aok := e.lookup("MASTER_ADDR")
	port, pok := e.lookup("MASTER_PORT")
	switch {
	case !aok && !pok:
		return "", nil
	case !aok:
		return "", errors.New("launcher: MASTER_PORT is set but MASTER_ADDR is not")
	case !pok:
		return "", errors.New("launcher: MASTER_ADDR is set but MASTER_PORT is not")
	}
	if err := checkHost(addr); err != nil {
		return "", fmt.Errorf("launcher: MASTER_ADDR=%q: %v", addr, err)
	}
	if _, err := parsePort(port); err != nil {
		return "", fmt.Errorf("launcher: MASTER_PORT: %v", err)
	}
	return net.JoinHostPort(addr, port), nil
}

func (e env) torch() (Job, error) {
	v, err := e.must("RANK", "WORLD_SIZE")
	if err != nil {
		return Job{}, err
	}
	j := Job{Launcher: Env, Rank: v[0], Size: v[1], Via: "RANK"}
	if j.LocalRank, _, err = e.int("LOCAL_RANK", false, 0); err != nil {
		return Job{}, err
	}
	if err := e.localSize("LOCAL_WORLD_SIZE", j.LocalRank, "LOCAL_RANK", j.Size, "WORLD_SIZE"); err != nil {
		return Job{}, err
	}
	if j.Addr, err = e.master(); err != nil {
		return Job{}, err
	}
	if e.str("TORCHELASTIC_USE_AGENT_STORE") == "True" && j.Addr != "" {
		// torchrun's agent serves its own TCPStore at MASTER_PORT.
		host, port, _ := net.SplitHostPort(j.Addr)
		n, _ := strconv.Atoi(port)
		if n == 65535 {
			return Job{}, errors.New("launcher: MASTER_PORT=65535 is torchrun's store: the rendezvous takes the next port, and there is none (pass the Addr option)")
		}
		j.Addr = net.JoinHostPort(host, strconv.Itoa(n+1))
	}
	switch {
	case e.str("TORCHELASTIC_RUN_ID") != "":
		j.ID = "torchrun:" + e.str("TORCHELASTIC_RUN_ID")
	case e.str("JOBSET_NAME") != "":
		j.ID = "jobset:" + e.str("JOBSET_NAME")
	}
	return j, nil
}

func (e env) openMPI() (Job, error) {
	v, err := e.must("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE")
	if err != nil {
		return Job{}, err
	}
	j := Job{Launcher: OpenMPI, Rank: v[0], Size: v[1], Via: "OMPI_COMM_WORLD_RANK"}
	if j.LocalRank, _, err = e.int("OMPI_COMM_WORLD_LOCAL_RANK", false, 0); err != nil {
		return Job{}, err
	}
	if err := e.localSize("OMPI_COMM_WORLD_LOCAL_SIZE", j.LocalRank, "OMPI_COMM_WORLD_LOCAL_RANK", j.Size, "OMPI_COMM_WORLD_SIZE"); err != nil {
		return Job{}, err
	}
	if err := e.same("PMIX_RANK", j.Rank, "OMPI_COMM_WORLD_RANK"); err != nil {
		return Job{}, err
	}
	if j.Addr, err = e.master(); err != nil {
		return Job{}, err
	}
	if ns := e.str("PMIX_NAMESPACE"); ns != "" {
		j.ID = "pmix:" + ns
	}
	return j, nil
}

func (e env) pmi() (Job, error) {
	rankVar := "PMI_RANK"
	if !e.has(rankVar) {
		rankVar = "PMIX_RANK"
	}
	v, err := e.must(rankVar, "PMI_SIZE")
	if err != nil {
		return Job{}, err
	}
	j := Job{Launcher: PMI, Rank: v[0], Size: v[1], Via: rankVar}
	if rankVar == "PMI_RANK" {
		if err := e.same("PMIX_RANK", j.Rank, "PMI_RANK"); err != nil {
			return Job{}, err
		}
	}
	// srun --mpi=pmix/pmi2: the same job seen through Slurm, which knows
	// where rank 0 runs.
	if e.has("SLURM_PROCID") {
		r, _, rerr := e.int("SLURM_PROCID", false, 0)
		n, _, nerr := e.int("SLURM_NTASKS", false, -1)
		if rerr == nil && nerr == nil && r == j.Rank && n == j.Size {
			return e.slurm(false)
		}
	}
	if j.LocalRank, _, err = e.int("MPI_LOCALRANKID", false, 0); err != nil {
		return Job{}, err
	}
	if err := e.localSize("MPI_LOCALNRANKS", j.LocalRank, "MPI_LOCALRANKID", j.Size, "PMI_SIZE"); err != nil {
		return Job{}, err
	}
	if j.Addr, err = e.master(); err != nil {
		return Job{}, err
	}
	if ns := e.str("PMIX_NAMESPACE"); ns != "" {
		j.ID = "pmix:" + ns
	}
	return j, nil
}

// SlurmPort is the rendezvous port of a Slurm job step without
// MASTER_PORT: 20000 + (job mod 760)×16 + (step mod 16), 20000 to 32175,
// below Linux's ephemeral ports (32768 up).
func SlurmPort(jobID, stepID int) int {
	return 20000 + jobID%760*16 + stepID%16
}

// slurm reads srun's variables; addrGiven: the Addr option will replace
// the address, so the nodelist and job id are not needed for it.
func (e env) slurm(addrGiven bool) (Job, error) {
	v, err := e.must("SLURM_PROCID", "SLURM_NTASKS")
	if err != nil {
		return Job{}, err
	}
	j := Job{Launcher: Slurm, Rank: v[0], Size: v[1], Via: "SLURM_PROCID"}
	for _, k := range []string{"SLURM_NPROCS", "SLURM_STEP_NUM_TASKS"} {
		if err := e.same(k, j.Size, "SLURM_NTASKS"); err != nil {
			return Job{}, err
		}
	}
	if j.LocalRank, _, err = e.int("SLURM_LOCALID", false, 0); err != nil {
		return Job{}, err
	}
	jobID, jobSet, jerr := e.int("SLURM_JOB_ID", false, 0)
	stepID, _, serr := e.int("SLURM_STEP_ID", false, 0)
	if jobSet && jerr == nil && serr == nil {
		j.ID = fmt.Sprintf("slurm:%d.%d", jobID, stepID)
	}
	if addrGiven {
		return j, nil
	}
	addr, err := e.slurmAddr(jobID, stepID, jobSet, jerr, serr)
	if err != nil && j.Size > 1 {
		return Job{}, err
	}
	j.Addr = addr // a job of one rank needs none
	return j, nil
}

// slurmAddr is the rendezvous address of a Slurm step: MASTER_ADDR or
// the first node, MASTER_PORT or SlurmPort.
func (e env) slurmAddr(jobID, stepID int, jobSet bool, jerr, serr error) (string, error) {
	var err error
	host, hostSet := e.lookup("MASTER_ADDR")
	if hostSet {
		if err := checkHost(host); err != nil {
			return "", fmt.Errorf("launcher: MASTER_ADDR=%q: %v", host, err)
		}
	} else {
		for _, k := range []string{"SLURM_STEP_NODELIST", "SLURM_JOB_NODELIST", "SLURM_NODELIST"} {
			if list, ok := e.lookup(k); ok {
				if host, err = FirstNode(list); err != nil {
					return "", fmt.Errorf("launcher: %s=%q: %v", k, list, err)
				}
				break
			}
		}
		if host == "" {
			return "", errors.New("launcher: none of SLURM_STEP_NODELIST, SLURM_JOB_NODELIST, SLURM_NODELIST is set (or set MASTER_ADDR)")
		}
	}
	port := 0
	if p, ok := e.lookup("MASTER_PORT"); ok {
		if port, err = parsePort(p); err != nil {
			return "", fmt.Errorf("launcher: MASTER_PORT: %v", err)
		}
	} else {
		switch {
		case jerr != nil:
			return "", jerr
		case serr != nil:
			return "", serr
		case !jobSet:
			return "", errors.New("launcher: SLURM_JOB_ID is not set: the rendezvous port comes from it (or set MASTER_PORT)")
		}
		port = SlurmPort(jobID, stepID)
	}
	return net.JoinHostPort(host, strconv.Itoa(port)), nil
}

// FirstNode is the first host of a Slurm node list in its compressed
// form: "gpu[01-04,07],cpu3" gives "gpu01", "rack[2-3]-n[5-6]" gives
// "rack2-n5" (Slurm expands the last bracket fastest; the first host takes
// every bracket's first number, zero padding kept).
func FirstNode(list string) (string, error) {
	if strings.TrimSpace(list) == "" {
		return "", errors.New("empty node list")
	}
	// The first entry ends at the first comma outside brackets.
	depth, end := 0, len(list)
scan:
	for i, c := range list {
		switch c {
		case '[':
			if depth++; depth > 1 {
				return "", fmt.Errorf("nested '[' at %d", i)
			}
		case ']':
			if depth--; depth < 0 {
				return "", fmt.Errorf("']' without '[' at %d", i)
			}
		case ',':
			if depth == 0 {
				end = i
				break scan
			}
		}
	}
	entry := list[:end]
	var b strings.Builder
	for entry != "" {
		open := strings.IndexByte(entry, '[')
		if open < 0 {
			if strings.IndexByte(entry, ']') >= 0 {
				return "", errors.New("']' without '['")
			}
			b.WriteString(entry)
			break
		}
		b.WriteString(entry[:open])
		closing := strings.IndexByte(entry, ']')
		if closing < open {
			return "", errors.New("'[' without ']'")
		}
		first, err := firstOfRange(entry[open+1 : closing])
		if err != nil {
			return "", err
		}
		b.WriteString(first)
		entry = entry[closing+1:]
	}
	host := b.String()
	if err := checkHost(host); err != nil {
		return "", fmt.Errorf("first node %q: %v", host, err)
	}
	return host, nil
}

// firstOfRange is the first number of a bracket's "01-04,07" (checked
// whole: every part a number or an ascending range of numbers).
func firstOfRange(s string) (string, error) {
	if s == "" {
		return "", errors.New("empty brackets []")
	}
	var first string
	for i, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		if !digits(lo) || (isRange && !digits(hi)) {
			return "", fmt.Errorf("[%s]: %q is not a number or a range a-b", s, part)
		}
		if isRange {
			a, _ := strconv.Atoi(lo)
			b, _ := strconv.Atoi(hi)
			if b < a {
				return "", fmt.Errorf("[%s]: range %q runs backwards", s, part)
			}
		}
		if i == 0 {
			first = lo
		}
	}
	return first, nil
}

func digits(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
