// Package rendezvous hands a small secret, an NCCL communicator's
// 128-byte unique id, from rank 0 of a job to every other rank over TCP:
// rank 0 listens ([Serve]), the others connect ([Fetch]), retrying with
// exponential backoff (50 ms doubling to 2 s) while rank 0 starts, until
// their context ends. It is a bootstrap only: NCCL does the job's
// communication.
//
// # Wire format (version 1)
//
// Every message is one frame: a 10-byte header, then the payload.
//
//	offset 0  4 bytes  magic "CGRZ"
//	offset 4  1 byte   version, 1
//	offset 5  1 byte   type: 1 hello, 2 welcome, 3 payload, 4 abort
//	offset 6  4 bytes  payload length, big-endian, bounded per type
//	offset 10          the payload
//
//	hello    rank r -> rank 0, 40 bytes: the job's identity, the SHA-256
//	         of "cugen rendezvous", the job id and the world size (32
//	         bytes), the world size (uint32) and r (uint32), big-endian
//	welcome  rank 0 -> r, empty: r is counted in
//	payload  rank 0 -> r, 1 to 1024 bytes: the secret, once all ranks are in
//	abort    either way, 1 to 513 bytes: a code byte (1: another job,
//	         2: this rank is refused, 3: the rendezvous is abandoned) and
//	         the reason in UTF-8
//
// Rank 0 gives each new connection HelloTimeout (default 10 s) to send
// its hello (a connection that sends slowly or nothing is closed: no
// slowloris) and keeps at most Size+64 connections waiting for one. A
// frame with another magic or version, an unknown type or a length over
// its type's bound is refused and the connection closed, unread further.
// A hello of another job (another identity: another job id or world
// size) is answered with abort code 1 and rank 0 goes on waiting: two
// jobs sharing a port are kept apart, and the stranger retries until its
// deadline (its job's rank 0 may not listen yet). A rank outside
// 1..size-1 or a rank already in is refused (code 2) and abandons the
// rendezvous for everyone (code 3): two processes believing they are one
// rank, or a wrong rank, mean a broken launch. If a counted peer closes
// its connection or sends an abort (its context ended), or rank 0's
// context ends, every connected rank is sent an abort (code 3) with the
// reason, and each returns an error. Nothing waits without a bound: every
// read and write has a deadline from the context or HelloTimeout.
//
// The identity keeps jobs apart; it is no authentication: whoever reaches
// rank 0's port and knows the job id and size gets the id, as with NCCL's
// own bootstrap sockets. Run jobs on the cluster's private network.
package rendezvous

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"slices"
	"strings"
	"sync"
	"time"
)

// Version is the wire format's version.
const Version = 1

// Magic starts every frame.
const Magic = "CGRZ"

// MaxPayload is the largest secret Serve hands out.
const MaxPayload = 1024

const (
	headerLen  = 10
	helloLen   = 32 + 4 + 4
	maxAbort   = 1 + 512
	typeHello  = 1
	typeWelcom = 2
	typeSecret = 3
	typeAbort  = 4
)

// Abort codes.
const (
	codeOtherJob = 1
	codeRefused  = 2
	codeAbandon  = 3
)

// Config is what every rank of a job agrees on.
type Config struct {
	JobID string // the launcher's name for the job ("" if none)
	Size  int    // the number of ranks, at least 2
	// HelloTimeout bounds, on rank 0, a new connection's wait for its
	// hello and every write to a peer; 10 s if zero.
	HelloTimeout time.Duration
	// Logf, if set, is told on rank 0 of each rank counted in and each
	// connection refused.
	Logf func(format string, args ...any)
}

func (c Config) helloTimeout() time.Duration {
	if c.HelloTimeout > 0 {
		return c.HelloTimeout
	}
	return 10 * time.Second
}

func (c Config) logf(format string, args ...any) {
	if c.Logf != nil {
		c.Logf(format, args...)
	}
}

