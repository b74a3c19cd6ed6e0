package fft

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	cuda "github.com/cugen/cugen/cuda"
	"github.com/cugen/cugen/cuda/sys/cu"
	"github.com/cugen/cugen/cuda/sys/cufft"
)

// TestCheckLengths: the elements each side of a plan needs, contiguous
// and with advanced layouts.
func TestCheckLengths(t *testing.T) {
	cases := []struct {
		d       Desc
		in, out int64
	}{
		{Desc{Type: C2C, Dims: []int{256}}, 256, 256},
		{Desc{Type: C2C, Dims: []int{256}, Batch: 4}, 1024, 1024},
		{Desc{Type: R2C, Dims: []int{256}, Batch: 3}, 768, 3 * 129},
		{Desc{Type: C2R, Dims: []int{255}}, 128, 255},
		{Desc{Type: D2Z, Dims: []int{8, 10}}, 80, 8 * 6},
		{Desc{Type: Z2D, Dims: []int{4, 5, 7}}, 4 * 5 * 4, 140},
		{Desc{Type: Z2Z, Dims: []int{4, 5, 6}, Batch: 2}, 240, 240},
		// Advanced: 2 transforms of 8 points, interleaved (stride 2, distance 1).
		{Desc{Type: C2C, Dims: []int{8}, Batch: 2, InEmbed: []int{8}, OutEmbed: []int{8}, InStride: 2, InDist: 1, OutStride: 1, OutDist: 8}, 16, 16},
		// Rows of 5 padded to 7, 3 rows, batch 2 at distance 30.
		{Desc{Type: C2C, Dims: []int{3, 5}, Batch: 2, InEmbed: []int{3, 7}, OutEmbed: []int{3, 5}, InStride: 1, InDist: 30, OutStride: 1, OutDist: 15}, 30 + 2*7 + 4 + 1, 30},
		// R2C with padded real rows (the in-place layout's shape).
		{Desc{Type: R2C, Dims: []int{4, 6}, InEmbed: []int{4, 8}, OutEmbed: []int{4, 4}, InStride: 1, OutStride: 1}, 3*8 + 5 + 1, 16},
	}
	for _, c := range cases {
		s, err := check("test", &c.d)
		if err != nil {
			t.Errorf("%+v: %v", c.d, err)
			continue
		}
		if s.inLen != c.in || s.outLen != c.out {
			t.Errorf("%v %v batch %d: in %d out %d, want %d %d", c.d.Type, c.d.Dims, c.d.Batch, s.inLen, s.outLen, c.in, c.out)
		}
	}
}

// TestCheckRefuses: each bad Desc is an *Error naming the cuFFT result.
func TestCheckRefuses(t *testing.T) {
	cases := []struct {
		name string
		d    Desc
		want cufft.Result
	}{
		{"unknown type", Desc{Type: 7, Dims: []int{8}}, cufft.InvalidType},
		{"no sizes", Desc{Type: C2C}, cufft.InvalidValue},
		{"4 sizes", Desc{Type: C2C, Dims: []int{2, 2, 2, 2}}, cufft.InvalidValue},
		{"zero size", Desc{Type: C2C, Dims: []int{8, 0}}, cufft.InvalidSize},
		{"negative batch", Desc{Type: C2C, Dims: []int{8}, Batch: -1}, cufft.InvalidValue},
		{"huge", Desc{Type: C2C, Dims: []int{1 << 30, 1 << 30}, Batch: 1 << 20}, cufft.InvalidSize},
		{"one embed", Desc{Type: C2C, Dims: []int{8}, InEmbed: []int{8}, InStride: 1}, cufft.InvalidValue},
		{"stride without embed", Desc{Type: C2C, Dims: []int{8}, InStride: 2}, cufft.InvalidValue},
		{"embed of 2 for 1 size", Desc{Type: C2C, Dims: []int{8}, InEmbed: []int{8, 8}, OutEmbed: []int{8, 8}, InStride: 1, OutStride: 1}, cufft.InvalidValue},
		{"embed too small", Desc{Type: C2C, Dims: []int{4, 8}, InEmbed: []int{4, 6}, OutEmbed: []int{4, 8}, InStride: 1, OutStride: 1}, cufft.InvalidValue},
		{"zero stride", Desc{Type: C2C, Dims: []int{8}, InEmbed: []int{8}, OutEmbed: []int{8}, OutStride: 1}, cufft.InvalidValue},
		{"batch without distance", Desc{Type: C2C, Dims: []int{8}, Batch: 2, InEmbed: []int{8}, OutEmbed: []int{8}, InStride: 1, OutStride: 1, InDist: 8}, cufft.InvalidValue},
	}
	for _, c := range cases {
		_, err := check("NewPlan", &c.d)
		var fe *Error
		if !errors.As(err, &fe) || !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want an fft.Error of %v", c.name, err, c.want)
			continue
		}
		t.Logf("%s: %v", c.name, err)
	}
}

