package cuda

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// moduleRoot is the directory of the module's go.mod, above the test's.
func moduleRoot(t *testing.T) string {
	t.Helper()
	d, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			t.Skip("no go.mod above the test")
		}
		d = up
	}
}

// TestDevicePropertiesTable: DeviceProperties has one field for every
// value of CUdevice_attribute in cuda12's and cuda13's cu (but _MAX), in
// devAttrs' order, each named after a constant of its value, a bool
// exactly for the *Supported and Can* ones.
func TestDevicePropertiesTable(t *testing.T) {
	root := moduleRoot(t)
	typ := reflect.TypeFor[DeviceProperties]()
	if typ.NumField() != len(devAttrs) {
		t.Fatalf("%d fields, %d attributes", typ.NumField(), len(devAttrs))
	}
	field := map[int]reflect.StructField{}
	for i, a := range devAttrs {
		if i > 0 && a <= devAttrs[i-1] {
			t.Fatalf("devAttrs not increasing at %d", i)
		}
		field[int(a)] = typ.Field(i)
	}
	re := regexp.MustCompile(`(?m)^\s+DeviceAttribute([A-Za-z0-9]+)\s+DeviceAttribute = (\d+)$`)
	for _, major := range []string{"cuda12", "cuda13"} {
		src, err := os.ReadFile(filepath.Join(root, "generated", major, "cu", "enums.go"))
		if err != nil {
			t.Fatal(err)
		}
		names := map[int][]string{}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			if m[1] == "Max" {
				continue
			}
			v, _ := strconv.Atoi(m[2])
			names[v] = append(names[v], m[1])
		}
		if len(names) < 100 {
			t.Fatalf("%s: %d device attributes found", major, len(names))
		}
		for v, ns := range names {
			f, ok := field[v]
			if !ok {
				t.Errorf("%s: attribute %d (%v) has no field", major, v, ns)
				continue
			}
			wantBool := strings.HasSuffix(f.Name, "Supported") || strings.HasPrefix(f.Name, "Can") || yesNo[f.Name]
			if (f.Type.Kind() == reflect.Bool) != wantBool {
				t.Errorf("field %s is %s", f.Name, f.Type)
			}
			if major == "cuda13" && !slicesContain(ns, f.Name) {
				t.Errorf("attribute %d: field %s, constants %v", v, f.Name, ns)
			}
		}
	}
}

// yesNo are the attributes that are 0 or 1 without saying so in their name.
var yesNo = map[string]bool{}

func init() {
	for _, n := range strings.Fields("GpuOverlap KernelExecTimeout Integrated ConcurrentKernels EccEnabled TccDriver UnifiedAddressing ManagedMemory MultiGpuBoard PageableMemoryAccess ConcurrentManagedAccess CooperativeLaunch CooperativeMultiDeviceLaunch PageableMemoryAccessUsesHostPageTables DirectManagedMemAccessFromHost ClusterLaunch UnifiedFunctionPointers MpsEnabled") {
		yesNo[n] = true
	}
}

func slicesContain(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// TestDevicePropertiesFill: each field gets its own attribute's value; an
// attribute the driver refuses as invalid (older than it) stays zero;
// another error names the attribute.
func TestDevicePropertiesFill(t *testing.T) {
	asked := map[cu.DeviceAttribute]int{}
	p, err := deviceProperties(func(a cu.DeviceAttribute) (int32, error) {
		asked[a]++
		if a > 140 {
			return 0, cu.ErrorInvalidValue
		}
		return int32(a) * 3, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != len(devAttrs) {
		t.Fatalf("%d attributes asked, want %d", len(asked), len(devAttrs))
	}
	v := reflect.ValueOf(p)
	for i, a := range devAttrs {
		f := v.Field(i)
		var got int64
		if f.Kind() == reflect.Bool {
			if f.Bool() {
				got = 1
			}
		} else {
			got = f.Int()
		}
		want := int64(a) * 3
		if a > 140 {
			want = 0
		} else if f.Kind() == reflect.Bool {
			want = 1
		}
		if got != want {
			t.Fatalf("%s = %d, want %d", v.Type().Field(i).Name, got, want)
		}
	}
	if p.MultiprocessorCount != 16*3 || p.WarpSize != 10*3 || !p.CooperativeLaunch {
		t.Fatalf("MultiprocessorCount %d, WarpSize %d", p.MultiprocessorCount, p.WarpSize)
	}
	_, err = deviceProperties(func(a cu.DeviceAttribute) (int32, error) {
		if a == 16 {
			return 0, cu.ErrorNotInitialized
		}
		return 1, nil
	})
	if !errors.Is(err, cu.ErrorNotInitialized) || !strings.Contains(err.Error(), "MultiprocessorCount") {
		t.Fatalf("a failing attribute: %v", err)
	}
}

func (f *fakeDriver) enablePeer(s, peer *ctxState) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.peers == nil {
		f.peers = map[[2]*ctxState]bool{}
	}
	k := [2]*ctxState{s, peer}
	if f.peers[k] {
		return cu.ErrorPeerAccessAlreadyEnabled
	}
	f.peers[k] = true
	return nil
}

// TestEnablePeerAccess: enabling reaches the driver once per direction,
// again is no error, a context is not its own peer, and a closed peer is
// ErrClosed.
func TestEnablePeerAccess(t *testing.T) {
	f, c := newFake(t)
	defer c.Close()
	g, d := newFake(t) // a second device's context
	for range 2 {
		if err := c.EnablePeerAccess(d); err != nil {
			t.Fatal(err)
		}
	}
	if !f.peers[[2]*ctxState{c.ref.s, d.ref.s}] || len(f.peers) != 1 {
		t.Fatalf("peers %v, want c to d alone", f.peers)
	}
	if err := d.EnablePeerAccess(c); err != nil || !g.peers[[2]*ctxState{d.ref.s, c.ref.s}] || len(f.peers) != 1 {
		t.Fatalf("d to c: %v, %v", err, g.peers)
	}
	if err := c.EnablePeerAccess(c); !errors.Is(err, errSamePeer) {
		t.Fatalf("c to itself: %v", err)
	}
	d.Close()
	if err := c.EnablePeerAccess(d); !errors.Is(err, ErrClosed) {
		t.Fatalf("to a closed peer: %v, want ErrClosed", err)
	}
	if err := d.EnablePeerAccess(c); !errors.Is(err, ErrClosed) {
		t.Fatalf("from a closed context: %v, want ErrClosed", err)
	}
}
