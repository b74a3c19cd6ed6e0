package library

import (
	"testing"

	"github.com/cugen/cugen/ffi"
)

// TestVersionForms: the version forms of the descriptions are the numbers
// package ffi reads them by (LoadSpec.LibraryDesc passes them as int).
func TestVersionForms(t *testing.T) {
	for form, want := range map[VersionForm]int{Encoded: ffi.VersionEncoded, MajorMinor: ffi.VersionMajorMinor, Property: ffi.VersionProperty} {
		if int(form) != want {
			t.Errorf("form %d is ffi's %d", form, want)
		}
	}
}

// TestPipPackage: the pip packages named in cugen doctor's advice.
func TestPipPackage(t *testing.T) {
	for _, c := range []struct {
		d     *Desc
		major int
		want  string
	}{
		{Runtime, 12, "nvidia-cuda-runtime-cu12"},
		{Runtime, 13, "nvidia-cuda-runtime"},
		{NVRTC, 12, "nvidia-cuda-nvrtc-cu12"},
		{CuBLASLt, 13, "nvidia-cublas"},
		{CuFFT, 12, "nvidia-cufft-cu12"},
		{Driver, 12, ""},
		// NCCL is not a toolkit wheel: its cu13 package keeps the suffix.
		{NCCL, 12, "nvidia-nccl-cu12"},
		{NCCL, 13, "nvidia-nccl-cu13"},
	} {
		if got := c.d.Load.PipPackage(c.major); got != c.want {
			t.Errorf("%s %d: %q, want %q", c.d.Key, c.major, got, c.want)
		}
	}
}
