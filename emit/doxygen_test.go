package emit

import (
	"strings"
	"testing"
)

// TestConvertDoc holds the Doxygen-to-Go-doc conversions of issue 12's Docs
// section: aliases expanded, HTML entities decoded, a deprecation after the
// description.
func TestConvertDoc(t *testing.T) {
	m, _ := parseSnippet(t, "")
	for _, c := range []struct {
		name, doc string
		want      []string // substrings of the result
		not       []string // must not appear
		suffix    string   // the result ends with it
	}{
		{name: "cudaKernel_t", doc: "\\brief Launches a kernel\n\n\\note_cudaKernel_t",
			want: []string{"A kernel handle (cudaKernel_t"}, not: []string{"_cudaKernel_t", "Note: _"}},
		{name: "graph thread safety", doc: "\\brief Adds a node\n\n\\note_graph_thread_safety\n\\notefnerr",
			want: []string{"Graph objects are not thread-safe", "asynchronous launches"}, not: []string{"_graph_thread_safety"}},
		{name: "other aliases", doc: "\\brief X\n\n\\note_null_event\n\\note_destroy_ub\n\\note_memcpy\n\\note_version_mixing\n\\note_device_sync_deprecated",
			want: []string{"NULL event", "undefined behavior", "registered with CUDA", "version mixing", "cudaDeviceSynchronize from device code"},
			not:  []string{"Note: _", "_null_event", "_destroy_ub", "_memcpy", "_version_mixing", "_device_sync_deprecated"}},
		{name: "html entity", doc: "The version is returned as (1000 &times; major + 10 &times; minor).",
			want: []string{"(1000 × major + 10 × minor)"}, not: []string{"&times;"}},
		{name: "bare deprecated", doc: "\\brief Returns the shared memory configuration.\n\n\\deprecated\n\nThis function will return in \\p pConfig the current size.\n\n\\return\n::CUDA_SUCCESS",
			want:   []string{"Returns the shared memory configuration.\n\nThis function will return in pConfig the current size."},
			not:    []string{"Deprecated: This function"},
			suffix: "\n\nDeprecated: the header marks this deprecated."},
		{name: "deprecated with text", doc: "\\brief Old call.\n\n\\deprecated This function is deprecated as of CUDA 5.0\nand does nothing.\n\nIt used to sync.",
			want:   []string{"Old call.\n\nIt used to sync."},
			suffix: "\n\nDeprecated: This function is deprecated as of CUDA 5.0 and does nothing."},
	} {
		got := m.convertDoc(c.doc)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", c.name, got, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: %q has %q", c.name, got, n)
			}
		}
		if !strings.HasSuffix(got, c.suffix) {
			t.Errorf("%s: %q does not end with %q", c.name, got, c.suffix)
		}
	}
}

// TestHeaderMessage: the Error() text of a deprecated value carries no
// Doxygen markup.
func TestHeaderMessage(t *testing.T) {
	for doc, want := range map[string]string{
		"\\deprecated\nThis error return is deprecated as of CUDA 5.0. It is no longer an error": "This error return is deprecated as of CUDA 5.0",
		"This indicates that the device is 3 &times; busy. More text.":                           "This indicates that the device is 3 × busy",
	} {
		if got := headerMessage(doc); got != want {
			t.Errorf("headerMessage(%q) = %q, want %q", doc, got, want)
		}
	}
}

// TestWrapperDocFolded: a parameter the wrapper passes itself (the length
// of a string buffer) is not documented as if the caller gave it, and an
// array result says how many elements it has.
func TestWrapperDocFolded(t *testing.T) {
	m, api := parseSnippet(t, `
/**
 * \brief Returns an identifier string for the device
 *
 * Returns an ASCII string identifying the device \p dev in the NULL-terminated
 * string pointed to by \p name. \p len specifies the maximum length of the
 * string that may be returned.
 *
 * \param name - Returned identifier string for the device
 * \param len  - Maximum length of string to store in \p name
 * \param dev  - Device to get identifier string for
 */
CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev);

/**
 * \brief Return an LUID and device node mask for the device
 *
 * \param luid - Returned LUID
 * \param deviceNodeMask - Returned device node mask
 * \param dev  - Device to get identifier string for
 */
CUresult CUDAAPI cuDeviceGetLuid(char *luid, unsigned int *deviceNodeMask, CUdevice dev);
`)
	docs := map[string]string{}
	for _, f := range api.Functions {
		ps, err := m.classify(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[f.Name] = m.convertDoc(wrapperDoc(f.Doc, ps))
	}
	name := docs["cuDeviceGetName"]
	for _, not := range []string{"len specifies", "  - len:"} {
		if strings.Contains(name, not) {
			t.Errorf("cuDeviceGetName doc mentions the folded len (%q):\n%s", not, name)
		}
	}
	if !strings.Contains(name, "the buffer length (256 bytes, passed by the wrapper) specifies") {
		t.Errorf("cuDeviceGetName doc does not say what the wrapper passes:\n%s", name)
	}
	if luid := docs["cuDeviceGetLuid"]; !strings.Contains(luid, "  - luid: (result, 8 elements) Returned LUID") {
		t.Errorf("cuDeviceGetLuid doc:\n%s", luid)
	}
}

// TestBannerNoDoc: a banner of asterisks before a declaration (dim3 in
// vector_types.h) is not its documentation.
func TestBannerNoDoc(t *testing.T) {
	_, api := parseSnippet(t, `
/*******************************************************************************
*                                                                              *
*                                                                              *
*******************************************************************************/

struct dim3 { unsigned int x, y, z; };
typedef struct dim3 dim3;
`)
	for _, r := range api.Records {
		if r.Tag == "dim3" && r.Doc != "" {
			t.Errorf("dim3 doc = %q, want none", r.Doc)
		}
	}
}
