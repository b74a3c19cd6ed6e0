package ir

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/cugen/cugen/internal/bounded"
)

// MaxDecoded bounds an IR once decompressed, and an IR file as read: the
// whole CUDA 13.0 family is 7.2 MB of JSON (0.6 MB compressed), and a
// hostile file must not inflate without end. What the JSON holds is bounded
// too, by count (Limits), before it is decoded.
const MaxDecoded = 64 << 20

// Encode writes api as compact JSON, gzip-compressed when compress is set,
// deterministically (the gzip header has no name and no time), the form
// generated/cuda13/ir.json.gz is committed in.
func Encode(w io.Writer, api *API, compress bool) error {
	if !compress {
		return json.NewEncoder(w).Encode(api)
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := json.NewEncoder(zw).Encode(api); err != nil {
		return err
	}
	return zw.Close()
}

// ReadFile reads and decodes an IR file (Decode) under internal/bounded's
// rules: a regular file only (a FIFO or a device such as /dev/zero is
// refused before it is read), of at most MaxDecoded bytes, read with that
// bound (a file that grows while it is read stops there). Errors name the
// file.
func ReadFile(name string) (*API, error) {
	b, err := bounded.ReadFile(name, bounded.Options{Limit: MaxDecoded, What: "an IR file"})
	if err != nil {
		var be *bounded.Error
		if errors.As(err, &be) {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return nil, err // the os error names the file
	}
	api, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return api, nil
}

// Decode reads an IR Encode wrote, compressed or not, and checks it
// (Validate). The JSON is bounded before it is decoded: MaxDecoded bytes
// once decompressed, and the counts of Limits (functions, parameters, types,
// fields, enum values, nesting, string lengths), so that a small input
// cannot decode into gigabytes of values.
func Decode(b []byte) (*API, error) {
	var scan limitScanner
	if bytes.HasPrefix(b, []byte{0x1f, 0x8b}) { // gzip
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		// Inflated in pieces, each scanned as it arrives: an input that
		// holds too much stops there, not at MaxDecoded.
		var out bytes.Buffer
		buf := make([]byte, 64<<10)
		for {
			n, err := zr.Read(buf)
			if out.Len()+n > MaxDecoded {
				return nil, fmt.Errorf("more than %d MiB of IR once decompressed", MaxDecoded>>20)
			}
			if serr := scan.feed(buf[:n]); serr != nil {
				return nil, serr
			}
			out.Write(buf[:n])
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
		}
		b = out.Bytes()
	} else {
		if len(b) > MaxDecoded {
			return nil, fmt.Errorf("%d bytes: more than the %d MiB of JSON an IR may have", len(b), MaxDecoded>>20)
		}
		if err := scan.feed(b); err != nil {
			return nil, err
		}
	}
	api := new(API)
	if err := json.Unmarshal(b, api); err != nil {
		return nil, err
	}
	if err := Validate(api); err != nil {
		return nil, err
	}
	return api, nil
}
