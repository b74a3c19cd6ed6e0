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

// MaxReceiveFiles is the most descriptors one message can carry: Linux's
// SCM_MAX_FD, what [SendFiles] can send in one message. [ReceiveFiles]
// takes no more, whatever maxFiles says.
const MaxReceiveFiles = 253

// ReceiveFiles receives one message sent by [SendFiles] into buf and
// returns its length and the files it carried: at most maxFiles (0 to
// [MaxReceiveFiles]; a larger maxFiles is taken as MaxReceiveFiles). A
// message with more descriptors, or one longer than buf (on a datagram or
// SEQPACKET socket, where the rest is lost), is an error, and the
// descriptors it carried are closed.
func ReceiveFiles(conn *net.UnixConn, buf []byte, maxFiles int) (int, []*os.File, error) {
	if maxFiles < 0 {
		return 0, nil, fmt.Errorf("cuda: ReceiveFiles: maxFiles %d is negative", maxFiles)
	}
	maxFiles = min(maxFiles, MaxReceiveFiles)
	// Room for one descriptor more than taken: a message with more is
	// then told by its count, not only by the kernel's MSG_CTRUNC.
	oob := make([]byte, syscall.CmsgSpace(4*(maxFiles+1)))
	n, oobn, flags, _, err := conn.ReadMsgUnix(buf, oob)
	if err != nil {
		return n, nil, err
	}
	var fds []int
	msgs, perr := syscall.ParseSocketControlMessage(oob[:oobn])
	for i := range msgs {
		got, err := syscall.ParseUnixRights(&msgs[i])
		if err != nil {
			continue // another kind of control message
		}
		fds = append(fds, got...)
	}
	switch {
	case perr != nil:
		err = fmt.Errorf("cuda: ReceiveFiles: %w", perr)
	case flags&syscall.MSG_CTRUNC != 0 || len(fds) > maxFiles:
		err = fmt.Errorf("cuda: ReceiveFiles: the message carried more than %d descriptors", maxFiles)
	case flags&syscall.MSG_TRUNC != 0:
		err = fmt.Errorf("cuda: ReceiveFiles: the message was longer than the %d-byte buffer (its rest is lost)", len(buf))
	}
	if err != nil {
		for _, fd := range fds {
			syscall.Close(fd)
		}
		return n, nil, err
	}
	files := make([]*os.File, len(fds))
	for i, fd := range fds {
		syscall.CloseOnExec(fd)
		files[i] = os.NewFile(uintptr(fd), "received")
	}
	return n, files, nil
}
