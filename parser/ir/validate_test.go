package ir

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cugen/cugen/internal/namedpipe"
)

// tiny is a real IR: cugen ir of a few lines of cuda.h and
// cuda_runtime_api.h (two enums, a struct, typedefs, a macro, three
// functions).
func tiny(t testing.TB) []byte {
	b, err := os.ReadFile("testdata/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// mutate applies edit to tiny's JSON as generic values.
func mutate(t testing.TB, edit func(d map[string]any)) []byte {
	var d map[string]any
	if err := json.Unmarshal(tiny(t), &d); err != nil {
		t.Fatal(err)
	}
	edit(d)
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// at walks a path of keys and indexes into a JSON value.
func at(v any, path ...any) map[string]any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v.(map[string]any)
}

func named(name string, size int) map[string]any {
	return map[string]any{"kind": "named", "c": name, "name": name, "size": size, "align": 4}
}

// hostileIRs are the IRs of issue 24 and the validator's other refusals:
// the name of the case, the IR, and what its error must say.
func hostileIRs(t testing.TB) []struct {
	name string
	ir   []byte
	want string
} {
	type c = struct {
		name string
		ir   []byte
		want string
	}
	return []c{
		// Before: nil-pointer panics in emit.
		{"param-type-null", mutate(t, func(d map[string]any) { at(d, "functions", 0, "params", 0)["type"] = nil }),
			"function cuDeviceGetCount: parameter 1 (count): type is null"},
		{"param-null", mutate(t, func(d map[string]any) { at(d, "functions", 0)["params"] = []any{nil} }),
			"function cuDeviceGetCount: parameter 1: name: empty"},
		{"result-null", mutate(t, func(d map[string]any) { at(d, "functions", 0)["result"] = nil }),
			"function cuDeviceGetCount: result is null"},
		{"elem-null", mutate(t, func(d map[string]any) { at(d, "functions", 0, "params", 0, "type")["elem"] = nil }),
			"function cuDeviceGetCount: parameter 1 (count): int *: pointer element is null"},
		{"function-null", mutate(t, func(d map[string]any) { d["functions"] = []any{nil} }),
			"function 1: null"},
		// Before: fatal error: stack overflow.
		{"struct-self", mutate(t, func(d map[string]any) {
			r := at(d, "records", 0)
			r["size"] = 12
			at(r, "fields", 1)["type"] = named("CUpair", 8)
		}), "record CUpair: contains itself by value: struct CUpair_st -> CUpair (field b) -> struct CUpair_st"},
		{"struct-self-array", mutate(t, func(d map[string]any) {
			r := at(d, "records", 0)
			r["size"] = 20
			at(r, "fields", 1)["type"] = map[string]any{"kind": "array", "c": "CUpair [2]", "size": 16, "align": 4, "len": 2, "elem": named("CUpair2", 8)}
		}), "record CUpair: contains itself by value: struct CUpair_st -> CUpair2 (field b) -> CUpair -> struct CUpair_st"},
		// Before: exit 0, a package that does not build.
		{"typedef-cycle", mutate(t, func(d map[string]any) {
			at(d, "typedefs", 3)["type"] = named("CUpair3", 8)
			d["typedefs"] = append(d["typedefs"].([]any), map[string]any{"name": "CUpair3", "type": named("CUpair2", 8), "library": "driver", "pos": map[string]any{"file": "cuda.h", "line": 5}})
		}), "typedef CUpair2: contains itself by value: CUpair2 -> CUpair3 -> CUpair2"},
		// Before: gofmt failed, 85 KB of error with the whole file.
		{"name-slash", mutate(t, func(d map[string]any) { at(d, "functions", 0)["name"] = "cuDevice/GetCount" }),
			`function 1: name: "cuDevice/GetCount" is not a C identifier`},
		{"param-name-slash", mutate(t, func(d map[string]any) { at(d, "functions", 0, "params", 0)["name"] = "a/b" }),
			`function cuDeviceGetCount: parameter 1: name: "a/b" is not a C identifier`},
		// Before: written into consts.go as Go code (exit 0, an init
		// function of the IR's in the package).
		{"macro-code", mutate(t, func(d map[string]any) {
			at(d, "macros", 1)["value"] = `8 ); func init() { panic("code from the IR") }; const ( y = 2`
		}),
			`macro CU_PAIR_SIZE: value "8 ); func init() { panic(\"code from the ": not a literal of kind int`},
		{"undeclared", mutate(t, func(d map[string]any) { at(d, "functions", 1, "params", 1)["type"] = named("CUnone", 4) }),
			`function cuPairGet: parameter 2 (dev): type "CUnone" is not declared`},
		{"kind", mutate(t, func(d map[string]any) { at(d, "functions", 1, "params", 1, "type")["kind"] = "matrix" }),
			`function cuPairGet: parameter 2 (dev): CUdevice: kind "matrix" is not a kind of type`},
		{"align-zero", mutate(t, func(d map[string]any) { at(d, "records", 0)["align"] = 0 }),
			"record CUpair: a defined record of alignment 0"},
		{"array-huge", mutate(t, func(d map[string]any) {
			at(d, "records", 0, "fields", 0)["type"] = map[string]any{"kind": "array", "c": "int [1e12]", "size": 4e12, "align": 4, "len": 1e12, "elem": map[string]any{"kind": "int", "c": "int", "size": 4, "align": 4}}
		}), "size 4000000000000 out of range"},
		{"doc-newline-in-name", mutate(t, func(d map[string]any) { at(d, "records", 0, "pos")["file"] = "cuda.h\n*/ func init() {}" }),
			`record CUpair: position: "cuda.h\n*/ func init() {}": a line break`},
		{"param-twice", mutate(t, func(d map[string]any) { at(d, "functions", 1, "params", 1)["name"] = "pair" }),
			"function cuPairGet: parameter 2 (pair): declared twice"},
		{"function-twice", mutate(t, func(d map[string]any) { at(d, "functions", 1)["name"] = "cuDeviceGetCount" }),
			"function cuDeviceGetCount: cuDeviceGetCount declared twice"},
		{"version", mutate(t, func(d map[string]any) { d["cuda_version"] = 0 }), "cuda_version 0: not a CUDA version"},
		// Found by generating each IR and building the packages: these
		// passed gofmt and did not build (the size guards of structs.go,
		// constants out of range, a constant of a struct type).
		{"named-size", mutate(t, func(d map[string]any) { at(d, "records", 0, "fields", 1, "type")["size"] = 1 }),
			"record CUpair: field 2 (b): CUdevice: size 1, but CUdevice is 4 bytes"},
		{"record-size-align", mutate(t, func(d map[string]any) { at(d, "records", 0)["size"] = 9 }),
			"typedef CUpair: struct CUpair_st: size 8, but struct CUpair_st is 9 bytes"},
		{"record-size-align-consistent", mutate(t, func(d map[string]any) {
			at(d, "records", 0)["size"] = 9
			for _, td := range d["typedefs"].([]any) {
				if n := td.(map[string]any)["name"]; n == "CUpair" || n == "CUpair2" {
					at(td, "type")["size"] = 9
				}
			}
			at(d, "functions", 1, "params", 0, "type", "elem")["size"] = 9
		}), "record CUpair: size 9 is not a multiple of its alignment 4"},
		{"enum-value-range", mutate(t, func(d map[string]any) { at(d, "enums", 0, "values", 1)["value"] = 1 << 40 }),
			"enum CUresult: value CUDA_ERROR_INVALID_VALUE: 1099511627776 does not fit the enum's 4 bytes"},
		{"macro-pointer-negative", mutate(t, func(d map[string]any) { at(d, "macros", 1)["kind"] = "pointer"; at(d, "macros", 1)["value"] = "-1" }),
			`macro CU_PAIR_SIZE: value "-1": not an address`},
		{"macro-struct-type", mutate(t, func(d map[string]any) { at(d, "macros", 1)["ctype"] = "CUpair" }),
			`macro CU_PAIR_SIZE: C type "CUpair": a named, not an integer`},
		// Found by FuzzMutateIR (corpus 2c6e57a6b8ef60f8): 08 failed
		// gofmt with the whole file, and 010 would have been octal 8.
		{"macro-leading-zero", mutate(t, func(d map[string]any) { at(d, "macros", 1)["value"] = "010" }),
			`macro CU_PAIR_SIZE: value "010": not a literal of kind int`},
		// An initializer (NCCL_CONFIG_INITIALIZER) is a composite literal
		// of the struct: members it names must exist and take the value.
		{"initializer-member", mutate(t, func(d map[string]any) {
			d["initializers"] = []any{map[string]any{"name": "CU_PAIR_INITIALIZER", "record": "CUpair", "library": "driver",
				"fields": []any{map[string]any{"name": "c", "kind": "int", "value": "1"}}, "pos": map[string]any{"file": "cuda.h", "line": 6}}}
		}), "initializer CU_PAIR_INITIALIZER: field c: not a member of CUpair"},
		{"initializer-range", mutate(t, func(d map[string]any) {
			d["initializers"] = []any{map[string]any{"name": "CU_PAIR_INITIALIZER", "record": "CUpair", "library": "driver",
				"fields": []any{map[string]any{"name": "a", "kind": "int", "value": "4294967296"}}, "pos": map[string]any{"file": "cuda.h", "line": 6}}}
		}), "initializer CU_PAIR_INITIALIZER: field a: value 4294967296 does not fit int"},
		{"macro-float-range", mutate(t, func(d map[string]any) { at(d, "macros", 1)["kind"] = "float"; at(d, "macros", 1)["value"] = "1e400" }),
			`macro CU_PAIR_SIZE: value "1e400": not a float64`},
	}
}

// TestDecodeRefusesHostileIR: every IR of hostileIRs fails Decode with its
// one-line error, naming the entry.
func TestDecodeRefusesHostileIR(t *testing.T) {
	for _, c := range hostileIRs(t) {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.ir)
			if err == nil {
				t.Fatalf("decoded; want %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want %q", err, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error of several lines: %q", err)
			}
		})
	}
}

