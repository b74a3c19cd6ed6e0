//go:build linux

package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/e2e/internal/twin"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda12/cu"
	"github.com/cugen/cugen/generated/cuda12/cufile"
)

// cuFileLog is the end of cuFile's log, for a failure's message.
func cuFileLog(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 6000 {
		b = b[len(b)-6000:]
	}
	return string(b)
}

// TestCuFileWithoutGPU12: Debian's libcufile0 (cuFile 1.9.1) loads on
// the CPU and reports its version; without a device cuFileDriverOpen
// fails with cuFile's status (and CUDA's, in the second field), no
// driver is in use, and a close without an open is
// CU_FILE_DRIVER_NOT_INITIALIZED. cuFile returns its status as a struct
// ({err, cu_err}): the wrappers return an error (library.Desc.StatusRecord),
// an *ffi.CallError naming the C function whose Code is that struct and
// which errors.Is matches against cuFile's status.
func TestCuFileWithoutGPU12(t *testing.T) {
	cugentest.NeedLibrary(t, cufile.SharedLibrary().Load())
	twin.CuFileCompat(t)
	v, err := cufile.GetVersion()
	if err != nil || v < 1000 {
		t.Fatalf("cufile.GetVersion() = %d, %v", v, err)
	}
	if err := cufile.DriverOpen(); err == nil {
		cufile.DriverClose()
		cugentest.SkipHasGPU(t, "cuFileDriverOpen succeeded (cuFile %d)", v)
	} else {
		var ce *ffi.CallError
		var st cufile.Error
		if !errors.As(err, &ce) || ce.Func != "cuFileDriverOpen" || !errors.As(err, &st) || st.Err == cufile.Success || !errors.Is(err, st.Err) || st.Err.Message() == "" {
			t.Errorf("DriverOpen = %#v: want an *ffi.CallError of cuFileDriverOpen with cuFile's status", err)
		}
		t.Logf("cuFile %d: DriverOpen without a device: %v (CUDA: %v)", v, err, st.Cu_err)
	}
	if n := cufile.UseCount(); n != 0 {
		t.Errorf("UseCount = %d after a failed open", n)
	}
	err = cufile.DriverClose()
	if !errors.Is(err, cufile.DriverNotInitialized) || !strings.HasPrefix(fmt.Sprint(err), "cuFileDriverClose: CU_FILE_DRIVER_NOT_INITIALIZED") {
		t.Errorf("DriverClose without an open = %v, want CU_FILE_DRIVER_NOT_INITIALIZED", err)
	}
}

// TestCuFileReadToDevice12 (GPU): cuFileRead reads a file into device
// memory in compatibility mode (the machine has no GPUDirect Storage) and
// the bytes equal the file's. cuFile reads its configuration (the
// CUFILE_* variables and the JSON file CUFILE_ENV_PATH_JSON names) once
// per process and keeps its driver's state until the process ends, so
// each configuration runs in a child process of its own (this test's
// binary, re-run with CUGEN_CUFILE_CHILD): the configurations of
// cuFileConfigs, most likely first, until one reads the file. Each child
// logs every step ("cufile step NAME: ok" or "FAIL") and, on a failure,
// the end of cuFile's log (level TRACE, in the test's temporary
// directory). The test passes when a configuration with the package's
// library (CUGEN_LIBCUFILE or the default search) works, and says which.
func TestCuFileReadToDevice12(t *testing.T) {
	if i, err := strconv.Atoi(os.Getenv(cuFileChildEnv)); err == nil {
		cuFileReadChild(t, cuFileConfigs()[i])
		return
	}
	cugentest.NeedLibrary(t, cufile.SharedLibrary().Load())
	_, done := gpu12(t) // skips here without a device
	done()
	dir := t.TempDir()
	var failed []string
	for i, c := range cuFileConfigs() {
		if c.lib != "" {
			if _, err := os.Stat(c.lib); err != nil {
				t.Logf("configuration %d (%s): skipped, %v", i+1, c.name, err)
				continue
			}
		}
		out, step, err := runCuFileChild(t, dir, i, c)
		if err == nil {
			t.Logf("configuration %d (%s) reads the file:\n%s", i+1, c.name, out)
			if c.lib != "" {
				t.Errorf("only %s reads the file; the package's library fails in every configuration before it: %s", c.lib, strings.Join(failed, "; "))
			} else if len(failed) > 0 {
				t.Logf("configurations that failed before it: %s", strings.Join(failed, "; "))
			}
			return
		}
		failed = append(failed, fmt.Sprintf("%d (%s) at %s", i+1, c.name, step))
		t.Logf("configuration %d (%s) fails at step %s (%v):\n%s", i+1, c.name, step, err, out)
		if errors.Is(err, context.DeadlineExceeded) {
			break // a hang: the binary's own timeout must not end the other tests
		}
	}
	t.Fatalf("no configuration reads the file with cuFile: %s", strings.Join(failed, "; "))
}

