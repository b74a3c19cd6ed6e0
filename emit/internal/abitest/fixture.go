package abitest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Build compiles the fixture library from srcDir (emit/testdata/abi, given
// relative to the caller's package directory) into outDir and returns its
// path. With no C compiler ($CC, else gcc) it returns "" and the reason, for
// tests to skip with; a compiler error is an error. CUGEN_ABI_FIXTURE, if
// set, names a library already built and Build returns it: make test-windows
// builds abi.dll with mingw-w64 and runs the test binary under wine, where
// no compiler can be started.
func Build(srcDir, outDir string) (path, skip string, err error) {
	if p := os.Getenv("CUGEN_ABI_FIXTURE"); p != "" {
		return p, "", nil
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		return "", "no C compiler (" + cc + ") to build " + filepath.Join(srcDir, "abi.c"), nil
	}
	path = filepath.Join(outDir, "libabi.so")
	out, err := exec.Command(cc, "-shared", "-fPIC", "-O1", "-o", path, filepath.Join(srcDir, "abi.c"), "-lpthread").CombinedOutput()
	if err != nil {
		return "", "", fmt.Errorf("building %s: %v\n%s", filepath.Join(srcDir, "abi.c"), err, out)
	}
	return path, "", nil
}

// Setenv points both generated packages at the fixture library. Call it
// before the first call into cu or cudart: they load their library once,
// lazily. With path "" (no fixture) it points them at a file that does not
// exist, so that no real CUDA library is loaded in its place.
func Setenv(path, dir string) {
	if path == "" {
		path = filepath.Join(dir, "no-fixture-libabi.so")
	}
	os.Setenv("CUGEN_LIBCUDA", path)
	os.Setenv("CUGEN_LIBCUDART", path)
}
