// Package kernels is cugen kernels: a CUDA C++ source's kernels compiled
// with NVRTC at generate time (no GPU) into cubins and PTX, embedded in a
// Go package with a typed function per kernel.
package kernels

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cugen/cugen/emit"
	"github.com/cugen/cugen/internal/bounded"
	"github.com/cugen/cugen/internal/panics"
	"github.com/cugen/cugen/parser"
	"github.com/cugen/cugen/parser/ir"
)

// Options are cugen kernels' flags.
type Options struct {
	Src       string   // the .cu file
	Archs     []int    // real architectures (80 for sm_80); PTX is made for the newest
	Includes  []string // -I directories
	Instances []string // template instantiations, saxpy<float>
	Package   string   // the Go package name (default: the output directory's name)
	CudaPath  string   // the import path of package cuda
	Command   string   // the command line recorded in the files
	Out       string   // the package directory
	// Pinned are include directories whose files headers.lock pins,
	// searched after Includes: every header read from one must be pinned
	// there with the sha256 of its bytes, or Generate fails naming it.
	Pinned []PinnedDir
	// Log gets notes: a template kernel no -name instantiates (nil:
	// discarded).
	Log io.Writer
}

// A PinnedDir is an include directory whose files an entry of
// headers.lock pins (CCCL's headers, fetched into the cache).
type PinnedDir struct {
	Dir   string            // the directory
	Entry string            // the entry, as errors name it: "headers libcub-dev"
	Files map[string]string // slash-separated path relative to Dir -> sha256 (hex)
}

// dirs are the include directories in search order.
func (o *Options) dirs() []string {
	d := slices.Clone(o.Includes)
	for _, p := range o.Pinned {
		d = append(d, p.Dir)
	}
	return d
}

// ReadHeaders returns the headers the source reaches, as Generate resolves
// them (for cugen kernels -pin, which pins those of Pinned directories).
func ReadHeaders(o Options) ([]Header, error) {
	src, err := bounded.ReadFile(o.Src, bounded.Options{Limit: maxSource, What: "a CUDA source"})
	if err != nil {
		return nil, fmt.Errorf("cugen kernels: %w", err)
	}
	h, err := resolveIncludes(src, o.Src, o.dirs())
	if err != nil {
		return nil, fmt.Errorf("cugen kernels: %w", err)
	}
	return h, nil
}

// InDir returns path relative to dir, slash-separated, if it is inside it.
func InDir(dir, path string) (string, bool) {
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(path))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// checkPinned holds each header read from a pinned directory to its pin:
// the sha256 of the bytes NVRTC is handed.
func checkPinned(headers []Header, pinned []PinnedDir) error {
	var bad []string
	for _, h := range headers {
		if h.Path == "" {
			continue
		}
		for _, p := range pinned {
			rel, ok := InDir(p.Dir, h.Path)
			if !ok {
				continue
			}
			sum := sha256.Sum256([]byte(h.Text))
			switch want, ok := p.Files[rel]; {
			case !ok:
				bad = append(bad, fmt.Sprintf("%s (<%s>) is not pinned in %s", rel, h.Name, p.Entry))
			case want != hex.EncodeToString(sum[:]):
				bad = append(bad, fmt.Sprintf("%s differs from its sha256 in %s", rel, p.Entry))
			}
			break
		}
	}
	if len(bad) > 8 {
		bad = append(bad[:8], fmt.Sprintf("and %d more", len(bad)-8))
	}
	if len(bad) > 0 {
		return fmt.Errorf("cugen kernels: headers.lock does not pin what the source reads: %s (cugen kernels -pin rewrites the entries)", strings.Join(bad, "; "))
	}
	return nil
}

// maxSource bounds the source file read.
const maxSource = 16 << 20

