package ir

import "fmt"

// Limits bound what an IR may hold, checked on the JSON before it is
// decoded (Decode): a gzip of a few hundred kilobytes inflates to the 64 MiB
// of MaxDecoded, and 64 MiB of `{},` would decode into gigabytes of empty
// functions. Each bound leaves generous headroom over the real IRs: the
// numbers in the comments are the largest of CUDA 12.4 and 13.0 (every
// library cugen binds; docs/reliability.md).
var Limits = struct {
	// Elements of every array under one key, summed over the IR.
	Functions, Enums, Records, Typedefs, Macros, Sources int
	Params, Fields, Values                               int
	// Types counts every type object (a parameter's, a result, a
	// member's, a typedef's, a pointer's element ...).
	Types int
	// Objects and arrays of any kind, in all.
	Values2 int
	// Elements of any one array not named above.
	Array int
	// Nesting of objects and arrays.
	Depth int
	// Bytes of one string (a name, a C spelling, a paragraph of a doc).
	String int
}{
	Functions: 50_000,  // 2,667
	Enums:     20_000,  // 331
	Records:   20_000,  // 513
	Typedefs:  50_000,  // 1,425
	Macros:    50_000,  // 858
	Sources:   10_000,  // 40
	Params:    500_000, // 22,071 (callbacks' included)
	Fields:    200_000, // 1,831
	Values:    200_000, // 3,404
	Types:     1 << 20, // 33,089
	Values2:   4 << 20, // 96,886
	Array:     10_000,  // 50 (a doc's paragraphs)
	Depth:     64,      // 11
	String:    1 << 20, // 3,471 (a doc's paragraph)
}

// keyLimit is the bound on the elements of arrays under key, summed, and
// what they are called in an error; ok is false for an array bounded by
// Limits.Array alone.
func keyLimit(key string) (what string, max int, ok bool) {
	switch key {
	case "functions":
		return "functions", Limits.Functions, true
	case "enums":
		return "enums", Limits.Enums, true
	case "records":
		return "records", Limits.Records, true
	case "typedefs":
		return "typedefs", Limits.Typedefs, true
	case "macros":
		return "macros", Limits.Macros, true
	case "sources":
		return "sources", Limits.Sources, true
	case "params":
		return "parameters", Limits.Params, true
	case "fields":
		return "fields", Limits.Fields, true
	case "values":
		return "enum values", Limits.Values, true
	}
	return "", 0, false
}

// limitScanner counts what encoding/json would allocate for a JSON text fed
// to it in pieces: objects and arrays (types by the key they are the value
// of), array elements and string bytes, and fails at the first bound of
// Limits exceeded, so a decompressed stream can be stopped as soon as it
// holds too much. It never fails on malformed JSON (Unmarshal reports that,
// before it allocates anything); its work is linear in the input and its
// memory bounded by Limits.Depth.
type limitScanner struct {
	stack      []scanFrame
	sums       map[string]int
	containers int
	types      int
	off        int    // bytes fed so far
	key        string // the last member key of the innermost object
	expectKey  bool   // the next string of the innermost object is a member key
	prev       byte   // the last structural byte, or 'v' after a value
	inString   bool
	escape     bool
	strLen     int
	strKey     bool   // the open string is a member key
	keyBuf     []byte // its bytes (up to 32)
}

type scanFrame struct {
	array bool
	key   string // the member key the container is the value of; an array's elements inherit it
	n     int    // elements so far, of an array
}

// elem counts a value starting at byte off in an array.
func (s *limitScanner) elem(off int) error {
	if len(s.stack) == 0 || !s.stack[len(s.stack)-1].array || s.prev != '[' && s.prev != ',' {
		return nil
	}
	f := &s.stack[len(s.stack)-1]
	f.n++
	if what, max, ok := keyLimit(f.key); ok {
		if s.sums == nil {
			s.sums = map[string]int{}
		}
		s.sums[f.key]++
		if s.sums[f.key] > max {
			return fmt.Errorf("more than %d %s (at byte %d): more than an IR may hold", max, what, off)
		}
	} else if f.n > Limits.Array {
		return fmt.Errorf("an array %q of more than %d elements (at byte %d): more than an IR may hold", f.key, Limits.Array, off)
	}
	return nil
}

func (s *limitScanner) feed(b []byte) error {
	for i, c := range b {
		off := s.off + i
		if s.inString {
			switch {
			case s.escape:
				s.escape = false
			case c == '\\':
				s.escape = true
			case c == '"':
				s.inString = false
				if s.strKey {
					s.key = string(s.keyBuf)
				}
				continue
			}
			s.strLen++
			if s.strLen > Limits.String {
				return fmt.Errorf("a string of more than %d bytes (at byte %d): more than an IR string may have", Limits.String, off)
			}
			if s.strKey && len(s.keyBuf) <= 32 {
				s.keyBuf = append(s.keyBuf, c)
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			s.inString, s.strLen, s.strKey = true, 0, s.expectKey
			s.keyBuf = s.keyBuf[:0]
			if s.expectKey {
				s.expectKey = false
			} else if err := s.elem(off); err != nil {
				return err
			}
			s.prev = 'v'
			continue
		case '{', '[':
			if err := s.elem(off); err != nil {
				return err
			}
			s.containers++
			if s.containers > Limits.Values2 {
				return fmt.Errorf("more than %d JSON objects and arrays (at byte %d): more than an IR may hold", Limits.Values2, off)
			}
			if len(s.stack) >= Limits.Depth {
				return fmt.Errorf("JSON nested more than %d deep (at byte %d): deeper than an IR may be", Limits.Depth, off)
			}
			k := s.key
			if len(s.stack) > 0 && s.stack[len(s.stack)-1].array {
				k = s.stack[len(s.stack)-1].key // an element is named by its array
			}
			if c == '{' && (k == "type" || k == "result" || k == "elem") {
				s.types++
				if s.types > Limits.Types {
					return fmt.Errorf("more than %d types (at byte %d): more than an IR may hold", Limits.Types, off)
				}
			}
			s.stack = append(s.stack, scanFrame{array: c == '[', key: k})
			s.expectKey = c == '{'
			s.key = ""
		case '}', ']':
			if len(s.stack) > 0 {
				s.stack = s.stack[:len(s.stack)-1]
			}
			s.expectKey = false
		case ',':
			s.expectKey = len(s.stack) > 0 && !s.stack[len(s.stack)-1].array
		case ':':
		default: // a number, true, false or null
			if err := s.elem(off); err != nil {
				return err
			}
			s.prev = 'v'
			continue
		}
		s.prev = c
	}
	s.off += len(b)
	return nil
}