// TestCheckExec: a transform's type, direction, lengths and overlap are
// checked against the plan.
func TestCheckExec(t *testing.T) {
	d := Desc{Type: C2C, Dims: []int{16}, Batch: 2}
	s, err := check("test", &d)
	if err != nil {
		t.Fatal(err)
	}
	p := &Plan{shape: s}
	const a, b = cu.Deviceptr(0x10000), cu.Deviceptr(0x20000)
	ok := []struct {
		name             string
		typ              Type
		inLen, outLen    int
		inPtr, outPtr    cu.Deviceptr
		inBytes, outByte uint64
	}{
		{"out of place", C2C, 32, 32, a, b, 256, 256},
		{"in place", C2C, 32, 32, a, a, 256, 256},
		{"longer buffers", C2C, 40, 33, a, b, 320, 264},
	}
	for _, c := range ok {
		if err := p.checkExec("Plan.C2C", c.typ, Forward, c.inLen, c.outLen, c.inPtr, c.inBytes, c.outPtr, c.outByte); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	bad := []struct {
		name          string
		typ           Type
		dir           Direction
		inLen, outLen int
		outPtr        cu.Deviceptr
		want          cufft.Result
	}{
		{"R2C on a C2C plan", R2C, Forward, 32, 32, b, cufft.InvalidType},
		{"direction 0", C2C, 0, 32, 32, b, cufft.InvalidValue},
		{"short input", C2C, Forward, 31, 32, b, cufft.InvalidSize},
		{"short output", C2C, Forward, 32, 16, b, cufft.InvalidSize},
		{"partial overlap", C2C, Forward, 32, 32, a + 8, cufft.InvalidValue},
	}
	for _, c := range bad {
		err := p.checkExec("Plan.C2C", c.typ, c.dir, c.inLen, c.outLen, a, uint64(c.inLen)*8, c.outPtr, uint64(c.outLen)*8)
		var fe *Error
		if !errors.As(err, &fe) || !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want an fft.Error of %v", c.name, err, c.want)
			continue
		}
		t.Logf("%s: %v", c.name, err)
	}
	// Real transforms are out of place: any overlap is refused.
	r, _ := check("test", &Desc{Type: R2C, Dims: []int{16}})
	pr := &Plan{shape: r}
	if err := pr.checkExec("Plan.R2C", R2C, Forward, 16, 9, a, 64, a, 72); !errors.Is(err, cufft.InvalidValue) {
		t.Errorf("in-place R2C: %v", err)
	}
}

// fakePlans stands in for NewPlan and Plan.Close in the cache tests.
type fakePlans struct {
	made, closed atomic.Int64
	mu           sync.Mutex
	open         map[*Plan]bool
}

func (f *fakePlans) install(c *Cache) {
	f.open = map[*Plan]bool{}
	c.newPlan = func(_ *cuda.Context, _ *cuda.Stream, d Desc) (*Plan, error) {
		s, err := check("NewPlan", &d)
		if err != nil {
			return nil, err
		}
		f.made.Add(1)
		p := &Plan{shape: s}
		f.mu.Lock()
		f.open[p] = true
		f.mu.Unlock()
		return p, nil
	}
	c.closePlan = func(p *Plan) error {
		f.mu.Lock()
		defer f.mu.Unlock()
		if !f.open[p] {
			return fmt.Errorf("plan closed twice or never made")
		}
		delete(f.open, p)
		f.closed.Add(1)
		return nil
	}
}

func (f *fakePlans) isOpen(p *Plan) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.open[p]
}