// Generate compiles and renders the package: file name -> content.
func Generate(o Options) (map[string][]byte, error) {
	if len(o.Archs) == 0 {
		return nil, fmt.Errorf("cugen kernels: no -arch")
	}
	pkg := o.Package
	if pkg == "" {
		pkg = filepath.Base(filepath.Clean(o.Out))
	}
	if !ir.IsIdent(pkg) || pkg == "_" || token.IsKeyword(pkg) {
		return nil, fmt.Errorf("cugen kernels: %q is not a Go package name: name it with -pkg", pkg)
	}
	src, err := bounded.ReadFile(o.Src, bounded.Options{Limit: maxSource, What: "a CUDA source"})
	if err != nil {
		return nil, fmt.Errorf("cugen kernels: %w", err)
	}
	base := filepath.Base(o.Src)
	if o.Log != nil {
		noteTemplates(o.Log, src, base, o.Instances)
	}
	ks, err := parser.Kernels(src, base, o.Instances)
	if err != nil {
		return nil, fmt.Errorf("cugen kernels: %w", err)
	}
	headers, err := resolveIncludes(src, o.Src, o.dirs())
	if err != nil {
		return nil, fmt.Errorf("cugen kernels: %w", err)
	}
	if err := checkPinned(headers, o.Pinned); err != nil {
		return nil, err
	}
	n, err := OpenNVRTC()
	if err != nil {
		return nil, err
	}
	supported, err := n.Archs()
	if err != nil {
		return nil, fmt.Errorf("cugen kernels: %w", err)
	}
	archs := slices.Clone(o.Archs)
	slices.Sort(archs)
	archs = slices.Compact(archs)
	for _, a := range archs {
		if !slices.Contains(supported, a) {
			return nil, fmt.Errorf("cugen kernels: NVRTC %d.%d does not compile for sm_%d (it does for %s)", n.Version[0], n.Version[1], a, archList(supported))
		}
	}
	var exprs []string
	for _, k := range ks {
		if k.Expr != k.Name {
			exprs = append(exprs, k.Expr)
		}
	}
	// no -I and no source directory: NVRTC reads the headers cugen
	// resolved (includes.go), and searches nothing of the user's
	opts := func(arch string) []string {
		return []string{"-arch=" + arch, "--no-source-include"}
	}
	lowered := func(out *Output) map[string]string {
		m := map[string]string{}
		for _, k := range ks {
			if k.Expr == k.Name {
				m[k.Expr] = k.Name
			} else {
				m[k.Expr] = out.Lowered[k.Expr]
			}
		}
		return m
	}
	// One compile an image: a cubin for each arch, newest first (Load's
	// order), then PTX for the newest. They are independent NVRTC
	// programs, compiled at once, as many as there are cores (CUB's took
	// minutes each, one after another); the images keep that order
	// whatever finishes first.
	type job struct {
		arch int
		ptx  bool
		out  *Output
		err  error
	}
	jobs := make([]job, 0, len(archs)+1)
	for i := len(archs) - 1; i >= 0; i-- {
		jobs = append(jobs, job{arch: archs[i]})
	}
	jobs = append(jobs, job{arch: archs[len(archs)-1], ptx: true})
	var wg sync.WaitGroup
	raised := make([]*panics.Panic, len(jobs))
	cores := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := range jobs {
		wg.Add(1)
		cores <- struct{}{}
		go func() {
			defer func() { <-cores; wg.Done() }()
			j := &jobs[i]
			arch := fmt.Sprintf("sm_%d", j.arch)
			if j.ptx {
				arch = fmt.Sprintf("compute_%d", j.arch)
			}
			raised[i] = panics.Catch("cugen kernels' compile for "+arch, func() {
				j.out, j.err = n.Compile(string(src), base, headers, opts(arch), exprs)
			})
		}()
	}
	wg.Wait()
	for _, p := range raised {
		if p != nil {
			panic(p)
		}
	}
	var images []emit.KernelImage
	for _, j := range jobs {
		if j.err != nil {
			return nil, fmt.Errorf("cugen kernels: %w", j.err)
		}
		low := lowered(j.out)
		if !j.ptx {
			if err := checkParams(ks, low, j.out.Image, j.arch, base); err != nil {
				return nil, err
			}
		}
		images = append(images, emit.KernelImage{Arch: j.arch, PTX: j.ptx, Lowered: low, Bytes: j.out.Image})
	}

	if o.CudaPath == "" {
		o.CudaPath = DefaultCudaPath
	}
	files, err := emit.Kernels(&emit.KernelsPackage{
		Package:  pkg,
		Source:   base,
		Compiler: fmt.Sprintf("NVRTC %d.%d", n.Version[0], n.Version[1]),
		Command:  o.Command,
		CudaPath: o.CudaPath,
		Kernels:  ks,
		Images:   images,
	})
	if err != nil {
		return nil, fmt.Errorf("cugen kernels: %w", err)
	}
	return files, nil
}