func (c Config) identity() [32]byte {
	return sha256.Sum256(fmt.Appendf(nil, "cugen rendezvous\x00%s\x00%d", c.JobID, c.Size))
}

func (c Config) check() error {
	if c.Size < 2 {
		return fmt.Errorf("rendezvous: world size %d: a rendezvous needs at least 2 ranks", c.Size)
	}
	if c.Size > 1<<24 {
		return fmt.Errorf("rendezvous: world size %d: at most %d", c.Size, 1<<24)
	}
	return nil
}

// ListenAddr is where rank 0 listens for a job whose rendezvous address
// is addr (host:port): the host itself when it is an IP address, every
// interface (":port") when it is a name (a name may resolve elsewhere on
// rank 0's own node, as a Kubernetes service does).
func ListenAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("rendezvous: address %q: %v", addr, err)
	}
	if net.ParseIP(host) != nil {
		return addr, nil
	}
	return net.JoinHostPort("", port), nil
}

// Listen opens rank 0's listener for the job whose rendezvous address is
// addr ([ListenAddr]).
func Listen(ctx context.Context, addr string) (net.Listener, error) {
	la, err := ListenAddr(addr)
	if err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", la)
	if err != nil {
		return nil, fmt.Errorf("rendezvous: rank 0 cannot listen for %s: %w", addr, err)
	}
	return ln, nil
}

type frame struct {
	typ     byte
	payload []byte
}

func bound(typ byte) (lo, hi int, ok bool) {
	switch typ {
	case typeHello:
		return helloLen, helloLen, true
	case typeWelcom:
		return 0, 0, true
	case typeSecret:
		return 1, MaxPayload, true
	case typeAbort:
		return 1, maxAbort, true
	}
	return 0, 0, false
}

// readFrame reads one frame, refusing anything not in the format.
func readFrame(r io.Reader) (frame, error) {
	var h [headerLen]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return frame{}, err
	}
	if string(h[:4]) != Magic {
		return frame{}, fmt.Errorf("not a cugen rendezvous: the first bytes are %q, not %q", h[:4], Magic)
	}
	if h[4] != Version {
		return frame{}, fmt.Errorf("rendezvous version %d, want %d", h[4], Version)
	}
	lo, hi, ok := bound(h[5])
	if !ok {
		return frame{}, fmt.Errorf("unknown frame type %d", h[5])
	}
	n := binary.BigEndian.Uint32(h[6:])
	if uint64(n) < uint64(lo) || uint64(n) > uint64(hi) {
		return frame{}, fmt.Errorf("frame of type %d with %d bytes refused (want %d to %d)", h[5], n, lo, hi)
	}
	f := frame{typ: h[5], payload: make([]byte, n)}
	if _, err := io.ReadFull(r, f.payload); err != nil {
		return frame{}, fmt.Errorf("frame of type %d cut short: %w", h[5], err)
	}
	return f, nil
}

func appendFrame(b []byte, typ byte, payload []byte) []byte {
	b = append(b, Magic...)
	b = append(b, Version, typ)
	b = binary.BigEndian.AppendUint32(b, uint32(len(payload)))
	return append(b, payload...)
}

func writeFrame(c net.Conn, typ byte, payload []byte, timeout time.Duration) error {
	c.SetWriteDeadline(time.Now().Add(timeout))
	_, err := c.Write(appendFrame(nil, typ, payload))
	return err
}

func abortPayload(code byte, reason string) []byte {
	if len(reason) > maxAbort-1 {
		reason = reason[:maxAbort-1]
	}
	return append([]byte{code}, reason...)
}

// AbortError is a rendezvous abandoned by another rank, or this rank
// refused, with the reason the other side gave.
type AbortError struct {
	Code   int    // 1 another job, 2 refused, 3 abandoned
	Reason string // the other side's words
}

