package emit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/cugen/cugen/parser/ir"
)

// The API manifest (api.txt in every generated package) is the package's C
// API without documentation: one JSON object per line, one line per
// function, record, enum, typedef and macro, in header order. A review of a
// regeneration shows each API change as a changed line, and cugen gen reads
// the previous manifest back to print what a new header set changed
// (apidiff), since the old headers may no longer be at hand.

const manifestFile = "api.txt"

type manifestLine struct {
	Function *ir.Function `json:"function,omitempty"`
	Record   *ir.Record   `json:"record,omitempty"`
	Enum     *ir.Enum     `json:"enum,omitempty"`
	Typedef  *ir.Typedef  `json:"typedef,omitempty"`
	Macro    *ir.Macro    `json:"macro,omitempty"`
}

// API returns the package's part of the IR: what the manifest holds.
func (p *Package) API() *ir.API { return p.api }

func (m *model) manifestAPI() *ir.API {
	api := &ir.API{CUDAVersion: m.api.CUDAVersion, RuntimeVersion: m.api.RuntimeVersion}
	for _, f := range m.funcs {
		c := *f
		c.Doc, c.Pos = nil, ir.Pos{}
		c.Params = append([]ir.Param(nil), f.Params...)
		for i := range c.Params {
			c.Params[i].Doc, c.Params[i].Why = "", ""
		}
		api.Functions = append(api.Functions, &c)
	}
	for _, r := range m.recs {
		c := *r
		c.Doc, c.Pos = nil, ir.Pos{}
		c.Fields = stripFields(r.Fields)
		api.Records = append(api.Records, &c)
	}
	for _, e := range m.ens {
		c := *e
		c.Doc, c.Pos = nil, ir.Pos{}
		c.Values = append([]ir.EnumValue(nil), e.Values...)
		for i := range c.Values {
			c.Values[i].Doc = nil
		}
		api.Enums = append(api.Enums, &c)
	}
	for _, t := range m.tds {
		c := *t
		c.Doc, c.Pos = nil, ir.Pos{}
		api.Typedefs = append(api.Typedefs, &c)
	}
	for _, mc := range m.macros {
		c := *mc
		c.Doc, c.Pos = nil, ir.Pos{}
		api.Macros = append(api.Macros, &c)
	}
	return api
}

func stripFields(fs []ir.Field) []ir.Field {
	out := append([]ir.Field(nil), fs...)
	for i := range out {
		out[i].Doc = nil
		if out[i].Record != nil {
			r := *out[i].Record
			r.Doc, r.Pos = nil, ir.Pos{}
			r.Fields = stripFields(r.Fields)
			out[i].Record = &r
		}
	}
	return out
}

func (m *model) manifest(api *ir.API) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n", m.header())
	fmt.Fprintf(&b, "# The C API of package %s without documentation, one JSON object a line.\n", m.pkg)
	fmt.Fprintf(&b, "# version %d %d\n", api.CUDAVersion, api.RuntimeVersion)
	add := func(l manifestLine) error {
		j, err := json.Marshal(l)
		if err != nil {
			return err
		}
		b.Write(j)
		b.WriteByte('\n')
		return nil
	}
	for _, f := range api.Functions {
		if err := add(manifestLine{Function: f}); err != nil {
			return nil, err
		}
	}
	for _, r := range api.Records {
		if err := add(manifestLine{Record: r}); err != nil {
			return nil, err
		}
	}
	for _, e := range api.Enums {
		if err := add(manifestLine{Enum: e}); err != nil {
			return nil, err
		}
	}
	for _, t := range api.Typedefs {
		if err := add(manifestLine{Typedef: t}); err != nil {
			return nil, err
		}
	}
	for _, mc := range api.Macros {
		if err := add(manifestLine{Macro: mc}); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// ReadManifest reads the api.txt of a generated package directory; it
// returns nil, nil when there is none (a first generation).
func ReadManifest(dir string) (*ir.API, error) {
	p := dir + string(os.PathSeparator) + manifestFile
	// Never open anything but a regular file: a FIFO would block the run.
	st, err := os.Lstat(p)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("cugen: %s is not a regular file (%v): not written by cugen", p, st.Mode().Type())
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	api := &ir.API{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "# version "); ok {
			fmt.Sscan(v, &api.CUDAVersion, &api.RuntimeVersion)
			continue
		}
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		var l manifestLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			return nil, fmt.Errorf("%s/%s:%d: %w", dir, manifestFile, n, err)
		}
		switch {
		case l.Function != nil:
			api.Functions = append(api.Functions, l.Function)
		case l.Record != nil:
			api.Records = append(api.Records, l.Record)
		case l.Enum != nil:
			api.Enums = append(api.Enums, l.Enum)
		case l.Typedef != nil:
			api.Typedefs = append(api.Typedefs, l.Typedef)
		case l.Macro != nil:
			api.Macros = append(api.Macros, l.Macro)
		}
	}
	return api, sc.Err()
}
