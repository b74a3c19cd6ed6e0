package cuda

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cugentest"
)

// TestGPUAgainstC checks two calls of the Go API against the same calls
// in C (testdata/cref/cref.c, built here with cc), on the same device:
//   - Context.Link of two PTX inputs with no Name gives C's info log,
//     where C passes NULL for each input's name (issue 40: Go passed "",
//     and the driver's log differed);
//   - Kernel.SuggestBlockSize gives C's block and grid for limits of 0,
//     below the maximum, at it and above it (cuda-samples pass 1,000,000,
//     which the API refused before issue 40).
func TestGPUAgainstC(t *testing.T) {
	c := gpuContext(t)
	cc, err := exec.LookPath("cc")
	if err != nil {
		cugentest.SkipNoGPU(t, "no cc to build the C reference: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "cref")
	if out, err := exec.Command(cc, "-O2", "-o", bin, filepath.Join("testdata", "cref", "cref.c"), "-ldl").CombinedOutput(); err != nil {
		t.Fatalf("cc cref.c: %v\n%s", err, out)
	}
	// the driver library the Go API loaded, so that both use the same
	lib := cu.SharedLibrary().Path()
	if lib == "" {
		t.Fatal("the driver library has no path, though a context was made")
	}
	cmd := exec.Command(bin, lib, filepath.Join("testdata", "link", "caller.ptx"), filepath.Join("testdata", "link", "callee.ptx"))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cref: %v\n%s", err, out)
	}
	cLog, cOcc, ok := strings.Cut(string(out), "\nend log\n")
	cLog, ok2 := strings.CutPrefix(cLog, "info log:\n")
	if !ok || !ok2 {
		t.Fatalf("cref printed no info log:\n%s", out)
	}
	cLog = strings.TrimSpace(cLog) // as the API's logs are (cLog in link.go)
	if cLog == "" {
		t.Fatal("C's verbose info log is empty: nothing to compare")
	}

	// the log buffers of cref.c's size (64 KiB; the API's default is 16)
	linked, err := c.Link([]LinkInput{{Kind: LinkPTX, Data: linkCallerPTX}, {Kind: LinkPTX, Data: linkCalleePTX}}, LinkOptions{LogVerbose: true, LogSize: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	if linked.InfoLog != cLog {
		t.Errorf("Link's info log differs from C's\nGo:\n%s\nC:\n%s", linked.InfoLog, cLog)
	}
	t.Logf("info log, Go and C:\n%s", cLog)

	k := callTwice(t, c, linked.Image)
	var goOcc strings.Builder
	for _, limit := range []int{0, 32, 100, 1024, 1025, 1000000} {
		block, minGrid, err := k.SuggestBlockSize(0, limit)
		if err != nil {
			t.Fatalf("SuggestBlockSize(0, %d): %v", limit, err)
		}
		fmt.Fprintf(&goOcc, "limit %d: block %d minGrid %d\n", limit, block, minGrid)
	}
	if goOcc.String() != cOcc {
		t.Errorf("SuggestBlockSize differs from C's cuOccupancyMaxPotentialBlockSize\nGo:\n%s\nC:\n%s", goOcc.String(), cOcc)
	}
	t.Logf("occupancy, Go and C:\n%s", cOcc)
}
