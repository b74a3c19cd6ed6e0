package kernels

import "github.com/cugen/cugen/internal/gen"

// Command is the command line the generated files record: paths
// relative to the module root cugen runs in.
func Command(src, arch string, includes, pinned, names []string, out, pkg, cudaPath string) string {
	root, _ := gen.ModuleRoot()
	rel := gen.RelTo(root)
	args := []string{"cugen", "kernels", "-src", rel(src), "-arch", arch}
	for _, d := range includes {
		args = append(args, "-I", rel(d))
	}
	for _, h := range pinned {
		args = append(args, "-headers", h)
	}
	for _, n := range names {
		args = append(args, "-name", n)
	}
	if pkg != "" {
		args = append(args, "-pkg", pkg)
	}
	if cudaPath != "" {
		args = append(args, "-cuda", cudaPath)
	}
	args = append(args, "-out", rel(out))
	return gen.CommandLine(args)
}
