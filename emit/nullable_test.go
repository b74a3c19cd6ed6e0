package emit

import "testing"

// TestNullableString: the docs' ways of saying a C string may be NULL make
// it nullable; NULL in other senses does not.
func TestNullableString(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want bool
	}{
		{"An optional name for this input in log messages.", true},
		{`CUDA program name. \p name can be NULL; "default_program" is used when \p name is NULL or "".`, true},
		{`Name of the NVVM IR module. If NULL, "<unnamed>" is used as the name.`, true},
		{"The input data. PTX must be NULL-terminated.", false},
		{"Pointer to a NULL-terminated string", false},
		{"The name of the event to find", false},
		{"Path to the input file", false},
		{"", false},
	} {
		if got := nullableString(c.doc); got != c.want {
			t.Errorf("nullableString(%q) = %v, want %v", c.doc, got, c.want)
		}
	}
}
