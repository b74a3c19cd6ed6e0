package emit

import "testing"

// TestNamedFor: the node type enum's value for a union member is the one
// named for it at a word boundary, in either naming style, and no other.
func TestNamedFor(t *testing.T) {
	for _, c := range []struct {
		v, w string
		want bool
	}{
		{"CU_GRAPH_NODE_TYPE_HOST", "host", true},
		{"cudaGraphNodeTypeHost", "host", true},
		{"CU_GRAPH_NODE_TYPE_GHOST", "host", false},   // not at a word boundary
		{"cudaGraphNodeTypeGhost", "host", false},     // "host" is not a capitalised word
		{"cudaGraphNodeTypeHostAlloc", "host", false}, // not at the end
		{"CU_GRAPH_NODE_TYPE_KERNEL", "host", false},
		{"HOST", "host", false}, // nothing before the word: not a type's value
		{"CU_GRAPH_NODE_TYPE_MEMSET", "memset", true},
		{"cudaGraphNodeTypeHost", "", false},
	} {
		if got := namedFor(c.v, c.w); got != c.want {
			t.Errorf("namedFor(%q, %q) = %v, want %v", c.v, c.w, got, c.want)
		}
	}
}

// TestAndList joins names as English does.
func TestAndList(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"[A]"}, "[A]"},
		{[]string{"[A]", "[B]"}, "[A] and [B]"},
		{[]string{"[A]", "[B]", "[C]"}, "[A], [B] and [C]"},
	} {
		if got := andList(c.in); got != c.want {
			t.Errorf("andList(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
