//go:build linux

package multiproc

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

const childEnv = "CUGEN_MULTIPROC_TEST_CHILD"

// TestMain runs a child's part when TestSpawn started this binary as one:
// it reads its message, runs the barriers, writing its index to the
// shared pipe between them, and exits.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "" {
		os.Exit(m.Run())
	}
	id, conn, ok, err := Child()
	if !ok || err != nil {
		fmt.Fprintln(os.Stderr, "child:", ok, err)
		os.Exit(3)
	}
	buf := make([]byte, 64)
	n, err := conn.Read(buf)
	if err != nil {
		os.Exit(4)
	}
	rounds := int(buf[0])
	out := os.NewFile(4, "out") // the pipe, the second extra file
	for r := range rounds {
		fmt.Fprintf(out, "%d:%d ", r, id)
		if err := Barrier(conn); err != nil {
			os.Exit(5)
		}
	}
	_ = n
	os.Exit(0)
}

// TestSpawn: three children get their index and message, and no child
// passes a barrier before every child has reached it: each round's
// writes all come before the next round's.
func TestSpawn(t *testing.T) {
	t.Setenv(childEnv, "1")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	extra = []*os.File{w}
	defer func() { extra = nil }()
	const kids, rounds = 3, 4
	c, err := Spawn(kids)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	for i := range kids {
		if _, err := c.Conn(i).Write([]byte{rounds}); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 1)
	go func() { done <- c.Barriers(rounds) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("barriers hung")
	}
	if err := c.Wait(); err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	buf := make([]byte, 256)
	for {
		n, err := r.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			break
		}
	}
	fields := strings.Fields(sb.String())
	t.Logf("children wrote %v", fields)
	if len(fields) != kids*rounds {
		t.Fatalf("%d writes, want %d", len(fields), kids*rounds)
	}
	for i, f := range fields {
		var round, id int
		fmt.Sscanf(f, "%d:%d", &round, &id)
		if round != i/kids {
			t.Fatalf("write %d is of round %d, want %d: a child passed a barrier early (%v)", i, round, i/kids, fields)
		}
	}
}

// TestSpawnChildFails: a child that exits at the first barrier makes
// Barriers fail and the other children end too (Wait returns, naming a
// failed process), where they would wait at the barrier forever.
func TestSpawnChildFails(t *testing.T) {
	t.Setenv(childEnv, "1")
	c, err := Spawn(3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		rounds := byte(2)
		if i == 1 {
			rounds = 0 // exits at once: no barrier
		}
		c.Conn(i).Write([]byte{rounds})
	}
	done := make(chan error, 1)
	go func() {
		berr := c.Barriers(2)
		werr := c.Wait()
		if berr == nil {
			done <- fmt.Errorf("Barriers passed with a child gone")
			return
		}
		done <- werr
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "failed") {
			t.Errorf("Wait = %v, want a failed process", err)
		} else {
			t.Log(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("a child failing hung the others at the barrier")
	}
}
