package e2e

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/e2e/cudatest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/nvfatbin"
	"github.com/cugen/cugen/generated/cuda12/nvrtc"
)

// cubinFor compiles cudatest.SaxpySource with NVRTC to a cubin of sm_arch.
func cubinFor(t *testing.T, arch int) []byte {
	t.Helper()
	prog := compile(t, cudatest.SaxpySource, fmt.Sprintf("--gpu-architecture=sm_%d", arch))
	cubin, err := nvrtc.GetCUBIN(prog)
	if err != nil || !bytes.HasPrefix(cubin, []byte("\x7fELF")) {
		t.Fatalf("GetCUBIN(sm_%d) = %d bytes (%.4q), %v; want an ELF file", arch, len(cubin), cubin, err)
	}
	return cubin
}

// fatbinEntry is what TestNVFatbinTwoArchs12 reads of one entry of a fat
// binary: its kind (1 PTX, 2 ELF), architecture and payload.
type fatbinEntry struct {
	kind    uint16
	arch    uint32
	payload []byte
}

// parseFatbin reads a fat binary as NVIDIA's tools write it (the layout
// cuobjdump reads; NVIDIA documents no format): a 16-byte header (magic
// 0xBA55ED50, version, header size, size of what follows), then entries,
// each a header (kind, header size, payload size, ..., architecture at
// offset 28) and its payload.
func parseFatbin(b []byte) ([]fatbinEntry, error) {
	le := binary.LittleEndian
	if len(b) < 16 || le.Uint32(b) != 0xBA55ED50 {
		return nil, fmt.Errorf("no fatbin magic: % x", b[:min(len(b), 16)])
	}
	hsize, size := int(le.Uint16(b[6:])), le.Uint64(b[8:])
	if hsize != 16 || uint64(len(b)-hsize) < size {
		return nil, fmt.Errorf("fatbin header size %d, contents %d bytes, file %d bytes", hsize, size, len(b))
	}
	var out []fatbinEntry
	rest := b[hsize : uint64(hsize)+size]
	for len(rest) > 0 {
		if len(rest) < 32 {
			return nil, fmt.Errorf("an entry of %d bytes", len(rest))
		}
		eh, payload := uint64(le.Uint32(rest[4:])), le.Uint64(rest[8:])
		if eh < 32 || eh+payload > uint64(len(rest)) {
			return nil, fmt.Errorf("entry header %d + payload %d bytes, %d left", eh, payload, len(rest))
		}
		out = append(out, fatbinEntry{kind: le.Uint16(rest), arch: le.Uint32(rest[28:]), payload: rest[eh : eh+payload]})
		rest = rest[eh+payload:]
	}
	return out, nil
}

// TestNVFatbinTwoArchs12: Debian's libnvfatbin12 on the CPU puts the
// cubins of sm_80 and sm_90 (compiled by NVRTC) into one fat binary: its
// header is a fatbin's and it holds two ELF entries, one per architecture,
// each the cubin given. A cubin added for the wrong architecture is
// refused with NVFATBIN_ERROR_ELF_ARCH_MISMATCH.
func TestNVFatbinTwoArchs12(t *testing.T) {
	cugentest.NeedLibrary(t, nvfatbin.SharedLibrary().Load())
	needNVRTC(t)
	major, minor, err := nvfatbin.Version()
	if err != nil || major != 12 {
		t.Fatalf("nvfatbin.Version() = %d.%d, %v; want 12.x", major, minor, err)
	}
	h, err := nvfatbin.Create(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := nvfatbin.Destroy(&h); err != nil {
			t.Error(err)
		}
	}()
	cubins := map[int][]byte{80: cubinFor(t, 80), 90: cubinFor(t, 90)}
	for _, arch := range []int{80, 90} {
		c := cubins[arch]
		if err := nvfatbin.AddCubin(h, unsafe.Pointer(&c[0]), uint64(len(c)), fmt.Sprint(arch), fmt.Sprintf("saxpy_sm%d", arch)); err != nil {
			t.Fatalf("AddCubin(sm_%d): %v", arch, err)
		}
	}
	c := cubins[80]
	err = nvfatbin.AddCubin(h, unsafe.Pointer(&c[0]), uint64(len(c)), "90", "wrong")
	var ce *ffi.CallError
	if !errors.As(err, &ce) || !errors.Is(err, nvfatbin.ErrorElfArchMismatch) {
		t.Errorf("AddCubin(sm_80 cubin as 90) = %v, want NVFATBIN_ERROR_ELF_ARCH_MISMATCH", err)
	}
	size, err := nvfatbin.Size(h)
	if err != nil {
		t.Fatal(err)
	}
	fat, err := nvfatbin.Get(h)
	if err != nil || uint64(len(fat)) != size {
		t.Fatalf("len(Get) = %d, Size = %d, %v", len(fat), size, err)
	}
	entries, err := parseFatbin(fat)
	if err != nil {
		t.Fatal(err)
	}
	var archs []int
	for _, e := range entries {
		archs = append(archs, int(e.arch))
		if e.kind != 2 || !bytes.Equal(e.payload, cubins[int(e.arch)]) {
			t.Errorf("entry for sm_%d: kind %d, %d bytes; want an ELF entry (2) holding the %d-byte cubin", e.arch, e.kind, len(e.payload), len(cubins[int(e.arch)]))
		}
	}
	if slices.Sort(archs); !slices.Equal(archs, []int{80, 90}) {
		t.Errorf("fatbin entries for architectures %v, want [80 90]", archs)
	}
	t.Logf("nvFatbin %d.%d: %d-byte fatbin of cubins of %d and %d bytes", major, minor, len(fat), len(cubins[80]), len(cubins[90]))
}
