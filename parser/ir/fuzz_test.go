package ir

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzDecodeIR: Decode of any bytes returns an IR or a one-line error,
// never panics, and never decodes past Limits; an IR it returns is valid
// and survives Encode and Decode unchanged. The seed corpus
// (testdata/fuzz/FuzzDecodeIR) holds the IRs of issue 24: empty-function
// bombs, nulls, a struct containing itself, a typedef cycle, a name with a
// slash, a macro holding code (hostileIRs and TestDecodeBounds build
// them); the seeds below add the tiny real IR, plain and compressed.
func FuzzDecodeIR(f *testing.F) {
	f.Add(tiny(f))
	f.Add(gz(f, tiny(f)))
	f.Fuzz(func(t *testing.T, b []byte) {
		api, err := Decode(b)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of several lines: %q", err)
			}
			return
		}
		if err := Validate(api); err != nil {
			t.Fatalf("Decode returned an IR Validate refuses: %v", err)
		}
		var enc bytes.Buffer
		if err := Encode(&enc, api, false); err != nil {
			t.Fatalf("Encode: %v", err)
		}
		if _, err := Decode(enc.Bytes()); err != nil {
			t.Fatalf("Decode of its own Encode: %v", err)
		}
	})
}
