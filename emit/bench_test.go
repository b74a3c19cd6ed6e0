package emit

import "testing"

// BenchmarkGenerate12_4 emits both packages of the 12.4 headers, formatting
// included (jennifer renders through go/format); parsing is done once,
// outside the timer.
func BenchmarkGenerate12_4(b *testing.B) {
	api, origin := load124(b)
	opts := opts124(origin)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Generate(api, opts); err != nil {
			b.Fatal(err)
		}
	}
}