func TestCacheReuseAndEvict(t *testing.T) {
	c := NewCache(2)
	var f fakePlans
	f.install(c)
	get := func(n int) *Plan {
		var got *Plan
		if err := c.Do(nil, nil, Desc{Type: C2C, Dims: []int{n}}, func(p *Plan) error { got = p; return nil }); err != nil {
			t.Fatal(err)
		}
		return got
	}
	p8 := get(8)
	if get(8) != p8 || f.made.Load() != 1 {
		t.Fatal("the same Desc made a second plan")
	}
	p16 := get(16)
	get(8) // 16 is now the least recently used
	get(32)
	if c.Len() != 2 {
		t.Fatalf("Len() = %d after 3 shapes in a cache of 2", c.Len())
	}
	waitFor(t, func() bool { return !f.isOpen(p16) })
	if !f.isOpen(p8) {
		t.Fatal("the recently used plan was evicted")
	}
	// Another layout, batch or type is another plan.
	get4 := func(d Desc) *Plan {
		var got *Plan
		c.Do(nil, nil, d, func(p *Plan) error { got = p; return nil })
		return got
	}
	if get4(Desc{Type: C2C, Dims: []int{8}, Batch: 2}) == p8 || get4(Desc{Type: Z2Z, Dims: []int{8}}) == p8 {
		t.Fatal("a plan reused for another batch or type")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return f.made.Load() == f.closed.Load() })
}

// TestCacheBusy: a plan in use is not closed by its eviction until the
// call using it returns.
func TestCacheBusy(t *testing.T) {
	c := NewCache(1)
	var f fakePlans
	f.install(c)
	inside, leave := make(chan *Plan), make(chan struct{})
	done := make(chan error)
	go func() {
		done <- c.Do(nil, nil, Desc{Type: C2C, Dims: []int{8}}, func(p *Plan) error {
			inside <- p
			<-leave
			if !f.isOpen(p) {
				return errors.New("plan closed during the call")
			}
			return nil
		})
	}()
	p := <-inside
	if err := c.Do(nil, nil, Desc{Type: C2C, Dims: []int{16}}, func(*Plan) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if !f.isOpen(p) {
		t.Fatal("evicted plan closed while in use")
	}
	close(leave)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if f.isOpen(p) {
		t.Fatal("evicted plan still open after its call")
	}
}

// TestCacheConcurrent: goroutines asking for the same shapes get one
// plan each, and every plan made is closed once in the end.
func TestCacheConcurrent(t *testing.T) {
	c := NewCache(3)
	var f fakePlans
	f.install(c)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				n := 8 << ((g + i) % 5)
				if err := c.Do(nil, nil, Desc{Type: C2C, Dims: []int{n}}, func(p *Plan) error {
					if !f.isOpen(p) {
						return errors.New("closed plan handed out")
					}
					return nil
				}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	c.Close()
	waitFor(t, func() bool { return f.made.Load() == f.closed.Load() })
	t.Logf("%d plans made for 5 shapes through a cache of 3", f.made.Load())
}

// TestCacheHitAllocs: a hit allocates nothing, the Desc's slice literal
// included.
func TestCacheHitAllocs(t *testing.T) {
	c := NewCache(4)
	var f fakePlans
	f.install(c)
	n := 1024
	fn := func(*Plan) error { return nil }
	c.Do(nil, nil, Desc{Type: C2C, Dims: []int{n}}, fn)
	allocs := testing.AllocsPerRun(1000, func() {
		if err := c.Do(nil, nil, Desc{Type: C2C, Dims: []int{n}}, fn); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("a cache hit allocates %v times", allocs)
	}
}

func TestCacheBadDesc(t *testing.T) {
	c := NewCache(4)
	var f fakePlans
	f.install(c)
	err := c.Do(nil, nil, Desc{Type: C2C, Dims: []int{8, 8, 8, 8}}, func(*Plan) error { return nil })
	if !errors.Is(err, cufft.InvalidValue) {
		t.Fatalf("4 sizes: %v", err)
	}
	err = c.Do(nil, nil, Desc{Type: C2C, Dims: []int{0}}, func(*Plan) error { return nil })
	if !errors.Is(err, cufft.InvalidSize) {
		t.Fatalf("size 0: %v", err)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 10000 {
		if cond() {
			return
		}
		timeSleep()
	}
	t.Fatal("condition never held")
}

func timeSleep() { time.Sleep(time.Millisecond) }
