//go:build linux && (amd64 || arm64)

package nvtx

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/internal/testset"
	"github.com/ebitengine/purego"
)

// fake builds testdata/inject.c, a stand-in profiler library, once, and
// returns its path and a func that returns and clears its log.
var fake = sync.OnceValues(func() (string, error) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		return "", fmt.Errorf("gcc not installed: cannot build the stand-in injection library")
	}
	dir, err := os.MkdirTemp("", "nvtx-test")
	if err != nil {
		return "", err
	}
	so := filepath.Join(dir, "libinject.so")
	out, err := exec.Command(gcc, "-shared", "-fPIC", "-O1", "-o", so, "testdata/inject.c").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("gcc: %v\n%s", err, out)
	}
	return so, nil
})

// attachFake attaches the stand-in library and returns a func that
// returns its log since the last call.
func attachFake(t *testing.T) func() string {
	t.Helper()
	so, err := fake()
	if err != nil {
		t.Skip(err)
	}
	reattach(so)
	t.Cleanup(func() { reattach("") })
	h, err := purego.Dlopen(so, purego.RTLD_LAZY|purego.RTLD_LOCAL)
	if err != nil {
		t.Fatal(err)
	}
	logFn, _ := purego.Dlsym(h, "fake_log")
	reset, _ := purego.Dlsym(h, "fake_reset")
	ffi.Call(reset)
	return func() string {
		r, _ := ffi.Call(logFn)
		s := ffi.GoString(r, 1<<16)
		ffi.Call(reset)
		return s
	}
}

func TestNoProfiler(t *testing.T) {
	reattach("")
	if got := Push("x"); got != -1 {
		t.Errorf("Push with no profiler = %d, want -1", got)
	}
	if got := Pop(); got != -1 {
		t.Errorf("Pop with no profiler = %d, want -1", got)
	}
	Mark("x")
	End(Start("x"))
	d := NewDomain("d")
	d.Push(Attributes{Message: "x"})
	d.Pop()
	d.Close()
	defer Range("x")()
	if err := Status(); err != errNoProfiler {
		t.Errorf("Status() = %v, want %v", err, errNoProfiler)
	}
}

func TestCallsReachTheProfiler(t *testing.T) {
	log := attachFake(t)
	if err := Status(); err != nil {
		t.Fatalf("Status() = %v", err)
	}
	if got := log(); got != "init version 3\n" {
		t.Fatalf("attach logged %q", got)
	}
	if l := Push("outer"); l != 0 {
		t.Errorf("Push = %d, want level 0", l)
	}
	if l := PushEx(Attributes{Message: "inner", Color: 0xff00ff00, Category: 7, Payload: int64(-5)}); l != 1 {
		t.Errorf("PushEx = %d, want level 1", l)
	}
	Pop()
	Pop()
	Mark("here")
	MarkEx(Attributes{Message: "there", Payload: 2.5})
	id := Start("async")
	End(id)
	id = StartEx(Attributes{Message: "async2", Payload: uint32(9)})
	End(id)
	NameCategory(7, "io")
	NameOSThread(42, "worker")
	d := NewDomain("svc")
	d.Push(Attributes{Message: "decode", Payload: float32(1.5)})
	d.Pop()
	d.Mark(Attributes{Message: "tick", Payload: int32(-1)})
	d.End(d.Start(Attributes{Message: "span", Payload: uint64(1) << 40}))
	d.NameCategory(3, "net")
	d.Close()
	d.Push(Attributes{Message: "after close"}) // records nothing
	tid := syscall.Gettid()
	want := strings.Join([]string{
		fmt.Sprintf("push outer tid %d", tid),
		"pushex v3 size48 cat7 color1:ff00ff00 payload i64:-5 msg1:inner",
		fmt.Sprintf("pop tid %d", tid),
		fmt.Sprintf("pop tid %d", tid),
		"mark here",
		"markex v3 size48 cat0 color0:00000000 payload f64:2.5 msg1:there",
		"start async",
		"end 1",
		"startex v3 size48 cat0 color0:00000000 payload u32:9 msg1:async2",
		"end 2",
		"category 7 io",
		"thread 42 worker",
		"domain svc",
		"in svc",
		"dpush v3 size48 cat0 color0:00000000 payload f32:1.5 msg1:decode",
		"dpop svc",
		"in svc",
		"dmark v3 size48 cat0 color0:00000000 payload i32:-1 msg1:tick",
		"in svc",
		"dstart v3 size48 cat0 color0:00000000 payload u64:1099511627776 msg1:span",
		"dend svc 3",
		"dcategory svc 3 net",
		"destroy svc",
		"",
	}, "\n")
	// the test's own goroutine may move between the two Gettid calls:
	// compare the calls, then the thread ids by the next test
	if got := log(); got != want {
		t.Errorf("the profiler saw:\n%s\nwant:\n%s", got, want)
	}
}

