package library

import (
	"strings"
	"testing"
)

// TestAllValid: the committed descriptions pass Check, and every override
// row of a library names one of its own functions (by its C prefix): an
// exception filed under the wrong library would never apply.
func TestAllValid(t *testing.T) {
	if err := Check(All); err != nil {
		t.Fatal(err)
	}
	for _, d := range All {
		fnPrefix := func(key string) bool {
			name, _, _ := strings.Cut(key, ".")
			for _, p := range d.Prefixes {
				if strings.HasPrefix(name, p) {
					return true
				}
			}
			return false
		}
		o := d.Overrides
		var keys []string
		for k := range o.Directions {
			keys = append(keys, k)
		}
		for k := range o.Arrays {
			keys = append(keys, k)
		}
		for _, m := range []map[string]string{o.OneShotCallbacks, o.RegisteredCallbacks, o.SynchronousCallbacks, o.GlobalCallbacks, o.KernelPointers, d.Unexported} {
			for k := range m {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			if !fnPrefix(k) {
				t.Errorf("%s: override %q does not name a function of the library", d.Key, k)
			}
		}
	}
}

// TestCheckRefuses: a description missing what the generator needs, or two
// claiming one header, is refused with a message naming it.
func TestCheckRefuses(t *testing.T) {
	dup := *NVRTC
	dup.Key, dup.Package = "nvrtc2", "nvrtc2"
	noStatus := *NVRTC
	noStatus.Status = ""
	for _, c := range []struct {
		descs []*Desc
		want  string
	}{
		{[]*Desc{Driver, Runtime, NVRTC, &dup}, "header nvrtc.h declared by both nvrtc and nvrtc2"},
		{[]*Desc{Driver, &noStatus}, "library nvrtc: no status type"},
		{[]*Desc{NVRTC}, "required libraries (at least 1)"},
		{[]*Desc{Runtime, NVRTC}, "0 driver libraries (at most 1, and one when runtime needs it)"},
	} {
		if err := Check(c.descs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check = %v, want %q", err, c.want)
		}
	}
}
