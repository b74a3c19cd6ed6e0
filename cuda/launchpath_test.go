package cuda

import (
	"strings"
	"testing"
)

// usesOf is the count of uses in flight of b's allocation.
func usesOf[T any](b *Buffer[T]) uint64 {
	return b.a.r.uses.state.Load() & usesCount
}

// TestLaunchErrorReleasesBuffers: an argument error after buffers were
// held (pack holds each buffer as it packs it) ends their uses, so a Close
// afterwards does not wait for ever.
func TestLaunchErrorReleasesBuffers(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	m, k, x := fakeKernel(t, f, c)
	defer m.Close()
	y, err := Alloc[float32](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	dead, err := Alloc[float32](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	dead.Close()
	for _, tc := range []struct {
		args []any
		want string
	}{
		{[]any{float32(1), x, y, float64(4)}, "argument 3 (float64): 8 bytes, but the kernel's parameter 3 is 4 bytes"},
		{[]any{float32(1), x, dead, int32(4)}, "argument 2 (*cuda.Buffer[float32]): the buffer was freed"},
		{[]any{float32(1), x, y, 4}, "argument 3 (int)"},
		{[]any{float32(1), x, (*Buffer[float32])(nil), int32(4)}, "argument 2 (*cuda.Buffer[float32]): nil"},
	} {
		err := k.Launch(Config{}, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("%v: %v, want %q", tc.args, err, tc.want)
		}
		if n, m := usesOf(x), usesOf(y); n != 0 || m != 0 {
			t.Fatalf("%v: %d and %d uses left in flight after the error", tc.args, n, m)
		}
	}
	if f.launches.Load() != 0 {
		t.Fatal("a bad launch reached the driver")
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	if err := y.Close(); err != nil {
		t.Fatal(err)
	}
}

// big is an argument of 32 bytes: 16 of them do not fit the stack buffer.
type big [4]uint64

// TestLaunchHeapPathsHold: the launches that pack on the heap (more than
// 16 arguments, or more than 256 bytes of them) and those with buffers
// past the 64th argument (not in pack's bit set) hold every buffer for the
// driver call and end every use after it.
func TestLaunchHeapPathsHold(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	m := fakeModule(c)
	defer m.Close()
	k := &Kernel{name: "many", fn: 1, mod: m}
	x, err := Alloc[float32](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	bigArgs := []any{x}
	for range 15 {
		bigArgs = append(bigArgs, big{1, 2, 3, 4})
	}
	bigArgs = append(bigArgs[:8], append([]any{x}, bigArgs[8:15]...)...) // 16 arguments, x twice
	many := make([]any, 70)
	for i := range many {
		many[i] = x
	}
	for _, tc := range []struct {
		name string
		args []any
		want uint64 // uses of x in the driver call
	}{
		{"16 arguments in 456 bytes", bigArgs, 2},
		{"70 buffers", many, 70},
		{"17 scalars and a buffer", append([]any{x}, make17()...), 1},
	} {
		for _, guarded := range []bool{true, false} {
			var during uint64
			var guards int
			f.onLaunch = func() { during, guards = usesOf(x), launchesInFlight() }
			withGuards(t, guarded, func() {
				if err := k.Launch(Config{}, tc.args...); err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
			})
			// The launch's guard (launchguard.go) holds the buffer, or
			// without one a use for each time it is an argument.
			if want := [2]uint64{tc.want, 0}; guarded && (during != 0 || guards != 1) || !guarded && (during != tc.want || guards != 0) {
				t.Fatalf("%s, guarded %v: %d uses of the buffer and %d guards during the launch, want %v", tc.name, guarded, during, guards, want)
			}
		}
		if n := usesOf(x); n != 0 {
			t.Fatalf("%s: %d uses left in flight", tc.name, n)
		}
	}
	if got := f.launches.Load(); got != 6 {
		t.Fatalf("%d launches, want 6", got)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	// A freed buffer on the heap paths is refused too.
	for _, args := range [][]any{bigArgs, many} {
		for _, guarded := range []bool{true, false} {
			withGuards(t, guarded, func() {
				if err := k.Launch(Config{}, args...); err == nil || !strings.Contains(err.Error(), "the buffer was freed") {
					t.Fatalf("launch of a freed buffer: %v", err)
				}
			})
		}
	}
}

func make17() []any {
	a := make([]any, 17)
	for i := range a {
		a[i] = int32(i)
	}
	return a
}
