package e2e

import (
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/generated/cuda12/nccl"
	"github.com/cugen/cugen/internal/testset"
	"github.com/cugen/cugen/parser"
)

// TestNCCLInitializersMatchC: nccl.ConfigInitializer and
// SimInfoInitializer hold the bytes gcc gives NCCL_CONFIG_INITIALIZER and
// NCCL_SIM_INFO_INITIALIZER, compiled against the locked set 12.4 and
// libnccl-dev's nccl.h (no GPU, no NCCL library needed).
func TestNCCLInitializersMatchC(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc")
	}
	fs := testset.Set(t, "12.4") // found from any working directory; never fetched here
	src := `#include <stdio.h>
#include <nccl.h>
static const ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
static const ncclSimInfo_t sim = NCCL_SIM_INFO_INITIALIZER;
static void hex(const void *p, size_t n) {
	for (size_t i = 0; i < n; i++) printf("%02x", ((const unsigned char *)p)[i]);
	printf("\n");
}
int main(void) { hex(&config, sizeof config); hex(&sim, sizeof sim); return 0; }
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "init.c"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// The headers the parser supplies (cuda_fp16.h's <nv/target>), last.
	stubs := filepath.Join(dir, "stub-headers")
	if err := parser.WriteStubHeaders(stubs); err != nil {
		t.Fatal(err)
	}
	args := []string{"-o", filepath.Join(dir, "init"), filepath.Join(dir, "init.c"), "-I", fs.Dir}
	for _, d := range fs.WithDirs {
		args = append(args, "-I", d)
	}
	args = append(args, "-idirafter", stubs)
	if out, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(dir, "init")).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(out))
	config, sim := nccl.ConfigInitializer(), nccl.SimInfoInitializer()
	goBytes := []string{
		hex.EncodeToString(unsafe.Slice((*byte)(unsafe.Pointer(&config)), unsafe.Sizeof(config))),
		hex.EncodeToString(unsafe.Slice((*byte)(unsafe.Pointer(&sim)), unsafe.Sizeof(sim))),
	}
	if len(lines) != 2 || lines[0] != goBytes[0] || lines[1] != goBytes[1] {
		t.Errorf("C: %q\nGo: %q", lines, goBytes)
	}
	t.Logf("ncclConfig_t %d bytes, ncclSimInfo_t %d bytes: equal", unsafe.Sizeof(config), unsafe.Sizeof(sim))
}
