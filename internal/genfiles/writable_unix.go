//go:build unix

package genfiles

import "syscall"

// writable reports whether this process may create and remove entries in
// dir (write and search permission).
func writable(dir string) error {
	return syscall.Access(dir, 0x2|0x1) // W_OK|X_OK
}
