//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffiimpl

// Internals the external tests check.

// HandleTableLen is the number of slots the handle table has ever needed.
func HandleTableLen() int {
	handles.mu.RLock()
	defer handles.mu.RUnlock()
	return len(handles.slots)
}

// CallbacksMade is the number of purego callbacks made through Callback.
func CallbacksMade() int64 { return callbacksMade.Load() }

// Gettid is the calling OS thread's id.
func Gettid() int { return gettid() }
