package cuda

import (
	"testing"
)

// The CPU benchmarks: the layer's own cost around a driver call, with the
// fake driver (no GPU; the driver call itself costs nothing here).

// fakeModule is a module of the fake driver's context c.
func fakeModule(c *Context) *Module {
	m := &Module{}
	m.r = newResource(m, c.ref.s, kindModule, 1, nil)
	return m
}

// BenchmarkFakeLaunch is Kernel.Launch of saxpy's 4 arguments (two
// buffers) with the driver's parameter info, up to the driver call.
func BenchmarkFakeLaunch(b *testing.B) {
	f, c := newFake(b)
	defer c.Close()
	f.params = [][2]uint64{{0, 4}, {8, 8}, {16, 8}, {24, 4}}
	f.quiet = true // the layer's cost, not the fake's bookkeeping
	m := fakeModule(c)
	k, err := m.Kernel("saxpy")
	if err != nil {
		b.Fatal(err)
	}
	x, err := Alloc[float32](c, 1)
	if err != nil {
		b.Fatal(err)
	}
	cfg := Config{Grid: Dim3{X: 1}, Block: Dim3{X: 256}}
	alpha, n := float32(1), int32(0)
	b.ReportAllocs()
	g0 := f.gets.Load()
	for b.Loop() {
		if err := k.Launch(cfg, alpha, x, x, n); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(f.gets.Load()-g0)/float64(b.N), "ctx-checks/op")
}

// BenchmarkFakeLayoutPack is the argument check and packing alone.
func BenchmarkFakeLayoutPack(b *testing.B) {
	_, c := newFake(b)
	defer c.Close()
	x, err := Alloc[float32](c, 1)
	if err != nil {
		b.Fatal(err)
	}
	k := &Kernel{name: "saxpy", known: true, params: []Param{{0, 4}, {8, 8}, {16, 8}, {24, 4}}}
	alpha, n := float32(1), int32(0)
	b.ReportAllocs()
	for b.Loop() {
		var words [stackArgWords]uint64
		var offs [stackArgs]int
		args := []any{alpha, x, x, n}
		if _, err := k.layout(args); err != nil {
			b.Fatal(err)
		}
		k.packFree(args, words[:], offs[:len(args)])
	}
}

// BenchmarkFakeDo is Context.Do with an empty function: the bind.
func BenchmarkFakeDo(b *testing.B) {
	_, c := newFake(b)
	defer c.Close()
	b.ReportAllocs()
	for b.Loop() {
		c.Do(func() error { return nil })
	}
}

// BenchmarkFakeAllocFree is Alloc and Free of one buffer.
func BenchmarkFakeAllocFree(b *testing.B) {
	_, c := newFake(b)
	defer c.Close()
	b.ReportAllocs()
	for b.Loop() {
		x, err := Alloc[float32](c, 16)
		if err != nil {
			b.Fatal(err)
		}
		if err := x.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