// checkParams holds each kernel's parameters, as the C front end laid
// them out, to what NVRTC compiled into the cubin for arch: the count,
// and each one's offset and size.
func checkParams(ks []*ir.Kernel, lowered map[string]string, cubin []byte, arch int, file string) error {
	info, err := KernelParams(cubin)
	if err != nil {
		return fmt.Errorf("cugen kernels: sm_%d: %w", arch, err)
	}
	for _, k := range ks {
		got, ok := info[lowered[k.Expr]]
		if !ok {
			return fmt.Errorf("cugen kernels: %s:%d: kernel %s: not in the sm_%d cubin (as %s)", file, k.Line, k.Expr, arch, lowered[k.Expr])
		}
		if len(got) != len(k.Params) {
			return fmt.Errorf("cugen kernels: %s:%d: kernel %s: the source declares %d parameters, the sm_%d cubin has %d", file, k.Line, k.Expr, len(k.Params), arch, len(got))
		}
		for i, p := range k.Params {
			if g := got[i]; int64(g.Offset) != p.Offset || int64(g.Size) != p.Type.Size {
				return fmt.Errorf("cugen kernels: %s:%d: kernel %s: parameter %s (%s): offset %d, %d bytes as C lays it out, but offset %d, %d bytes in the sm_%d cubin",
					file, k.Line, k.Expr, p.Label(i), p.Type.C, p.Offset, p.Type.Size, g.Offset, g.Size, arch)
			}
		}
	}
	return nil
}

func archList(a []int) string {
	var s []string
	for _, x := range a {
		s = append(s, fmt.Sprintf("sm_%d", x))
	}
	return strings.Join(s, ", ")
}

// ParseArchs reads -arch: sm_80,sm_90 (or 80,90).
func ParseArchs(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		n, err := strconv.Atoi(strings.TrimPrefix(f, "sm_"))
		if err != nil || n < 10 || n > 1000 {
			return nil, fmt.Errorf("-arch %q: %q is not an architecture such as sm_90", s, f)
		}
		out = append(out, n)
	}
	return out, nil
}

// DefaultCudaPath is the Go API the generated package imports when no
// other is named: cugen's one package cuda, whose CUDA major is the
// build's (-tags cuda12 or none), whatever NVRTC compiled the kernels.
const DefaultCudaPath = "github.com/cugen/cugen/cuda"

// noteTemplates notes each template kernel of src that no instance
// names: it is not bound, and without a note nothing says so.
func noteTemplates(w io.Writer, src []byte, file string, instances []string) {
	ts, err := parser.KernelTemplates(src, file)
	if err != nil {
		return // Kernels read the same source
	}
	for _, t := range ts {
		if slices.ContainsFunc(instances, func(i string) bool {
			name, _, _ := strings.Cut(i, "<")
			return strings.TrimSpace(name) == t.Name
		}) {
			continue
		}
		fmt.Fprintf(w, "cugen kernels: note: %s:%d: template kernel %s<%s> is not bound: -name '%s<...>' binds an instantiation (one argument for each of %s)\n",
			file, t.Line, t.Name, strings.Join(t.Params, ", "), t.Name, strings.Join(t.Params, ", "))
	}
}
