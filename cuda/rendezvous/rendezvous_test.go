package rendezvous

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cugen/cugen/cugentest"
)

// slack is how long past its deadline a fault may take to end in an error.
const slack = 2 * time.Second

// logs collects Logf's lines and tells a waiter when one matches.
type logs struct {
	mu    sync.Mutex
	lines []string
	t     *testing.T
}

func (l *logs) logf(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	l.t.Log(s)
	l.mu.Lock()
	l.lines = append(l.lines, s)
	l.mu.Unlock()
}

func (l *logs) has(sub string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.lines {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// waitFor polls until cond or fails t after d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(d); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%s: not within %v", what, d)
		}
	}
}

// listen opens rank 0's listener on a loopback address of its own.
func listen(t *testing.T, host string) net.Listener {
	t.Helper()
	ln, err := Listen(context.Background(), net.JoinHostPort(host, "0"))
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// freeAddr is a loopback address nothing listens on.
func freeAddr(t *testing.T, host string) string {
	ln := listen(t, host)
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

type result struct {
	secret []byte
	err    error
	took   time.Duration
}

// fetchAll runs Fetch for ranks on goroutines.
func fetchAll(ctx context.Context, addr string, cfg Config, ranks ...int) []chan result {
	out := make([]chan result, len(ranks))
	for i, r := range ranks {
		out[i] = make(chan result, 1)
		go func() {
			start := time.Now()
			s, err := Fetch(ctx, addr, cfg, r)
			out[i] <- result{s, err, time.Since(start)}
		}()
	}
	return out
}

func secret() []byte {
	b := make([]byte, 128)
	for i := range b {
		b[i] = byte(i*7 + 1)
	}
	return b
}

// TestRendezvous: four ranks, the others started before rank 0 listens
// (they retry), every one gets the secret.
func TestRendezvous(t *testing.T) {
	addr := freeAddr(t, "127.0.0.2")
	cfg := Config{JobID: "job", Size: 4}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res := fetchAll(ctx, addr, cfg, 1, 2, 3)
	time.Sleep(150 * time.Millisecond) // the peers find nothing listening
	ln, err := Listen(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	l := &logs{t: t}
	cfg.Logf = l.logf
	if err := Serve(ctx, ln, cfg, secret()); err != nil {
		t.Fatal(err)
	}
	for i, c := range res {
		r := <-c
		if r.err != nil || !bytes.Equal(r.secret, secret()) {
			t.Errorf("rank %d: %x, %v", i+1, r.secret, r.err)
		}
	}
	if !l.has("rank 3 in from") {
		t.Errorf("rank 0's log does not count rank 3 in")
	}
}

// TestRankZeroAbsent: nothing listens; the rank retries until its
// deadline, then says what it last saw.
func TestRankZeroAbsent(t *testing.T) {
	addr := freeAddr(t, "127.0.0.3")
	ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
	defer cancel()
	r := <-fetchAll(ctx, addr, Config{Size: 2}, 1)[0]
	want := "rendezvous: rank 1 gave up on rank 0 at " + addr + " (context deadline exceeded); last try: dial tcp " + addr
	if r.err == nil || !strings.HasPrefix(r.err.Error(), want) || r.took > 400*time.Millisecond+slack {
		t.Errorf("Fetch without rank 0: %v after %v, want %q...", r.err, r.took, want)
	}
}

// TestRankZeroDeadline: rank 0's deadline passes with a rank missing:
// its error names it, and the rank that came is told.
func TestRankZeroDeadline(t *testing.T) {
	ln := listen(t, "127.0.0.4")
	cfg := Config{JobID: "j", Size: 3}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	bound, cancelBound := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancelBound()
	peer := fetchAll(bound, ln.Addr().String(), cfg, 1)[0]
	start := time.Now()
	err := Serve(ctx, ln, cfg, secret())
	if err == nil || !strings.Contains(err.Error(), "rank 0 gave up (context deadline exceeded) with 2 of 3 ranks in; missing [2]") || time.Since(start) > 500*time.Millisecond+slack {
		t.Errorf("Serve: %v after %v", err, time.Since(start))
	}
	r := <-peer
	var ae *AbortError
	if !errors.As(r.err, &ae) || ae.Code != codeAbandon || !strings.Contains(r.err.Error(), "the rendezvous was abandoned: rank 0 gave up") {
		t.Errorf("rank 1: %v, want the abort", r.err)
	}
}

// TestPeerGivesUp: a counted rank's deadline passes; rank 0 and the other
// rank learn it and fail.
func TestPeerGivesUp(t *testing.T) {
	ln := listen(t, "127.0.0.5")
	addr := ln.Addr().String()
	cfg := Config{JobID: "j", Size: 4}
	l := &logs{t: t}
	cfg.Logf = l.logf
	bound, cancelBound := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancelBound()
	served := make(chan error, 1)
	go func() { served <- Serve(bound, ln, cfg, secret()) }()
	patient := fetchAll(bound, addr, cfg, 2)[0]
	waitFor(t, 5*time.Second, "rank 2 counted", func() bool { return l.has("rank 2 in") })
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	r := <-fetchAll(ctx, addr, cfg, 1)[0]
	if r.err == nil || !strings.Contains(r.err.Error(), "rendezvous: rank 1, rank 0 at "+addr+": gave up waiting for the other ranks: context deadline exceeded") {
		t.Errorf("rank 1: %v", r.err)
	}
	err := <-served
	if err == nil || !strings.Contains(err.Error(), "rank 1 left before every rank was in: rank 1 gave up: context deadline exceeded") {
		t.Errorf("rank 0: %v", err)
	}
	if r := <-patient; r.err == nil || !strings.Contains(r.err.Error(), "the rendezvous was abandoned: rank 1 left") {
		t.Errorf("rank 2: %v", r.err)
	}
}

// raw is a hand-made client: bytes sent as given.
func raw(t *testing.T, addr string, b []byte) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if len(b) > 0 {
		if _, err := c.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// closedWithin checks that rank 0 closes c (maybe after a frame) within d.
func closedWithin(t *testing.T, c net.Conn, d time.Duration, what string) []byte {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(d))
	b, err := io.ReadAll(c)
	if errors.Is(err, syscall.ECONNRESET) {
		err = nil // closed with the stranger's bytes unread
	}
	if err != nil {
		t.Errorf("%s: still open after %v (%v)", what, d, err)
	}
	return b
}

func helloFrame(cfg Config, size, rank uint32) []byte {
	id := cfg.identity()
	p := append(id[:], binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, size), rank)...)
	return appendFrame(nil, typeHello, p)
}

// TestStrangers: garbage, a huge length, a slowloris and a client of
// another job are refused and closed while the job's ranks come in; the
// other job's client retries until its deadline and says why.
func TestStrangers(t *testing.T) {
	ln := listen(t, "127.0.0.6")
	addr := ln.Addr().String()
	cfg := Config{JobID: "mine", Size: 3, HelloTimeout: 300 * time.Millisecond}
	l := &logs{t: t}
	cfg.Logf = l.logf
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, cfg, secret()) }()

	garbage := raw(t, addr, []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
	huge := raw(t, addr, append([]byte(Magic), Version, typeHello, 0xff, 0xff, 0xff, 0xff))
	slow := raw(t, addr, []byte(Magic[:3]))
	other := Config{JobID: "theirs", Size: 3}
	otherCtx, otherCancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	defer otherCancel()
	stranger := fetchAll(otherCtx, addr, other, 1)[0]
	start := time.Now()
	closedWithin(t, garbage, time.Second, "garbage")
	closedWithin(t, huge, time.Second, "a huge length")
	closedWithin(t, slow, 300*time.Millisecond+slack, "a slowloris")
	if took := time.Since(start); took < 250*time.Millisecond {
		t.Errorf("the slowloris was closed after %v, before HelloTimeout", took)
	}
	r := <-stranger
	if r.err == nil || !strings.Contains(r.err.Error(), "last try: rank 0 serves another job: its job id or world size (3 here, 3 there) differ") || r.took > 700*time.Millisecond+slack {
		t.Errorf("another job's rank: %v after %v", r.err, r.took)
	}
	for _, want := range []string{
		`not a cugen rendezvous: the first bytes are "GET ", not "CGRZ"`,
		"frame of type 1 with 4294967295 bytes refused (want 40 to 40)",
		"i/o timeout",
		"another job",
	} {
		if !l.has(want) {
			t.Errorf("rank 0's log has no refusal saying %q", want)
		}
	}
	// The job itself is unharmed.
	for i, c := range fetchAll(ctx, addr, cfg, 1, 2) {
		if r := <-c; r.err != nil || !bytes.Equal(r.secret, secret()) {
			t.Errorf("rank %d after the strangers: %v", i+1, r.err)
		}
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestRefusedRanks: a rank out of range, or one already in, is refused
// and abandons the rendezvous for every rank.
func TestRefusedRanks(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		rank       uint32
	}{
		{"out of range", "rank 5 from 127.", 5},
		{"rank 0", "rank 0 from 127.", 0},
		{"duplicate", "rank 1 joined twice, from 127.", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln := listen(t, "127.0.0.7")
			addr := ln.Addr().String()
			cfg := Config{JobID: "j", Size: 3}
			l := &logs{t: t}
			cfg.Logf = l.logf
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			served := make(chan error, 1)
			go func() { served <- Serve(ctx, ln, cfg, secret()) }()
			first := fetchAll(ctx, addr, cfg, 1)[0]
			waitFor(t, 5*time.Second, "rank 1 counted", func() bool { return l.has("rank 1 in") })
			bad := raw(t, addr, helloFrame(cfg, 3, tc.rank))
			b := closedWithin(t, bad, 5*time.Second, "the refused rank")
			f, err := readFrame(bytes.NewReader(b))
			if err != nil || f.typ != typeAbort || f.payload[0] != codeRefused || !strings.Contains(string(f.payload), tc.want) {
				t.Errorf("the refused rank read %q, %v", b, err)
			}
			if err := <-served; err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Serve: %v, want %q", err, tc.want)
			}
			if r := <-first; r.err == nil || !strings.Contains(r.err.Error(), "the rendezvous was abandoned: "+tc.want) {
				t.Errorf("rank 1: %v", r.err)
			}
		})
	}
	// Fetch itself refuses a rank it cannot be.
	if _, err := Fetch(context.Background(), "127.0.0.1:1", Config{Size: 2}, 2); err == nil || err.Error() != "rendezvous: rank 2 is not in 1..1" {
		t.Errorf("Fetch(rank 2 of 2): %v", err)
	}
	if _, err := Fetch(context.Background(), "127.0.0.1:1", Config{Size: 1}, 1); err == nil || !strings.Contains(err.Error(), "needs at least 2 ranks") {
		t.Errorf("Fetch(size 1): %v", err)
	}
}