// A Push and its Pop reach the same OS thread's stack, however the
// goroutine is scheduled between them: Push locks it to its thread.
func TestPushPopSameThread(t *testing.T) {
	log := attachFake(t)
	log()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				Push("r")
				for j := 0; j < 20; j++ {
					runtime.Gosched()
				}
				runtime.GC()
				Pop()
			}
		}()
	}
	wg.Wait()
	// the log interleaves the goroutines' calls; per thread, each push is
	// followed by its pop before that thread pushes again
	open := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(log()), "\n") {
		f := strings.Fields(l)
		tid := f[len(f)-1]
		switch f[0] {
		case "push":
			if open[tid] {
				t.Fatalf("thread %s pushed twice without a pop", tid)
			}
			open[tid] = true
		case "pop":
			if !open[tid] {
				t.Fatalf("thread %s popped a range it did not push", tid)
			}
			open[tid] = false
		}
	}
}

func TestRefusingProfiler(t *testing.T) {
	t.Setenv("FAKE_NVTX_REFUSE", "1")
	log := attachFake(t)
	if got := Push("x"); got != -1 {
		t.Errorf("Push after a refused attach = %d, want -1", got)
	}
	err := Status()
	if err == nil || !strings.Contains(err.Error(), "InitializeInjectionNvtx2 returned 0") {
		t.Errorf("Status() = %v, want the refusal", err)
	}
	if got := log(); got != "" {
		t.Errorf("a refused profiler was called: %q", got)
	}
}

func TestBadInjectionPath(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	notLib := filepath.Join(dir, "notlib.so")
	os.WriteFile(notLib, []byte("not an ELF file"), 0o600)
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.so"), "no such file"},
		{fifo, "not a regular file"},
		{dir, "not a regular file"},
		{notLib, "loading the injection library"},
		{"/lib/x86_64-linux-gnu/libc.so.6", "no InitializeInjectionNvtx2"},
	} {
		if _, err := os.Stat(c.path); err != nil && c.want != "no such file" {
			continue // libc elsewhere on arm64
		}
		reattach(c.path)
		Mark("x")
		if err := Status(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NVTX_INJECTION64_PATH=%s: Status() = %v, want %q", c.path, err, c.want)
		}
	}
	reattach("")
}

// The offsets nvtx.go writes nvtxEventAttributes_t with are gcc's, for
// NVIDIA's own header (CUDA 12.4's nvtx3).
func TestAttributesLayout(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed: cannot compare layouts with a C compiler")
	}
	inc := testset.Dir(t, "12.4")
	src := filepath.Join(t.TempDir(), "layout.c")
	os.WriteFile(src, []byte(`#include <stdio.h>
#include <stddef.h>
#include <nvtx3/nvToolsExt.h>
int main(void) {
	printf("%d %zu %zu %zu %zu %zu %zu %zu %zu %zu %d %d %d %d %d %d %d %d %d\n",
		NVTX_VERSION, sizeof(nvtxEventAttributes_t), offsetof(nvtxEventAttributes_t, category),
		offsetof(nvtxEventAttributes_t, colorType), offsetof(nvtxEventAttributes_t, color),
		offsetof(nvtxEventAttributes_t, payloadType), offsetof(nvtxEventAttributes_t, payload),
		offsetof(nvtxEventAttributes_t, messageType), offsetof(nvtxEventAttributes_t, message),
		sizeof(NvtxExportTableVersionInfo),
		NVTX_COLOR_ARGB, NVTX_MESSAGE_TYPE_ASCII, NVTX_PAYLOAD_TYPE_UNSIGNED_INT64,
		NVTX_PAYLOAD_TYPE_INT64, NVTX_PAYLOAD_TYPE_DOUBLE, NVTX_PAYLOAD_TYPE_UNSIGNED_INT32,
		NVTX_PAYLOAD_TYPE_INT32, NVTX_PAYLOAD_TYPE_FLOAT, NVTX_CBID_CORE_SIZE + NVTX_CBID_CORE2_SIZE);
	return 0;
}
`), 0o600)
	bin := filepath.Join(t.TempDir(), "layout")
	if out, err := exec.Command(gcc, "-I", inc, "-o", bin, src, "-ldl").CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintln(attrVersion, attrSize, offCategory, offColorType, offColor, offPayloadType, offPayload,
		offMessageType, offMessage, 24, colorARGB, messageASCII, payloadUint64, payloadInt64, payloadDouble,
		payloadUint32, payloadInt32, payloadFloat, moduleSizes[1]+moduleSizes[5])
	if string(out) != want {
		t.Errorf("gcc with NVIDIA's header: %s   nvtx.go: %s", out, want)
	}
}

// With no profiler attached, a range costs an atomic load per call.
func BenchmarkRangeNoProfiler(b *testing.B) {
	reattach("")
	b.ReportAllocs()
	for b.Loop() {
		Push("step")
		Pop()
	}
}

// With a profiler attached, a range costs two C calls through ffi.Call.
func BenchmarkRangeFakeProfiler(b *testing.B) {
	so, err := fake()
	if err != nil {
		b.Skip(err)
	}
	reattach(so)
	defer reattach("")
	b.ReportAllocs()
	for b.Loop() {
		Push("step")
		Pop()
	}
}
