package emit

import "github.com/dave/jennifer/jen"

// field is one "Key: value" element of a struct literal.
type field struct {
	key   string
	value jen.Code
}

// fields is a struct literal's elements in the order given, one a line:
// the struct's declared order, as a person writes it. (jen.Dict sorts its
// keys by name.) Use as T.Values(fields(...)...).
func fields(fs ...field) []jen.Code {
	out := make([]jen.Code, 0, len(fs)+1)
	for _, f := range fs {
		out = append(out, jen.Line().Id(f.key).Op(":").Add(f.value))
	}
	return append(out, jen.Line())
}
