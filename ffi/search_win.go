//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package ffi

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// The search on Windows. A description names its library by its Linux
// sonames (Files, Wheels); windowsFiles and windowsWheels derive the names
// NVIDIA gives the same library on Windows, so that generated packages
// carry one description for both systems. The code is built on Linux too:
// its tests run there with a fake environment (searchEnv.goos).

// windowsFiles returns the Windows DLL names of a library known on Linux
// by sonames: libcuda.so.1 is nvcuda.dll (in System32, put there by the
// driver), libnvrtc.so.12 nvrtc64_120_0.dll, libnvJitLink.so.13
// nvJitLink_130_0.dll, libnvidia-ml.so.1 nvml.dll, and the rest follow
// libNAME.so.MAJOR -> NAME64_MAJOR.dll (cudart64_12.dll, cublasLt64_13.dll,
// cufft64_11.dll). A soname without a major (libcuda.so) adds nothing, and
// NCCL, which NVIDIA does not ship for Windows, has none.
func windowsFiles(files []string) []string {
	var out []string
	for _, f := range files {
		name, major, ok := strings.Cut(strings.TrimPrefix(f, "lib"), ".so.")
		if !ok || major == "" {
			continue
		}
		var dll string
		switch name {
		case "cuda":
			dll = "nvcuda.dll"
		case "nvidia-ml":
			dll = "nvml.dll"
		case "nccl":
			continue
		case "nvrtc":
			dll = "nvrtc64_" + major + "0_0.dll"
		case "nvJitLink":
			dll = "nvJitLink_" + major + "0_0.dll"
		default:
			dll = name + "64_" + strings.ReplaceAll(major, ".", "") + ".dll"
		}
		if !slices.Contains(out, dll) {
			out = append(out, dll)
		}
	}
	return out
}

// windowsWheels returns where NVIDIA's pip wheels put a library's DLLs,
// given where they put its Linux files: the CUDA 12 wheels' bin beside lib
// (nvidia/cuda_runtime/bin), the CUDA 13 wheels' shared nvidia/cu13/bin/x86_64.
func windowsWheels(wheels []string) []string {
	var out []string
	for _, w := range wheels {
		dir, ok := strings.CutSuffix(w, "/lib")
		if !ok {
			continue
		}
		if dir == "nvidia/cu13" {
			out = append(out, dir+"/bin/x86_64")
		}
		out = append(out, dir+"/bin")
	}
	return out
}

// findWindows lists the places a library is looked for on Windows, in
// order: the override variable (done by find); the DLL names for the
// loader's standard search (the executable's directory, System32, the
// Windows directory, PATH); CUDA_PATH and CUDA_HOME's bin and bin\x64
// (CUDA 13 moved the DLLs there); the description's directories; the
// wheels in the active virtualenv's and conda's Lib\site-packages; conda's
// Library\bin; the toolkit's default installations under Program Files,
// newest first; and for the driver, System32 by its full path.
func (e searchEnv) findWindows(d *LibraryDesc, s *search) {
	files := windowsFiles(d.Files)
	if len(files) == 0 {
		s.none = "NVIDIA ships no Windows build"
		return
	}
	for _, f := range files {
		s.addPath(f)
	}
	for _, v := range []string{"CUDA_PATH", "CUDA_HOME"} {
		if root := e.getenv(v); root != "" {
			s.addDir(filepath.Join(root, "bin", "x64"), files)
			s.addDir(filepath.Join(root, "bin"), files)
		}
	}
	for _, dir := range d.Dirs {
		s.addDir(dir, files)
	}
	if wheels := windowsWheels(d.Wheels); len(wheels) > 0 {
		for _, v := range []string{"VIRTUAL_ENV", "CONDA_PREFIX"} {
			if p := e.getenv(v); p != "" {
				site := filepath.Join(p, "Lib", "site-packages")
				for _, w := range wheels {
					s.addDir(filepath.Join(site, filepath.FromSlash(w)), files)
				}
			}
		}
	}
	if p := e.getenv("CONDA_PREFIX"); p != "" {
		s.addDir(filepath.Join(p, "Library", "bin"), files)
	}
	if pf := e.getenv("ProgramFiles"); pf != "" {
		toolkits := filepath.Join(pf, "NVIDIA GPU Computing Toolkit", "CUDA")
		versions := newestFirst(toolkits, "v")
		if len(versions) == 0 {
			s.absent = append(s.absent, filepath.Join(toolkits, "v*"))
		}
		for _, v := range versions {
			s.addDir(filepath.Join(v, "bin", "x64"), files)
			s.addDir(filepath.Join(v, "bin"), files)
		}
	}
	if d.WSL {
		if root := e.getenv("SystemRoot"); root != "" {
			s.addDir(filepath.Join(root, "System32"), files)
		}
	}
}

// HostFiles returns the file names a library described by its Linux
// sonames has on the running system: files itself on Linux, NVIDIA's DLL
// names on Windows (none for a library NVIDIA does not ship for Windows,
// such as NCCL). cugen doctor names them in its advice.
func HostFiles(files []string) []string {
	if runtime.GOOS == "windows" {
		return windowsFiles(files)
	}
	return files
}

// HostWheels returns where NVIDIA's pip wheels put a library on the running
// system, given a description's Wheels (their Linux lib directories).
func HostWheels(wheels []string) []string {
	if runtime.GOOS == "windows" {
		return windowsWheels(wheels)
	}
	return wheels
}