// TestDecodeAcceptsReal: the tiny IR decodes, and a function without
// parameters (Encode writes "params": null for one) is valid.
func TestDecodeAcceptsReal(t *testing.T) {
	if _, err := Decode(tiny(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(mutate(t, func(d map[string]any) { at(d, "functions", 0)["params"] = nil })); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../../generated/cuda13/ir.json.gz")
	if err != nil {
		t.Skip(err)
	}
	api, err := Decode(b)
	if err != nil {
		t.Fatalf("generated/cuda13/ir.json.gz: %v", err)
	}
	if len(api.Functions) < 2000 {
		t.Errorf("%d functions", len(api.Functions))
	}
}

func gz(t testing.TB, parts ...[]byte) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	for _, p := range parts {
		zw.Write(p)
	}
	zw.Close()
	return b.Bytes()
}

// bomb is {"functions":[{},{},...]} with n empty functions.
func bomb(n int) [][]byte {
	return [][]byte{[]byte(`{"functions":[`), bytes.Repeat([]byte("{},"), n), []byte("{}]}")}
}

// TestDecodeBounds: what an IR holds is bounded before it is decoded. Was:
// 233 KB of gzip inflating to 240 MB of empty functions ran out of memory
// at 4 GiB.
func TestDecodeBounds(t *testing.T) {
	deep := strings.Repeat(`{"elem":`, 100) + "{}" + strings.Repeat("}", 100)
	for _, c := range []struct {
		name string
		ir   []byte
		want string
	}{
		{"functions", gz(t, bomb(60_000)...), "more than 50000 functions"},
		{"functions-plain", bytes.Join(bomb(60_000), nil), "more than 50000 functions"},
		{"inflated", gz(t, []byte(`{"origin":"x"`), bytes.Repeat([]byte(" "), 65<<20), []byte("}")), "more than 64 MiB of IR once decompressed"},
		{"params", []byte(`{"functions":[{"params":[` + strings.Repeat(`{"name":"x"},`, 500_001) + `{}]}]}`), "more than 500000 parameters"},
		{"types", []byte(`{"typedefs":[` + strings.Repeat(`{"type":`+strings.Repeat(`{"elem":`, 30)+"{}"+strings.Repeat("}", 31)+",", 40_000) + `{}]}`), "more than 1048576 types"},
		{"nesting", []byte(`{"typedefs":[{"type":` + deep + `}]}`), "JSON nested more than 64 deep"},
		{"string", []byte(`{"origin":"` + strings.Repeat("x", 1<<20+1) + `"}`), "a string of more than 1048576 bytes"},
		{"array", []byte(`{"functions":[{"aliases":[` + strings.Repeat(`"a",`, 10_000) + `"a"]}]}`), `an array "aliases" of more than 10000 elements`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.ir)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

// TestReadFileBounds: ReadFile reads regular files only, of a size checked
// before the read. Was (cugen gen -ir): /dev/zero read until out of memory.
func TestReadFileBounds(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := namedpipe.Make(fifo); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse.json")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(5 << 30); err != nil {
		t.Skip(err)
	}
	f.Close()
	for _, c := range []struct{ file, want string }{
		{"/dev/zero", "/dev/zero: not a regular file"},
		{fifo, fifo + ": not a regular file"},
		{dir, dir + ": not a regular file"},
		{sparse, sparse + ": 5368709120 bytes: larger than the 64 MiB an IR file may have"},
	} {
		_, err := ReadFile(c.file)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadFile(%s): %v, want %q", c.file, err, c.want)
		}
	}
	good := filepath.Join(dir, "ir.json")
	os.WriteFile(good, tiny(t), 0o644)
	if _, err := ReadFile(good); err != nil {
		t.Error(err)
	}
}
