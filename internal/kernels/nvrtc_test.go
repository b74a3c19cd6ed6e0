//go:build linux && (amd64 || arm64)

package kernels

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNVRTCNotFoundAdvice: NVRTC found nowhere is an error that names
// the fix that needs no GPU and no toolkit, cugen libs (issue 40; before,
// it listed only the places tried), and pip for CUDA 13.
func TestNVRTCNotFoundAdvice(t *testing.T) {
	t.Setenv("CUGEN_LIBNVRTC", filepath.Join(t.TempDir(), "libnvrtc.so.12")) // the search tries only it
	_, err := OpenNVRTC()
	if err == nil {
		t.Fatal("OpenNVRTC found NVRTC at a path that does not exist")
	}
	first, _, _ := strings.Cut(err.Error(), "\n")
	for _, want := range []string{"NVRTC not found", `eval "$(go tool cugen libs -major 12 nvrtc)"`, "pip install nvidia-cuda-nvrtc"} {
		if !strings.Contains(first, want) {
			t.Errorf("the error's first line %q lacks %q", first, want)
		}
	}
}
