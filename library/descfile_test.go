package library_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cugen/cugen/internal/namedpipe"
	"github.com/cugen/cugen/library"
	"github.com/cugen/cugen/parser/ir"
)

// goodDesc is a valid description; the bad ones below change one thing.
const goodDesc = `{
  "package": "mylib",
  "headers": ["mylib.h"],
  "prefixes": ["MYLIB_", "mylib"],
  "status": "mylibStatus_t",
  "success": "MYLIB_STATUS_SUCCESS",
  "errorString": "mylibGetErrorString",
  "sonames": ["libmylib.so.1"],
  "envVar": "MYLIB_LIBRARY",
  "overrides": {
    "directions": {"mylibGet.v": {"dir": "out", "why": "written by the library"}},
    "arrays": {"mylibSum.x": {"param": "n", "why": "n elements"}},
    "registeredCallbacks": {"mylibSetLogger": ""}
  }
}`

// TestDecodeDesc: a valid description file becomes the Desc it describes.
func TestDecodeDesc(t *testing.T) {
	f, err := library.DecodeDesc("mylib.json", []byte(goodDesc))
	if err != nil {
		t.Fatal(err)
	}
	d := f.Desc
	switch {
	case d.Key != "mylib" || d.Package != "mylib" || d.Title != "mylib" || d.API != "mylib":
		t.Errorf("names: %+v", d)
	case len(d.Include) != 1 || d.Include[0] != "mylib.h" || len(d.Declare) != 1 || d.Declare[0] != "mylib.h":
		t.Errorf("headers: %v %v", d.Include, d.Declare)
	case d.Status != "mylibStatus_t" || d.ErrorString != "mylibGetErrorString" || f.Success != "MYLIB_STATUS_SUCCESS":
		t.Errorf("status: %+v", d)
	case d.Load.EnvVar != "MYLIB_LIBRARY" || d.Load.FilesFor(12)[0] != "libmylib.so.1" || d.Load.FilesFor(13)[0] != "libmylib.so.1" || d.Load.Identify != "mylibGetErrorString":
		t.Errorf("load: %+v", d.Load)
	case d.Overrides.Directions["mylibGet.v"].Dir != ir.Out || d.Overrides.Arrays["mylibSum.x"].Param != "n":
		t.Errorf("overrides: %+v", d.Overrides)
	}
	if u, ok := d.Overrides.RegisteredCallbacks["mylibSetLogger"]; !ok || u != "" {
		t.Errorf("registered callbacks: %v", d.Overrides.RegisteredCallbacks)
	}
	if d.OneThread != "" {
		t.Errorf("OneThread %q without oneThread", d.OneThread)
	}
	f, err = library.DecodeDesc("mylib.json", []byte(strings.Replace(goodDesc, `"package": "mylib",`, `"package": "mylib", "oneThread": "mylib keeps its state per thread",`, 1)))
	if err != nil || f.Desc.OneThread != "mylib keeps its state per thread" {
		t.Errorf("oneThread: %v, OneThread %q", err, f.Desc.OneThread)
	}
}