func (e *AbortError) Error() string {
	switch e.Code {
	case codeOtherJob:
		return "rank 0 serves another job: " + e.Reason
	case codeRefused:
		return "rank 0 refused this rank: " + e.Reason
	}
	return "the rendezvous was abandoned: " + e.Reason
}

func parseAbort(p []byte) *AbortError {
	return &AbortError{Code: int(p[0]), Reason: strings.ToValidUTF8(string(p[1:]), "?")}
}

// peer is a counted rank on rank 0's side.
type peer struct {
	rank int
	conn net.Conn
}

type hello struct {
	conn net.Conn
	rank int
}

type gone struct {
	rank int
	why  string
}

// Serve is rank 0's side: it waits on ln for the job's Size-1 other
// ranks, then sends each the secret and returns nil. It returns an error,
// after telling every connected rank, when ctx ends first, a counted rank
// leaves, or a rank is refused. It closes ln and every connection before
// returning.
func Serve(ctx context.Context, ln net.Listener, cfg Config, secret []byte) error {
	defer ln.Close()
	if err := cfg.check(); err != nil {
		return err
	}
	if len(secret) < 1 || len(secret) > MaxPayload {
		return fmt.Errorf("rendezvous: a secret of %d bytes (want 1 to %d)", len(secret), MaxPayload)
	}
	id := cfg.identity()
	timeout := cfg.helloTimeout()
	done := make(chan struct{})
	defer close(done)
	hellos := make(chan hello)
	gones := make(chan gone)

	// Connections not yet counted, closed when Serve returns.
	var mu sync.Mutex
	waiting := map[net.Conn]bool{}
	closed := false
	track := func(c net.Conn) bool {
		mu.Lock()
		defer mu.Unlock()
		if closed || len(waiting) >= cfg.Size+64 {
			return false
		}
		waiting[c] = true
		return true
	}
	untrack := func(c net.Conn) {
		mu.Lock()
		delete(waiting, c)
		mu.Unlock()
	}
	defer func() {
		mu.Lock()
		closed = true
		for c := range waiting {
			c.Close()
		}
		mu.Unlock()
	}()

	handshake := func(c net.Conn) {
		c.SetReadDeadline(time.Now().Add(timeout))
		f, err := readFrame(c)
		if err == nil && f.typ != typeHello {
			err = fmt.Errorf("frame of type %d before a hello", f.typ)
		}
		if err != nil {
			cfg.logf("rendezvous: refused %s: %v", c.RemoteAddr(), err)
			untrack(c)
			c.Close()
			return
		}
		size := int(binary.BigEndian.Uint32(f.payload[32:]))
		rank := int(binary.BigEndian.Uint32(f.payload[36:]))
		if [32]byte(f.payload[:32]) != id {
			why := fmt.Sprintf("its job id or world size (%d here, %d there) differ", cfg.Size, size)
			cfg.logf("rendezvous: refused %s (rank %d): another job: %s", c.RemoteAddr(), rank, why)
			writeFrame(c, typeAbort, abortPayload(codeOtherJob, why), timeout)
			untrack(c)
			c.Close()
			return
		}
		c.SetReadDeadline(time.Time{})
		select {
		case hellos <- hello{c, rank}:
		case <-done:
			untrack(c)
			c.Close()
		}
	}
	go func() {
		for {
			c, err := ln.Accept()
			if errors.Is(err, net.ErrClosed) {
				return // Serve has returned
			}
			if err != nil { // out of descriptors, say: wait, and go on
				cfg.logf("rendezvous: accept: %v", err)
				select {
				case <-done:
					return
				case <-time.After(50 * time.Millisecond):
				}
				continue
			}
			if !track(c) {
				cfg.logf("rendezvous: refused %s: too many connections waiting", c.RemoteAddr())
				c.Close()
				continue
			}
			go handshake(c)
		}
	}()

	peers := map[int]*peer{}
	abandon := func(reason string) {
		for _, p := range peers {
			writeFrame(p.conn, typeAbort, abortPayload(codeAbandon, reason), timeout)
			p.conn.Close()
		}
	}
	missing := func() []int {
		var m []int
		for r := 1; r < cfg.Size && len(m) < 16; r++ {
			if peers[r] == nil {
				m = append(m, r)
			}
		}
		return m
	}
	for len(peers) < cfg.Size-1 {
		select {
		case <-ctx.Done():
			reason := fmt.Sprintf("rank 0 gave up (%v) with %d of %d ranks in; missing %s", context.Cause(ctx), len(peers)+1, cfg.Size, ranks(missing(), cfg.Size-1-len(peers)))
			abandon(reason)
			return fmt.Errorf("rendezvous: %s", reason)
		case g := <-gones:
			reason := fmt.Sprintf("rank %d left before every rank was in: %s", g.rank, g.why)
			delete(peers, g.rank)
			abandon(reason)
			return fmt.Errorf("rendezvous: %s", reason)
		case h := <-hellos:
			untrack(h.conn)
			var refuse string
			switch {
			case h.rank < 1 || h.rank >= cfg.Size:
				refuse = fmt.Sprintf("rank %d from %s is not in 1..%d", h.rank, h.conn.RemoteAddr(), cfg.Size-1)
			case peers[h.rank] != nil:
				refuse = fmt.Sprintf("rank %d joined twice, from %s and %s", h.rank, peers[h.rank].conn.RemoteAddr(), h.conn.RemoteAddr())
			}
			if refuse != "" {
				writeFrame(h.conn, typeAbort, abortPayload(codeRefused, refuse), timeout)
				h.conn.Close()
				abandon(refuse)
				return fmt.Errorf("rendezvous: %s", refuse)
			}
			if err := writeFrame(h.conn, typeWelcom, nil, timeout); err != nil {
				h.conn.Close()
				reason := fmt.Sprintf("rank %d left before every rank was in: %v", h.rank, err)
				abandon(reason)
				return fmt.Errorf("rendezvous: %s", reason)
			}
			p := &peer{rank: h.rank, conn: h.conn}
			peers[h.rank] = p
			cfg.logf("rendezvous: rank %d in from %s (%d of %d)", h.rank, h.conn.RemoteAddr(), len(peers)+1, cfg.Size)
			go watch(p, gones, done)
		}
	}
	var failed []string
	for _, r := range slices.Sorted(maps.Keys(peers)) {
		p := peers[r]
		if err := writeFrame(p.conn, typeSecret, secret, timeout); err != nil {
			failed = append(failed, fmt.Sprintf("rank %d: %v", r, err))
		}
		if tc, ok := p.conn.(*net.TCPConn); ok {
			tc.CloseWrite()
		}
		p.conn.Close()
	}
	if failed != nil {
		return fmt.Errorf("rendezvous: sending the secret failed: %s", strings.Join(failed, "; "))
	}
	return nil
}

