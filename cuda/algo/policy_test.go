package algo

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// imageConstants reads cub.cu's cugen_* constants out of an embedded
// image: from a cubin's symbol table and the section holding their
// initial values, or from the PTX's .global declarations.
func imageConstants(t *testing.T, file string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("internal", "cubk", file))
	if err != nil {
		t.Fatal(err)
	}
	_, data, _ = bytes.Cut(data, []byte("\n")) // cugen's marker line
	out := map[string]int{}
	if filepath.Ext(file) == ".ptx" {
		re := regexp.MustCompile(`\.global \.align 4 \.u32 (cugen_\w+) = (\d+);`)
		for _, m := range re.FindAllSubmatch(data, -1) {
			v, _ := strconv.Atoi(string(m[2]))
			out[string(m[1])] = v
		}
		return out
	}
	// NVIDIA's cubins carry their own e_version, which debug/elf refuses:
	// read a copy that says EV_CURRENT.
	data = bytes.Clone(data)
	binary.LittleEndian.PutUint32(data[20:], uint32(elf.EV_CURRENT))
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range syms {
		if len(s.Name) < 6 || s.Name[:6] != "cugen_" {
			continue
		}
		sec := f.Sections[s.Section]
		b, err := sec.Data()
		if err != nil || s.Value+4 > uint64(len(b)) {
			t.Fatalf("%s: %s in %s: %v", file, s.Name, sec.Name, err)
		}
		out[s.Name] = int(binary.LittleEndian.Uint32(b[s.Value:]))
	}
	return out
}

// The policy table the host dispatch uses is what each embedded image was
// compiled with: CUB's policies as cub.cu instantiated them for the
// image's architecture, after MemBoundScaling.
func TestPolicies(t *testing.T) {
	for _, im := range []struct {
		file string
		arch int
	}{{"sm_80.cubin", 80}, {"sm_90.cubin", 90}, {"compute_90.ptx", 90}} {
		got := imageConstants(t, im.file)
		// 13 constants for every type, 15 more for the wide ones and 8 of
		// their segmented sort (TestSegmentedSortPolicies)
		if want := 13*len(policies[im.arch]) + (15+8)*6 + 2; len(got) != want {
			t.Errorf("%s: %d cugen_ constants, want %d", im.file, len(got), want)
		}
		for name, want := range map[string]int{"cugen_select_word": selectWord, "cugen_rle_word": rleWord} {
			if v, ok := got[name]; !ok || v != want {
				t.Errorf("%s: %s = %d (found %v), the table has %d", im.file, name, v, ok, want)
			}
		}
		for ty, p := range policies[im.arch] {
			want := map[string]int{
				"reduce_threads": p.reduceThreads, "reduce_items": p.reduceItems,
				"scan_threads": p.scanThreads, "scan_items": p.scanItems, "scan_word": p.scanWord,
				"arg_items": p.argItems, "arg_pair": p.argPair,
				"sort_keys_threads": p.sortKeysThreads, "sort_keys_items": p.sortKeysItems,
				"sort_pairs_threads": p.sortPairsThreads, "sort_pairs_items": p.sortPairsItems,
				"histogram_threads": p.histogram.threads, "histogram_items": p.histogram.items,
			}
			wide := map[string]int{
				"unique_threads": p.unique.threads, "unique_items": p.unique.items,
				// SelectIf runs with Unique's tuning, as CUB's does
				"if_threads": p.unique.threads, "if_items": p.unique.items,
				"partition_if_threads": p.partitionIf.threads, "partition_if_items": p.partitionIf.items,
				"flagged_threads": p.flagged.threads, "flagged_items": p.flagged.items,
				"partition_threads": p.partition.threads, "partition_items": p.partition.items,
				"rle_threads": p.rle.threads, "rle_items": p.rle.items,
				"scan_by_key_threads": p.scanByKey.threads, "scan_by_key_items": p.scanByKey.items,
				"scan_by_key_word": scanByKeyWord,
			}
			isWide := wideTypes[ty]
			for name, w := range wide {
				if isWide {
					want[name] = w
				} else if w != 0 && name != "scan_by_key_word" {
					t.Errorf("%s: %s has %s = %d, but its kernels are not built", im.file, ty, name, w)
				}
			}
			for name, want := range want {
				key := fmt.Sprintf("cugen_%s_%s", name, ty)
				if v, ok := got[key]; !ok || v != want {
					t.Errorf("%s: %s = %d (found %v), the table has %d", im.file, key, v, ok, want)
				}
			}
		}
	}
}

// wideTypes are the types of [Wide].
var wideTypes = map[string]bool{"int32": true, "uint32": true, "int64": true, "uint64": true, "float32": true, "float64": true}
