package main

import (
	"fmt"
	"os"
	"runtime"

	"example.com/downstream/cuda/cu"
	"example.com/downstream/cuda/cudart"
)

func main() {
	runtime.LockOSThread()
	v, err := cu.DriverGetVersion()
	if !cu.Check(err) {
		os.Exit(1)
	}
	fmt.Printf("CUDA driver API %d.%d, bindings generated from CUDA %d.%d headers\n",
		v/1000, v%1000/10, cudart.HeaderVersion/1000, cudart.HeaderVersion%1000/10)
	n, err := cudart.GetDeviceCount()
	if !cudart.Check(err) {
		os.Exit(1)
	}
	fmt.Printf("%d CUDA device(s)\n", n)
}
