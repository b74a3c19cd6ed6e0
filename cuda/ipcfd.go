//go:build !windows

package cuda

import (
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"syscall"
)

// SendFiles sends msg and the descriptors of files over the Unix socket
// conn in one message (SCM_RIGHTS): the way a pool's descriptor
// ([IPCMemPool.ExportFD]) reaches a process that did not inherit it. The
// receiver gets duplicates; the sender still closes its own files. msg
// must not be empty (a message carries the descriptors).
func SendFiles(conn *net.UnixConn, msg []byte, files ...*os.File) error {
	if len(msg) == 0 {
		return errors.New("cuda: SendFiles: empty message (descriptors travel with at least one byte)")
	}
	fds := make([]int, len(files))
	for i, f := range files {
		if f == nil {
			return fmt.Errorf("cuda: SendFiles: file %d is nil", i)
		}
		fds[i] = int(f.Fd())
	}
	n, oobn, err := conn.WriteMsgUnix(msg, syscall.UnixRights(fds...), nil)
	if err == nil && (n != len(msg) || oobn == 0 && len(fds) > 0) {
		err = fmt.Errorf("cuda: SendFiles: sent %d of %d bytes", n, len(msg))
	}
	runtime.KeepAlive(files) // no cleanup closes a descriptor before it is sent
	return err
}

// ReceiveFiles receives one message sent by [SendFiles] into buf and
// returns its length and the files it carried (at most maxFiles; a
// message with more is an error, its descriptors closed).
func ReceiveFiles(conn *net.UnixConn, buf []byte, maxFiles int) (int, []*os.File, error) {
	oob := make([]byte, syscall.CmsgSpace(4*max(maxFiles, 1)))
	n, oobn, flags, _, err := conn.ReadMsgUnix(buf, oob)
	if err != nil {
		return n, nil, err
	}
	msgs, err := syscall.ParseSocketControlMessage(oob[:oobn])
	if err != nil {
		return n, nil, fmt.Errorf("cuda: ReceiveFiles: %w", err)
	}
	var fds []int
	for i := range msgs {
		got, err := syscall.ParseUnixRights(&msgs[i])
		if err != nil {
			continue // another kind of control message
		}
		fds = append(fds, got...)
	}
	if flags&syscall.MSG_CTRUNC != 0 || len(fds) > maxFiles {
		for _, fd := range fds {
			syscall.Close(fd)
		}
		return n, nil, fmt.Errorf("cuda: ReceiveFiles: the message carried more than %d descriptors", maxFiles)
	}
	files := make([]*os.File, len(fds))
	for i, fd := range fds {
		syscall.CloseOnExec(fd)
		files[i] = os.NewFile(uintptr(fd), "received")
	}
	return n, files, nil
}