// watch reports a counted peer's connection ending, or its abort.
func watch(p *peer, gones chan<- gone, done <-chan struct{}) {
	f, err := readFrame(p.conn)
	why := ""
	switch {
	case err == nil && f.typ == typeAbort:
		why = parseAbort(f.payload).Reason
	case err == nil:
		why = fmt.Sprintf("it sent a frame of type %d", f.typ)
	case errors.Is(err, io.EOF):
		why = "it closed its connection"
	default:
		why = err.Error()
	}
	select {
	case gones <- gone{p.rank, why}:
	case <-done:
	}
}

// ranks lists some missing ranks and says how many there are.
func ranks(some []int, n int) string {
	s := fmt.Sprint(some)
	if n > len(some) {
		s = fmt.Sprintf("%s and %d more", strings.TrimSuffix(s, "]")+" ...]", n-len(some))
	}
	return s
}

// Fetch is the side of rank (1 to Size-1): it connects to rank 0 at addr
// (host:port), retrying with backoff until ctx ends, and returns the
// secret once every rank is in. An abort from rank 0 ends it with an
// [*AbortError], except "another job", which it retries (its own rank 0
// may not listen yet). When ctx ends after rank 0 counted it in, it tells
// rank 0 (which tells the others) before returning.
func Fetch(ctx context.Context, addr string, cfg Config, rank int) ([]byte, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if rank < 1 || rank >= cfg.Size {
		return nil, fmt.Errorf("rendezvous: rank %d is not in 1..%d", rank, cfg.Size-1)
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("rendezvous: address %q: %v", addr, err)
	}
	if reserved(host) {
		return nil, fmt.Errorf("rendezvous: rank %d: rank 0's host %q does not resolve: .invalid names never do (RFC 6761)", rank, host)
	}
	hi := make([]byte, 0, helloLen)
	id := cfg.identity()
	hi = append(hi, id[:]...)
	hi = binary.BigEndian.AppendUint32(hi, uint32(cfg.Size))
	hi = binary.BigEndian.AppendUint32(hi, uint32(rank))
	wait := 50 * time.Millisecond
	for {
		secret, retry, err := attempt(ctx, addr, hi, rank)
		if err == nil {
			return secret, nil
		}
		if !retry {
			return nil, fmt.Errorf("rendezvous: rank %d, rank 0 at %s: %w", rank, addr, err)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("rendezvous: rank %d gave up on rank 0 at %s (%v); last try: %w", rank, addr, context.Cause(ctx), err)
		case <-t.C:
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// reserved: a name under RFC 6761's "invalid.", which never resolves.
func reserved(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	return h == "invalid" || strings.HasSuffix(h, ".invalid")
}

// attempt is one connection to rank 0: the secret, or whether to retry.
func attempt(ctx context.Context, addr string, hi []byte, rank int) ([]byte, bool, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, true, err
	}
	defer c.Close()
	// ctx ending unblocks any read or write at once. (Not a deadline
	// of the connection: that may pass before ctx reports it ended.)
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		c.SetDeadline(time.Unix(1, 0))
		close(fired)
	})
	defer stop()
	if _, err := c.Write(appendFrame(nil, typeHello, hi)); err != nil {
		return nil, true, fmt.Errorf("sending the hello: %w", err)
	}
	f, err := readFrame(c)
	switch {
	case ctx.Err() != nil:
		return nil, true, fmt.Errorf("no answer to the hello: %w", context.Cause(ctx))
	case errors.Is(err, io.EOF):
		return nil, true, errors.New("the connection closed before rank 0 counted this rank in")
	case err != nil:
		return nil, true, err
	case f.typ == typeAbort:
		a := parseAbort(f.payload)
		return nil, a.Code == codeOtherJob, a
	case f.typ != typeWelcom:
		return nil, true, fmt.Errorf("a frame of type %d before the welcome", f.typ)
	}
	// Counted in: from here, failures are final.
	f, err = readFrame(c)
	switch {
	case err == nil && f.typ == typeSecret:
		return f.payload, false, nil
	case err == nil && f.typ == typeAbort:
		return nil, false, parseAbort(f.payload)
	case err == nil:
		return nil, false, fmt.Errorf("a frame of type %d instead of the secret", f.typ)
	case ctx.Err() != nil:
		// Tell rank 0, which tells the others.
		if !stop() {
			<-fired
		}
		c.SetDeadline(time.Now().Add(time.Second))
		c.Write(appendFrame(nil, typeAbort, abortPayload(codeAbandon, fmt.Sprintf("rank %d gave up: %v", rank, context.Cause(ctx)))))
		return nil, false, fmt.Errorf("gave up waiting for the other ranks: %w", context.Cause(ctx))
	case errors.Is(err, io.EOF):
		return nil, false, errors.New("rank 0 closed the connection before sending the secret")
	}
	return nil, false, err
}
