// Command gpustat prints, for every GPU, what nvidia-smi --query-gpu prints
// for the same fields, read through NVML (package nvml, no cgo): name,
// UUID, PCI bus id, memory, temperature, power, clocks and utilization.
// With -csv it prints the fields as
//
//	nvidia-smi --query-gpu=index,name,uuid,pci.bus_id,memory.total,memory.used,temperature.gpu,power.draw,clocks.sm,clocks.mem,utilization.gpu --format=csv,noheader,nounits
//
// does, so the two outputs can be compared line by line.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"

	"github.com/cugen/cugen/cuda/sys/nvml"
	"github.com/cugen/cugen/examples/internal/sample"
)

func main() {
	csv := flag.Bool("csv", false, "print nvidia-smi's CSV (noheader, nounits)")
	flag.Parse()
	if err := nvml.Init(); err != nil {
		log.Fatal(err)
	}
	defer nvml.Shutdown()
	driver, err := nvml.SystemGetDriverVersion()
	sample.Check(err)
	n, err := nvml.DeviceGetCount()
	sample.Check(err)
	if !*csv {
		fmt.Printf("driver %s, %d GPU(s)\n", driver, n)
	}
	for i := uint32(0); i < n; i++ {
		d, err := nvml.DeviceGetHandleByIndex(i)
		sample.Check(err)
		name, err := nvml.DeviceGetName(d)
		sample.Check(err)
		uuid, err := nvml.DeviceGetUUID(d)
		sample.Check(err)
		pci, err := nvml.DeviceGetPciInfo(d)
		sample.Check(err)
		mem, err := nvml.DeviceGetMemoryInfo(d)
		sample.Check(err)
		temp, err := sample.Temperature(d)
		sample.Check(err)
		power, err := nvml.DeviceGetPowerUsage(d) // milliwatts
		sample.Check(err)
		sm, err := nvml.DeviceGetClockInfo(d, nvml.ClockSm)
		sample.Check(err)
		memClock, err := nvml.DeviceGetClockInfo(d, nvml.ClockMem)
		sample.Check(err)
		util, err := nvml.DeviceGetUtilizationRates(d)
		sample.Check(err)
		busID := string(bytes.TrimRight(pci.BusId[:], "\x00"))
		const mib = 1 << 20
		if *csv {
			fmt.Printf("%d, %s, %s, %s, %d, %d, %d, %.2f, %d, %d, %d\n",
				i, name, uuid, busID, mem.Total/mib, mem.Used/mib, temp, float64(power)/1000, sm, memClock, util.Gpu)
			continue
		}
		fmt.Printf("GPU %d: %s  %s  %s\n", i, name, uuid, busID)
		fmt.Printf("  memory %d / %d MiB, %d °C, %.2f W, SM %d MHz, memory %d MHz, utilization %d%%\n",
			mem.Used/mib, mem.Total/mib, temp, float64(power)/1000, sm, memClock, util.Gpu)
	}
}