// cuFileChildEnv names the configuration (its index in cuFileConfigs) a
// child process of TestCuFileReadToDevice12 runs.
const cuFileChildEnv = "CUGEN_CUFILE_CHILD"

// cuFileConfig is one configuration of cuFile that
// TestCuFileReadToDevice12 tries.
type cuFileConfig struct {
	name     string
	json     string   // cufile.json's text; "": none (the library's defaults, /etc/cufile.json)
	env      []string // CUFILE_* variables besides the log's
	noDirect bool     // the file descriptor without O_DIRECT (compatibility mode allows it)
	implicit bool     // no cuFileDriverOpen: cuFileHandleRegister opens the driver
	lib      string   // CUGEN_LIBCUFILE for the child; "": the parent's
}

// cuFileCompatJSON forces compatibility mode with cufile.json's keys of
// cuFile 1.9 (the strings of Debian's libcufile.so.0 name them):
// properties.allow_compat_mode and force_compat_mode, and
// miscellaneous.skip_topology_detection, which spares the udev scan of
// PCI and block devices that a virtual machine may not answer.
const cuFileCompatJSON = `{
  "logging": {"level": "TRACE"},
  "properties": {"allow_compat_mode": true, "force_compat_mode": true, "use_poll_mode": false},
  "miscellaneous": {"skip_topology_detection": true}
}`

// cuFileCompatEnv is the same through the environment, which cuFile
// reads over the file's values.
var cuFileCompatEnv = []string{"CUFILE_ALLOW_COMPAT_MODE=true", "CUFILE_FORCE_COMPAT_MODE=true", "CUFILE_SKIP_TOPOLOGY_DETECTION=true", "CUFILE_LOGGING_LEVEL=TRACE"}

// cuFileConfigs are the configurations TestCuFileReadToDevice12 tries, in
// order: forced compatibility mode as cuFile's documentation describes
// it, then one change at a time, then the library's defaults, and last
// the CUDA toolkit's libcufile (CUGEN_LIBCUFILE_ALT, else
// $CUDA_HOME/lib64 or /usr/local/cuda/lib64), which tells a fault of the
// library apart from one of the binding.
func cuFileConfigs() []cuFileConfig {
	alt := os.Getenv("CUGEN_LIBCUFILE_ALT")
	if alt == "" {
		home := os.Getenv("CUDA_HOME")
		if home == "" {
			home = "/usr/local/cuda"
		}
		alt = filepath.Join(home, "lib64", "libcufile.so.0")
	}
	return []cuFileConfig{
		{name: "compatibility mode forced (cufile.json and CUFILE_*), O_DIRECT, cuFileDriverOpen", json: cuFileCompatJSON, env: cuFileCompatEnv},
		{name: "forced, a descriptor without O_DIRECT", json: cuFileCompatJSON, env: cuFileCompatEnv, noDirect: true},
		{name: "forced, CUFILE_EXPERIMENTAL_FS=1 (unsupported file systems allowed)", json: cuFileCompatJSON, env: append(slices.Clip(cuFileCompatEnv), "CUFILE_EXPERIMENTAL_FS=1")},
		{name: "forced, no cuFileDriverOpen (cuFileHandleRegister opens the driver)", json: cuFileCompatJSON, env: cuFileCompatEnv, implicit: true},
		{name: "compatibility mode allowed, not forced (cufile.json only)", json: `{"logging": {"level": "TRACE"}, "properties": {"allow_compat_mode": true}}`},
		{name: "no configuration (the library's defaults)", env: []string{"CUFILE_LOGGING_LEVEL=TRACE"}},
		{name: "forced, with " + alt, json: cuFileCompatJSON, env: cuFileCompatEnv, lib: alt},
	}
}

