//go:build unix

package flock

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLockExcludes: a second Lock waits (and says so once) until the first
// is released; a cancelled wait fails.
func TestLockExcludes(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".lock")
	unlock, err := Lock(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	waits := 0
	if _, err := Lock(ctx, p, func() { waits++ }); err == nil || waits != 1 {
		t.Fatalf("second Lock while held: %v, waiting called %d times", err, waits)
	}
	got := make(chan error, 1)
	go func() {
		u, err := Lock(context.Background(), p, nil)
		if err == nil {
			u()
		}
		got <- err
	}()
	time.Sleep(150 * time.Millisecond)
	unlock()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Lock did not get the lock after it was released")
	}
}

// TestLockRefusesLinksAndFIFOs: never followed, never blocks.
func TestLockRefusesLinksAndFIFOs(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep\n"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(target, link)
	if _, err := Lock(context.Background(), link, nil); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Lock(symlink) = %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Lock(context.Background(), fifo, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Lock(FIFO) = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Lock(FIFO) blocks")
	}
}