// TestInvalidName: a host under .invalid fails at once, never retried.
func TestInvalidName(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	_, err := Fetch(ctx, "rank0.example.invalid:29500", Config{Size: 2}, 1)
	if err == nil || !strings.Contains(err.Error(), `rank 0's host "rank0.example.invalid" does not resolve`) || time.Since(start) > slack {
		t.Errorf("Fetch(.invalid): %v after %v", err, time.Since(start))
	}
}

// TestFrames: readFrame refuses whatever is not the format.
func TestFrames(t *testing.T) {
	good := appendFrame(nil, typeSecret, []byte{1, 2, 3})
	if f, err := readFrame(bytes.NewReader(good)); err != nil || f.typ != typeSecret || !bytes.Equal(f.payload, []byte{1, 2, 3}) {
		t.Fatalf("a good frame: %+v, %v", f, err)
	}
	hdr := func(magic string, v, typ byte, n uint32) []byte {
		return binary.BigEndian.AppendUint32(append([]byte(magic), v, typ), n)
	}
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "EOF"},
		{"short header", []byte("CGR"), "unexpected EOF"},
		{"magic", hdr("XGRZ", 1, 3, 1), `not a cugen rendezvous: the first bytes are "XGRZ"`},
		{"version", hdr(Magic, 2, 3, 1), "rendezvous version 2, want 1"},
		{"type", hdr(Magic, 1, 9, 1), "unknown frame type 9"},
		{"secret too long", hdr(Magic, 1, typeSecret, MaxPayload+1), "frame of type 3 with 1025 bytes refused (want 1 to 1024)"},
		{"empty secret", hdr(Magic, 1, typeSecret, 0), "frame of type 3 with 0 bytes refused"},
		{"welcome with bytes", hdr(Magic, 1, typeWelcom, 1), "frame of type 2 with 1 bytes refused (want 0 to 0)"},
		{"abort too long", hdr(Magic, 1, typeAbort, 1<<20), "frame of type 4 with 1048576 bytes refused"},
		{"cut short", append(hdr(Magic, 1, typeSecret, 5), 1, 2), "frame of type 3 cut short: unexpected EOF"},
	} {
		if _, err := readFrame(bytes.NewReader(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if err := Serve(context.Background(), listen(t, "127.0.0.1"), Config{Size: 2}, make([]byte, MaxPayload+1)); err == nil {
		t.Error("Serve of a secret over MaxPayload: no error")
	}
	if a, err := ListenAddr("node0:1"); err != nil || a != ":1" {
		t.Errorf("ListenAddr(node0:1) = %q, %v", a, err)
	}
	if a, err := ListenAddr("127.0.0.9:1"); err != nil || a != "127.0.0.9:1" {
		t.Errorf("ListenAddr(127.0.0.9:1) = %q, %v", a, err)
	}
}

// peerEnv marks the test binary run as a rank process by
// TestPeerKilled: its value is "ADDR RANK SIZE".
const peerEnv = "CUGEN_RENDEZVOUS_PEER"

// TestMain runs a rank of TestPeerKilled when peerEnv is set.
func TestMain(m *testing.M) {
	if v := os.Getenv(peerEnv); v != "" {
		f := strings.Fields(v)
		rank, _ := strconv.Atoi(f[1])
		size, _ := strconv.Atoi(f[2])
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err := Fetch(ctx, f[0], Config{JobID: "killed", Size: size}, rank)
		fmt.Println(err)
		os.Exit(3)
	}
	os.Exit(m.Run())
}

// TestPeerKilled: a rank's process dies (SIGKILL) mid-rendezvous, rank 3
// not yet come: rank 0 and the other rank (a process of its own) fail at
// once, long before their deadlines.
func TestPeerKilled(t *testing.T) {
	if !cugentest.InFreshNetwork(t) {
		return
	}
	ln := listen(t, "127.0.0.8")
	addr := ln.Addr().String()
	cfg := Config{JobID: "killed", Size: 4}
	l := &logs{t: t}
	cfg.Logf = l.logf
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, cfg, secret()) }()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	procs := make([]*exec.Cmd, 3)
	outs := make([]*bytes.Buffer, 3)
	for r := 1; r <= 2; r++ {
		procs[r] = exec.Command(exe, "-test.run=^$")
		procs[r].Env = append(os.Environ(), fmt.Sprintf("%s=%s %d 4", peerEnv, addr, r))
		outs[r] = new(bytes.Buffer)
		procs[r].Stdout = outs[r]
		if err := procs[r].Start(); err != nil {
			t.Fatal(err)
		}
		waitFor(t, 10*time.Second, fmt.Sprintf("rank %d counted", r), func() bool { return l.has(fmt.Sprintf("rank %d in", r)) })
	}
	start := time.Now()
	procs[1].Process.Kill()
	procs[1].Wait()
	err = <-served
	if err == nil || !strings.Contains(err.Error(), "rank 1 left before every rank was in") || time.Since(start) > slack {
		t.Errorf("rank 0: %v after %v", err, time.Since(start))
	}
	procs[2].Wait()
	if got := outs[2].String(); !strings.Contains(got, "the rendezvous was abandoned: rank 1 left before every rank was in") || time.Since(start) > slack {
		t.Errorf("rank 2 printed %q after %v", got, time.Since(start))
	}
}