// runCuFileChild runs configuration i in a child process and returns its
// output, each line after "| " (the child's own "--- FAIL" lines must not
// read as this binary's results in mk/gpu-report.py), the step it failed
// at ("" when it passed) and its error.
func runCuFileChild(t *testing.T, dir string, i int, c cuFileConfig) (out, step string, err error) {
	t.Helper()
	cdir := filepath.Join(dir, fmt.Sprintf("config%d", i+1))
	if err := os.MkdirAll(cdir, 0o700); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CUFILE_") && !strings.HasPrefix(kv, cuFileChildEnv+"=") && (c.lib == "" || !strings.HasPrefix(kv, "CUGEN_LIBCUFILE=")) {
			env = append(env, kv)
		}
	}
	pkg, _ := os.Getwd()
	env = append(env, fmt.Sprintf("%s=%d", cuFileChildEnv, i), "CUGEN_CUFILE_PKGDIR="+pkg, "CUFILE_LOGFILE_PATH="+filepath.Join(cdir, "cufile.log"))
	env = append(env, c.env...)
	if c.json != "" {
		conf := filepath.Join(cdir, "cufile.json")
		if err := os.WriteFile(conf, []byte(c.json), 0o600); err != nil {
			t.Fatal(err)
		}
		env = append(env, "CUFILE_ENV_PATH_JSON="+conf)
	}
	if c.lib != "" {
		env = append(env, "CUGEN_LIBCUFILE="+c.lib)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCuFileReadToDevice12$", "-test.v", "-test.count=1")
	cmd.Env = env
	cmd.Dir = cdir // cuFile's default log (cufile.log) lands here, not in the package
	b, err := cmd.CombinedOutput()
	raw := string(b)
	out = "| " + strings.ReplaceAll(strings.TrimRight(raw, "\n"), "\n", "\n| ")
	if ctx.Err() != nil {
		err = fmt.Errorf("%w: %v", ctx.Err(), err)
	}
	if err == nil && !strings.Contains(raw, "cufile step compare: ok") {
		err = errors.New("the child did not reach the last step")
	}
	if err == nil {
		return out, "", nil
	}
	step = "(none failed: the child ended before the last)"
	for _, line := range strings.Split(raw, "\n") {
		if _, rest, ok := strings.Cut(line, "cufile step "); ok && strings.Contains(rest, ": FAIL") {
			step, _, _ = strings.Cut(rest, ": FAIL")
			break
		}
	}
	return out, step, err
}

