package e2e13

import (
	"bytes"
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/cugen/cugen/cugentest"
	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda13/nvml"
)

// TestNVMLInitWithoutDriver: where libnvidia-ml.so.1 loads but no NVIDIA
// kernel driver runs (CI, with Debian's libnvidia-ml1), nvmlInit fails with
// NVML's own typed error and text; on a GPU machine it succeeds and the
// test says so.
func TestNVMLInitWithoutDriver(t *testing.T) {
	cugentest.NeedLibrary(t, nvml.SharedLibrary().Load())
	err := nvml.Init()
	if err == nil {
		nvml.Shutdown()
		cugentest.SkipHasGPU(t, "nvmlInit succeeded (TestNVMLMatchesNvidiaSmi checks the devices)")
	}
	var ce *ffi.CallError
	var code nvml.Return
	if !errors.As(err, &ce) || !errors.As(err, &code) || ce.Func != "nvmlInit" {
		t.Fatalf("nvml.Init() = %v (%T), want an *ffi.CallError of nvmlInit unwrapping to an nvml.Return", err, err)
	}
	if !errors.Is(err, nvml.ErrorDriverNotLoaded) && !errors.Is(err, nvml.ErrorLibraryNotFound) && !errors.Is(err, nvml.ErrorNoPermission) {
		t.Errorf("nvml.Init() = %v, want NVML_ERROR_DRIVER_NOT_LOADED (or LIBRARY_NOT_FOUND, NO_PERMISSION) without a driver", err)
	}
	if msg := code.Message(); msg == "" || msg == "unknown error" {
		t.Errorf("NVML's text for %v is %q", code, msg)
	}
	t.Logf("%v", err)
}

// TestNVMLMatchesNvidiaSmi reads every GPU through NVML and compares it
// field by field with nvidia-smi --query-gpu on the same machine: name,
// UUID, PCI bus id and total memory exactly; temperature, power, clocks
// and utilization, which move between the two reads, within bounds.
func TestNVMLMatchesNvidiaSmi(t *testing.T) {
	smi, err := exec.LookPath("nvidia-smi")
	if err != nil {
		cugentest.SkipNoGPU(t, "no nvidia-smi: not a GPU machine")
	}
	if err := nvml.Init(); err != nil {
		t.Fatalf("nvml.Init: %v", err)
	}
	defer nvml.Shutdown()
	out, err := exec.Command(smi, "--query-gpu=index,name,uuid,pci.bus_id,memory.total,temperature.gpu,power.draw,clocks.sm,clocks.mem,utilization.gpu", "--format=csv,noheader,nounits").Output()
	if err != nil {
		t.Fatalf("nvidia-smi: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	n, err := nvml.DeviceGetCount()
	if err != nil || int(n) != len(lines) {
		t.Fatalf("nvml.DeviceGetCount() = %d, %v; nvidia-smi lists %d", n, err, len(lines))
	}
	num := func(s string) float64 { v, _ := strconv.ParseFloat(strings.TrimSpace(s), 64); return v }
	for i, line := range lines {
		f := strings.Split(line, ",")
		d, err := nvml.DeviceGetHandleByIndex(uint32(i))
		if err != nil {
			t.Fatal(err)
		}
		name, _ := nvml.DeviceGetName(d)
		uuid, _ := nvml.DeviceGetUUID(d)
		pci, _ := nvml.DeviceGetPciInfo(d)
		mem, _ := nvml.DeviceGetMemoryInfo(d)
		var temp uint32
		nvml.DeviceGetTemperature(d, nvml.TemperatureGpu, &temp)
		power, _ := nvml.DeviceGetPowerUsage(d)
		sm, _ := nvml.DeviceGetClockInfo(d, nvml.ClockSm)
		memClock, _ := nvml.DeviceGetClockInfo(d, nvml.ClockMem)
		util, _ := nvml.DeviceGetUtilizationRates(d)
		busID := string(bytes.TrimRight(pci.BusId[:], "\x00"))
		exact := []struct{ what, nvml, smi string }{
			{"name", name, strings.TrimSpace(f[1])},
			{"uuid", uuid, strings.TrimSpace(f[2])},
			{"pci.bus_id", busID, strings.TrimSpace(f[3])},
			{"memory.total MiB", strconv.FormatUint(mem.Total>>20, 10), strings.TrimSpace(f[4])},
		}
		for _, c := range exact {
			if c.nvml != c.smi {
				t.Errorf("GPU %d %s: NVML %q, nvidia-smi %q", i, c.what, c.nvml, c.smi)
			}
		}
		near := []struct {
			what      string
			nvml, smi float64
			tol       float64
		}{
			{"temperature.gpu °C", float64(temp), num(f[5]), 5},
			{"power.draw W", float64(power) / 1000, num(f[6]), 50},
			{"clocks.sm MHz", float64(sm), num(f[7]), 1000},
			{"clocks.mem MHz", float64(memClock), num(f[8]), 1000},
			{"utilization.gpu %", float64(util.Gpu), num(f[9]), 100},
		}
		for _, c := range near {
			if c.nvml-c.smi > c.tol || c.smi-c.nvml > c.tol {
				t.Errorf("GPU %d %s: NVML %v, nvidia-smi %v", i, c.what, c.nvml, c.smi)
			}
		}
		t.Logf("GPU %d NVML:       %s, %s, %s, %d MiB, %d C, %.2f W, SM %d MHz, mem %d MHz, %d%%", i, name, uuid, busID, mem.Total>>20, temp, float64(power)/1000, sm, memClock, util.Gpu)
		t.Logf("GPU %d nvidia-smi: %s", i, line)
	}
}
