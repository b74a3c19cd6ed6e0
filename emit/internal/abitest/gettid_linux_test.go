package abitest_test

import "syscall"

func gettid() int { return syscall.Gettid() }