// TestBadDescFiles: each broken description file is one line naming the
// file, the place or field, and what is wrong; none is a panic.
func TestBadDescFiles(t *testing.T) {
	swap := func(old, new string) string {
		if !strings.Contains(goodDesc, old) {
			t.Fatalf("goodDesc lacks %q", old)
		}
		return strings.Replace(goodDesc, old, new, 1)
	}
	for _, c := range []struct{ name, json, want string }{
		{"empty", ``, "mylib.json: empty: a library description is a JSON object"},
		{"not json", `{"package": mylib}`, `mylib.json:1:13: not JSON: invalid character 'm' looking for beginning of value`},
		{"cut short", `{"package": "mylib",`, "mylib.json: not JSON: the file ends inside the description"},
		{"unknown field", swap(`"envVar"`, `"envvar"`), `mylib.json: unknown field "envvar"`},
		{"unknown nested field", swap(`"why": "n elements"`, `"because": "n elements"`), `mylib.json: unknown field "overrides.arrays[\"mylibSum.x\"].because"`},
		{"wrong type", swap(`"headers": ["mylib.h"]`, `"headers": "mylib.h"`), "mylib.json:3:23: field headers: a JSON string where a list goes"},
		{"trailing", goodDesc + "{}", "mylib.json:15:2: more after the description's closing brace"},
		{"a list", `[]`, "field (the description): a JSON array where an object goes"},
		{"no package", swap(`"package": "mylib",`, ``), "mylib.json: field package: required"},
		{"bad package", swap(`"package": "mylib"`, `"package": "My-Lib"`), `mylib.json: field package: "My-Lib" is not a Go package name`},
		{"keyword package", swap(`"package": "mylib"`, `"package": "func"`), `field package: "func" is reserved`},
		{"cudart package", swap(`"package": "mylib"`, `"package": "cudart"`), `field package: "cudart" is reserved`},
		{"no headers", swap(`"headers": ["mylib.h"]`, `"headers": []`), "mylib.json: field headers: required"},
		{"header escapes", swap(`"mylib.h"`, `"../mylib.h"`), `mylib.json: field headers[0]: "../mylib.h" is not a header name`},
		{"absolute header", swap(`"mylib.h"`, `"/usr/include/mylib.h"`), `field headers[0]: "/usr/include/mylib.h" is not a header name`},
		{"header of cudart", swap(`"mylib.h"`, `"cuda_runtime_api.h"`), "mylib.json: header cuda_runtime_api.h declared by both runtime and mylib"},
		{"no prefixes", swap(`"prefixes": ["MYLIB_", "mylib"]`, `"prefixes": []`), "mylib.json: field prefixes: required"},
		{"bad prefix", swap(`"MYLIB_"`, `"MY LIB"`), `mylib.json: field prefixes[0]: "MY LIB" is not the start of a C identifier`},
		{"no status", swap(`"status": "mylibStatus_t",`, ``), "mylib.json: field status: required"},
		{"bad status", swap(`"mylibStatus_t"`, `"mylibStatus_t;"`), `mylib.json: field status: "mylibStatus_t;" is not a C identifier`},
		{"no sonames", swap(`"sonames": ["libmylib.so.1"]`, `"sonames": []`), "mylib.json: field sonames: required"},
		{"soname path", swap(`"libmylib.so.1"`, `"/opt/lib/libmylib.so.1"`), `mylib.json: field sonames[0]: "/opt/lib/libmylib.so.1" is not a shared object's file name`},
		{"bad env var", swap(`"MYLIB_LIBRARY"`, `"MYLIB LIBRARY"`), `mylib.json: field envVar: "MYLIB LIBRARY" is not an environment variable name`},
		{"no identify", swap(`"errorString": "mylibGetErrorString",`, ``), "mylib.json: field identify: required without errorString"},
		{"title newline", swap(`"package": "mylib",`, `"package": "mylib", "title": "my\nlib",`), `mylib.json: field title: "my\nlib": one line of printable text`},
		{"oneThread of two lines", swap(`"package": "mylib",`, `"package": "mylib", "oneThread": "a\nb",`), `mylib.json: field oneThread: "a\nb": one line of printable text`},
		{"doc with a NUL", swap(`"package": "mylib",`, `"package": "mylib", "doc": "a\u0000b",`), "mylib.json: field doc: not printable UTF-8 text"},
		{"bad direction", swap(`"dir": "out"`, `"dir": "output"`), `mylib.json: field overrides.directions: "mylibGet.v": dir "output" is not in, out or inout`},
		{"direction key", swap(`"mylibGet.v"`, `"mylibGet"`), `mylib.json: field overrides.directions: "mylibGet": not FUNCTION.PARAMETER`},
		{"no why", swap(`"why": "n elements"`, `"why": ""`), `mylib.json: field overrides.arrays: "mylibSum.x": why is required`},
		{"array len and param", swap(`"param": "n"`, `"param": "n", "len": 4`), `field overrides.arrays: "mylibSum.x": give len or param, not both`},
		{"bad unregister", swap(`"mylibSetLogger": ""`, `"mylibSetLogger": "un register"`), `field overrides.registeredCallbacks: "mylibSetLogger": the unregister function "un register" is not a C function name`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := library.DecodeDesc("mylib.json", []byte(c.json))
			if err == nil {
				t.Fatalf("no error; want %q", c.want)
			}
			if msg := err.Error(); !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "mylib.json") {
				t.Errorf("error %q; want one line starting with the file, containing %q", msg, c.want)
			}
		})
	}
}

// FuzzDecodeDesc: whatever the bytes, DecodeDesc returns a description
// that passes Check or a one-line error naming the file; it never panics.
func FuzzDecodeDesc(f *testing.F) {
	f.Add([]byte(goodDesc))
	f.Add([]byte(`{"package": "x", "overrides": {"arrays": {"a.b": {"len": -1}}}}`))
	f.Add([]byte(`[{"package": 1}]`))
	f.Add([]byte(`{"overrides": {"directions": {"f.p": []}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := library.DecodeDesc("f.json", data)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "f.json") || strings.Contains(msg, "\n") {
				t.Fatalf("error %q: not one line starting with the file", msg)
			}
			return
		}
		if err := library.Check([]*library.Desc{library.Driver, library.Runtime, d.Desc}); err != nil {
			t.Fatalf("decoded a description Check refuses: %v", err)
		}
	})
}

// TestReadDescFileBounded: a description file is read as hostile input:
// a FIFO is refused at once (never waited on), a file over the limit
// before it is read.
func TestReadDescFileBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := namedpipe.Make(fifo); err != nil {
		t.Skip(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(`{"doc": "`+strings.Repeat("x", library.DescFileLimit)+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, want string }{
		{fifo, fifo + ": not a regular file"},
		{big, big + ": 1048587 bytes: larger than the 1 MiB a library description may have"},
		{filepath.Join(dir, "missing.json"), "missing.json: no such file or directory"},
	} {
		done := make(chan error, 1)
		go func() { _, err := library.ReadDescFile(c.file); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: error %v; want %q", filepath.Base(c.file), err, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: ReadDescFile did not return within 10 s", filepath.Base(c.file))
		}
	}
}