// cuFileReadChild is one configuration's run, in the child process: each
// step logged, the first failure fatal with the end of cuFile's log.
func cuFileReadChild(t *testing.T, c cuFileConfig) {
	logPath := os.Getenv("CUFILE_LOGFILE_PATH")
	step := func(name string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("cufile step %s: FAIL: %v\ncuFile's log %s, its end:\n%s", name, err, filepath.Base(logPath), cuFileLog(logPath))
		}
		t.Logf("cufile step %s: ok", name)
	}
	t.Logf("configuration: %s", c.name)
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "CUFILE_") || strings.HasPrefix(kv, "CUGEN_LIBCUFILE") {
			t.Logf("env %s", kv)
		}
	}
	lib := cufile.SharedLibrary()
	step("load", lib.Load())
	t.Logf("library %s", lib.Path())
	v, err := cufile.GetVersion()
	step("cuFileGetVersion", err)
	t.Logf("cuFile version %d", v)
	// cuFile wants a CUDA context before it opens (cuDF's workaround of
	// cudaFree(0)): the primary context, current on this locked thread.
	_, done := gpu12(t)
	defer done()
	step("context", nil)

	const n = 1 << 20
	want := make([]byte, n)
	for i := range want {
		want[i] = byte(i*7 + i>>11)
	}
	// The file goes where O_DIRECT opens it (tmpfs refuses O_DIRECT): the
	// temporary directory, else the package's (the parent's working
	// directory).
	var path string
	for _, dir := range []string{t.TempDir(), os.Getenv("CUGEN_CUFILE_PKGDIR")} {
		if dir == "" {
			continue
		}
		path = filepath.Join(dir, "cufile-data")
		if err = os.WriteFile(path, want, 0o600); err != nil {
			continue
		}
		t.Cleanup(func() { os.Remove(path) })
		fd, oerr := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECT, 0)
		if err = oerr; err == nil {
			syscall.Close(fd)
			t.Logf("the file is in %s, which takes O_DIRECT", dir)
			break
		}
	}
	step("data file", err)
	cuFileHostFacts(t, path)

	if !c.implicit {
		step("cuFileDriverOpen", cufile.DriverOpen())
		defer cufile.DriverClose()
		var props cufile.DrvProps
		if err := cufile.DriverGetProperties(&props); err != nil {
			t.Logf("cuFileDriverGetProperties: %v", err)
		} else {
			t.Logf("driver properties: nvfs %d.%d, status flags %#x, control flags %#x, feature flags %#x, max direct I/O %d",
				props.Nvfs.Major_version, props.Nvfs.Minor_version, props.Nvfs.Dstatusflags, props.Nvfs.Dcontrolflags, props.Fflags, props.Nvfs.Max_direct_io_size)
		}
	}
	flags := syscall.O_RDONLY | syscall.O_DIRECT
	if c.noDirect {
		flags = syscall.O_RDONLY
	}
	fd, err := syscall.Open(path, flags, 0)
	step("open", err)
	defer syscall.Close(fd)
	var descr cufile.Descr
	descr.Type = cufile.HandleTypeOpaqueFd
	*descr.Handle.Fd() = int32(fd)
	var fh cufile.Handle
	step("cuFileHandleRegister", cufile.HandleRegister(&fh, &descr))
	defer cufile.HandleDeregister(fh)

	dbuf, err := cu.MemAlloc(n)
	step("cuMemAlloc", err)
	defer cu.MemFree(dbuf)
	got := cufile.Read(fh, dbuf.Pointer(), n, 0, 0)
	switch {
	case got == n:
		step("cuFileRead", nil)
	case got < 0 && -got > 5000:
		// cuFile's own errors are negated CUfileOpError values
		// (CUFILEOP_BASE_ERR 5000 up), the rest negated errno values
		step("cuFileRead", fmt.Errorf("returned %d: %v", got, cufile.OpError(-got)))
	case got < 0:
		step("cuFileRead", fmt.Errorf("returned %d: %v", got, syscall.Errno(-got)))
	default:
		step("cuFileRead", fmt.Errorf("read %d bytes, want %d", got, n))
	}
	host := make([]byte, n)
	step("cuMemcpyDtoH", cu.MemcpyDtoH(unsafe.Pointer(&host[0]), dbuf, n))
	if !bytes.Equal(host, want) {
		step("compare", errors.New("the device copy differs from the file"))
	}
	step("compare", nil)
	t.Logf("cuFileRead: %d bytes into device memory, equal to the file; cuFile's log %s has %d bytes", got, filepath.Base(logPath), len(cuFileLog(logPath)))
}

// cuFileHostFacts logs what cuFile's checks of a file look at: the file
// system (statfs), its mount line, udev's database (the block device's
// properties) and nvidia-fs (GPUDirect Storage's driver).
func cuFileHostFacts(t *testing.T, path string) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err == nil {
		t.Logf("file system of %s: magic %#x", filepath.Base(path), st.Type)
	}
	if b, err := os.ReadFile("/proc/self/mountinfo"); err == nil {
		// the mount with the longest mount point that holds path
		abs, _ := filepath.Abs(path)
		best, bestLen := "", -1
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) > 4 && (abs == f[4] || strings.HasPrefix(abs, strings.TrimSuffix(f[4], "/")+"/")) && len(f[4]) > bestLen {
				best, bestLen = line, len(f[4])
			}
		}
		t.Logf("mount: %s", best)
	}
	for _, p := range []string{"/run/udev/data", "/proc/driver/nvidia-fs", "/dev/nvidia-fs0"} {
		_, err := os.Stat(p)
		t.Logf("%s: present %v", p, err == nil)
	}
}
