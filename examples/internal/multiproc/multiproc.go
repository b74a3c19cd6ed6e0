//go:build linux

// Package multiproc is what the two-process examples (simpleIPC,
// streamOrderedAllocationIPC) share in place of NVIDIA's
// helper_multiprocess: the parent starts its own program once per child,
// with the child's index as its one argument and one end of a Unix socket
// pair as descriptor 3; the socket carries the handles (and descriptors,
// SCM_RIGHTS) to the child and the barriers between the children, which
// the parent runs (the samples spin on atomics in shared memory).
package multiproc

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// extra are more files for the children, from descriptor 4 (the tests').
var extra []*os.File

// Children are the child processes of a parent.
type Children struct {
	cmds  []*exec.Cmd
	conns []*net.UnixConn
}

// Spawn starts n children: this program again with the argument i.
func Spawn(n int) (*Children, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	c := &Children{}
	for i := range n {
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			return nil, err
		}
		mine, theirs := os.NewFile(uintptr(fds[0]), "parent"), os.NewFile(uintptr(fds[1]), "child")
		conn, err := net.FileConn(mine)
		mine.Close()
		if err != nil {
			theirs.Close()
			return nil, err
		}
		cmd := exec.Command(exe, strconv.Itoa(i))
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		cmd.ExtraFiles = append([]*os.File{theirs}, extra...) // descriptor 3
		err = cmd.Start()
		theirs.Close()
		if err != nil {
			conn.Close()
			return nil, err
		}
		c.cmds = append(c.cmds, cmd)
		c.conns = append(c.conns, conn.(*net.UnixConn))
	}
	return c, nil
}

// Conn returns the socket to child i.
func (c *Children) Conn(i int) *net.UnixConn { return c.conns[i] }

// Barriers runs n barriers of the children: each time, it waits for
// every child to arrive ([Barrier]), then lets them all go on. When a
// child fails (its socket closes), it closes every socket, so that the
// children waiting at the barrier fail too instead of waiting forever.
func (c *Children) Barriers(n int) error {
	err := c.barriers(n)
	if err != nil {
		for _, conn := range c.conns {
			conn.Close()
		}
	}
	return err
}

func (c *Children) barriers(n int) error {
	b := make([]byte, 1)
	for range n {
		for i, conn := range c.conns {
			if _, err := conn.Read(b); err != nil {
				return fmt.Errorf("barrier: child %d: %w", i, err)
			}
		}
		for i, conn := range c.conns {
			if _, err := conn.Write(b); err != nil {
				return fmt.Errorf("barrier: child %d: %w", i, err)
			}
		}
	}
	return nil
}

// Wait waits for every child and returns the error of the first that
// failed, naming it as the samples do ("Process %d failed!").
func (c *Children) Wait() error {
	var first error
	for i, cmd := range c.cmds {
		err := cmd.Wait()
		c.conns[i].Close()
		if err != nil && first == nil {
			first = fmt.Errorf("Process %d failed! (%v)", i, err)
		}
	}
	return first
}

// Child returns, in a child, its index and its socket to the parent; ok
// is false in the parent (no argument).
func Child() (id int, conn *net.UnixConn, ok bool, err error) {
	if len(os.Args) < 2 {
		return 0, nil, false, nil
	}
	if id, err = strconv.Atoi(os.Args[1]); err != nil || id < 0 {
		return 0, nil, true, fmt.Errorf("child index %q: want a number from 0", os.Args[1])
	}
	f := os.NewFile(3, "parent")
	if f == nil {
		return 0, nil, true, errors.New("no descriptor 3: run the program without arguments")
	}
	fc, err := net.FileConn(f)
	f.Close()
	if err != nil {
		return 0, nil, true, fmt.Errorf("descriptor 3: %w (run the program without arguments)", err)
	}
	return id, fc.(*net.UnixConn), true, nil
}

// Barrier is a child's side of [Children.Barriers]: it returns when every
// child has reached its barrier.
func Barrier(conn *net.UnixConn) error {
	b := []byte{1}
	if _, err := conn.Write(b); err != nil {
		return err
	}
	_, err := conn.Read(b)
	return err
}
