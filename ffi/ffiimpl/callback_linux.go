//go:build linux && (amd64 || arm64)

package ffiimpl

import (
	"syscall"

	"github.com/ebitengine/purego"
)

// gettid returns the calling OS thread's id.
func gettid() int { return syscall.Gettid() }

// newCallback is purego.NewCallback.
func newCallback(fn any) uintptr { return purego.NewCallback(fn) }
