package ir

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
)

// MaxDecoded bounds an IR once decompressed: the whole CUDA 13.0 family is
// 16 MB, and a hostile file must not inflate without end.
const MaxDecoded = 256 << 20

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

// Decode reads an IR Encode wrote, compressed or not.
func Decode(b []byte) (*API, error) {
	if bytes.HasPrefix(b, []byte{0x1f, 0x8b}) { // gzip
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		if b, err = io.ReadAll(io.LimitReader(zr, MaxDecoded+1)); err != nil {
			return nil, err
		}
		if len(b) > MaxDecoded {
			return nil, fmt.Errorf("more than %d MiB of IR once decompressed", MaxDecoded>>20)
		}
	}
	api := new(API)
	if err := json.Unmarshal(b, api); err != nil {
		return nil, err
	}
	return api, nil
}
