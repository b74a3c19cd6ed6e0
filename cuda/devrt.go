package cuda

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// FindDeviceRuntime returns the path of the CUDA device runtime library,
// libcudadevrt.a, of the toolkit at CUDA_HOME, CUDA_PATH or
// /usr/local/cuda (in lib64, lib, or targets/*/lib), or an error naming
// the places it looked.
func FindDeviceRuntime() (string, error) {
	var tried []string
	for _, d := range []string{os.Getenv("CUDA_HOME"), os.Getenv("CUDA_PATH"), "/usr/local/cuda"} {
		if d == "" {
			continue
		}
		cands := []string{filepath.Join(d, "lib64", "libcudadevrt.a"), filepath.Join(d, "lib", "libcudadevrt.a")}
		if m, _ := filepath.Glob(filepath.Join(d, "targets", "*", "lib", "libcudadevrt.a")); len(m) > 0 {
			cands = append(cands, m...)
		}
		for _, p := range cands {
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p, nil
			}
		}
		tried = append(tried, d)
	}
	return "", fmt.Errorf("cuda: no libcudadevrt.a in the CUDA toolkit (looked in %s; set CUDA_HOME)", strings.Join(tried, ", "))
}

// ModuleWithDeviceRuntime compiles src with NVRTC as relocatable device
// code (-rdc=true), links it with the device runtime library devrt
// ([FindDeviceRuntime]) through the driver's linker (cuLinkCreate,
// cuLinkAddData, cuLinkAddFile, cuLinkComplete), and loads the result: for
// code that calls the device runtime, such as cudaGraphSetConditional
// (declared in cuda_device_runtime_api.h: give the toolkit's include
// directory in src.Options). An empty src.Arch means PTX for the context's
// device.
func (c *Context) ModuleWithDeviceRuntime(src Source, devrt string) (*Module, error) {
	if devrt == "" {
		return nil, errors.New("cuda: ModuleWithDeviceRuntime: no device runtime library (FindDeviceRuntime finds it)")
	}
	if src.Arch == "" {
		major, minor, err := c.Device().ComputeCapability()
		if err != nil {
			return nil, err
		}
		a, err := ArchFor(major, minor)
		if err != nil {
			return nil, err
		}
		src.Arch = "compute_" + strings.TrimPrefix(strings.TrimPrefix(a, "sm_"), "compute_")
	}
	src.Options = append(append([]string(nil), src.Options...), "-rdc=true")
	out, err := Compile(src)
	if err != nil {
		return nil, err
	}
	typ := cu.JitInputPtx
	if out.Kind == ImageCubin {
		typ = cu.JitInputCubin
	}
	var img []byte
	err = c.do(func(s *ctxState) error {
		d := s.drv
		st, err := d.linkCreate(nil, nil)
		if err != nil {
			return err
		}
		defer d.linkDestroy(st)
		data := out.Image
		if typ == cu.JitInputPtx {
			data = append(data[:len(data):len(data)], 0) // a C string
		}
		name := src.Name
		if name == "" {
			name = "kernel.cu"
		}
		if err := d.linkAddData(st, typ, data, name, false); err != nil {
			return fmt.Errorf("cuda: linking: %w", err)
		}
		if err := d.linkAddFile(st, cu.JitInputLibrary, devrt); err != nil {
			return fmt.Errorf("cuda: linking %s: %w", devrt, err)
		}
		if img, err = d.linkComplete(st); err != nil {
			return fmt.Errorf("cuda: linking: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	m, err := c.LoadModule(img)
	if err != nil {
		return nil, err
	}
	m.lowered = out.LoweredNames
	return m, nil
}
