//go:build (linux && (amd64 || arm64)) || (windows && amd64)

package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// wslDir is where WSL 2 maps the Windows NVIDIA driver's Linux libraries
// into a distribution (and Docker Desktop into a container run with
// --gpus): libcuda.so.1 is the CUDA driver there, riding on DirectX's
// libdxcore.so beside it, not on /dev/nvidia*.
const wslDir = "/usr/lib/wsl/lib"

// detectWSL says how the system under root shows that it is Windows
// Subsystem for Linux, or "" when it is not: WSL_DISTRO_NAME (WSL sets
// it in a distribution's processes), /proc/version naming Microsoft's
// kernel ("microsoft-standard-WSL2"; a container on WSL shares it), or
// /usr/lib/wsl.
func detectWSL(root string) string {
	if runtime.GOOS != "linux" {
		return ""
	}
	if v := os.Getenv("WSL_DISTRO_NAME"); v != "" {
		return "WSL_DISTRO_NAME=" + quote(v)
	}
	if b, err := os.ReadFile(filepath.Join(root, "/proc/version")); err == nil && strings.Contains(strings.ToLower(string(b)), "microsoft") {
		v := strings.TrimSpace(string(b))
		if len(v) > 80 {
			v = v[:80] + "..."
		}
		return "/proc/version: " + quote(v)
	}
	if isDir(filepath.Join(root, "/usr/lib/wsl")) {
		return "/usr/lib/wsl exists"
	}
	return ""
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// wslDriver is what doctor says about the driver on WSL, printed as the
// driver's lines: how WSL was detected, then, unless envVar chooses the
// driver's file, the problem with where the driver came from: loaded is
// the path it loaded from ("" when it did not load). It returns the
// problem's text, "" for none.
func (r *run) wslDriver(label, envVar, loaded string) string {
	how := detectWSL(r.root)
	if how == "" {
		return ""
	}
	wslLib := filepath.Join(r.root, wslDir, "libcuda.so.1")
	r.printf("%s: WSL (%s): the driver is Windows' %s", label, how, wslLib)
	if envVar != "" && os.Getenv(envVar) != "" {
		return ""
	}
	_, err := os.Stat(wslLib)
	missing := err != nil
	fromWindows := "install or update the NVIDIA driver on Windows (not a Linux driver in the distribution), then restart WSL (wsl --shutdown); WSL 1 has no GPU (wsl --set-version DISTRO 2); in a container, run it with --gpus all"
	switch {
	case loaded == "" && missing:
		return fmt.Sprintf("no CUDA driver: on WSL it is Windows' %s, which is missing: %s", wslLib, fromWindows)
	case loaded == "" || within(loaded, filepath.Join(r.root, "/usr/lib/wsl")):
		return ""
	case missing:
		return fmt.Sprintf("%s loaded, which is not WSL's driver, and Windows' %s is missing: a Linux NVIDIA driver cannot reach the GPU under WSL (there is no /dev/nvidia*): remove the Linux driver package from the distribution, and %s",
			quote(loaded), wslLib, fromWindows)
	}
	return fmt.Sprintf("%s loaded, not Windows' %s: a Linux NVIDIA driver that shadows WSL's cannot reach the GPU (there is no /dev/nvidia* under WSL): remove the Linux driver package from the distribution (NVIDIA: install no Linux display driver in WSL), or set %s=%s",
		quote(loaded), wslLib, envVar, wslLib)
}

// within reports whether file lies under dir, links followed: WSL's
// libraries in /usr/lib/wsl/lib, or the driver store they lead to,
// /usr/lib/wsl/drivers.
func within(file, dir string) bool {
	f, err := filepath.EvalSymlinks(file)
	if err != nil {
		f = file
	}
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		d = dir
	}
	return strings.HasPrefix(f, d+string(filepath.Separator))
}
