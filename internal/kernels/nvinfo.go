package kernels

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
)

// ParamInfo is what a cubin says of one kernel parameter: its ordinal,
// byte offset in the parameter buffer and size, from the kernel's
// .nv.info.NAME section (EIATTR_KPARAM_INFO). The driver reports the same
// through cuFuncGetParamInfo; reading it from the ELF needs no GPU.
type ParamInfo struct {
	Ordinal, Offset, Size int
}

// The .nv.info attribute format: a byte of format, a byte of attribute,
// then by format a 2-byte field (no value, a 1-byte or a 2-byte value), or
// a 2-byte length and that many bytes.
const (
	eifmtNVal = 1
	eifmtBVal = 2
	eifmtHVal = 3
	eifmtSVal = 4

	eiattrKParamInfo = 0x17
)

// KernelParams reads every kernel's parameters from a cubin: lowered
// kernel name -> parameters in ordinal order. A kernel without
// parameters has an empty list.
func KernelParams(cubin []byte) (map[string][]ParamInfo, error) {
	secs, err := sections(cubin)
	if err != nil {
		return nil, fmt.Errorf("cubin: %w", err)
	}
	out := map[string][]ParamInfo{}
	for _, s := range secs {
		name, ok := strings.CutPrefix(s.name, ".nv.info.")
		if !ok {
			continue
		}
		params, err := parseInfo(s.data)
		if err != nil {
			return nil, fmt.Errorf("cubin: section %s: %w", s.name, err)
		}
		out[name] = params
	}
	return out, nil
}

type section struct {
	name string
	data []byte
}

// sections reads an ELF64 little-endian file's sections. A cubin's
// e_version is NVIDIA's own (debug/elf refuses it), so only the headers
// cugen needs are read here, each bounds-checked against the file.
func sections(b []byte) ([]section, error) {
	if len(b) < 64 || !bytes.HasPrefix(b, []byte("\x7fELF")) || b[4] != 2 || b[5] != 1 {
		return nil, fmt.Errorf("not a 64-bit little-endian ELF file")
	}
	le := binary.LittleEndian
	shoff, shentsize, shnum, shstrndx := le.Uint64(b[0x28:]), int(le.Uint16(b[0x3a:])), int(le.Uint16(b[0x3c:])), int(le.Uint16(b[0x3e:]))
	if shentsize < 64 || shoff > uint64(len(b)) || uint64(shnum)*uint64(shentsize) > uint64(len(b))-shoff || shstrndx >= shnum {
		return nil, fmt.Errorf("section headers out of the file")
	}
	hdr := func(i int) []byte { o := int(shoff) + i*shentsize; return b[o : o+shentsize] }
	data := func(h []byte) ([]byte, error) {
		off, size := le.Uint64(h[24:]), le.Uint64(h[32:])
		if le.Uint32(h[4:]) == uint32(elf.SHT_NOBITS) {
			return nil, nil
		}
		if off > uint64(len(b)) || size > uint64(len(b))-off {
			return nil, fmt.Errorf("section data out of the file")
		}
		return b[off : off+size], nil
	}
	strs, err := data(hdr(shstrndx))
	if err != nil {
		return nil, err
	}
	var out []section
	for i := 0; i < shnum; i++ {
		h := hdr(i)
		nameOff := int(le.Uint32(h[0:]))
		if nameOff >= len(strs) {
			return nil, fmt.Errorf("section %d: name out of the string table", i)
		}
		name := strs[nameOff:]
		if j := bytes.IndexByte(name, 0); j >= 0 {
			name = name[:j]
		}
		d, err := data(h)
		if err != nil {
			return nil, fmt.Errorf("section %s: %w", name, err)
		}
		out = append(out, section{string(name), d})
	}
	return out, nil
}

func parseInfo(b []byte) ([]ParamInfo, error) {
	params := []ParamInfo{}
	for len(b) > 0 {
		if len(b) < 2 {
			return nil, fmt.Errorf("truncated attribute")
		}
		format, attr := b[0], b[1]
		b = b[2:]
		var val []byte
		switch format {
		case eifmtNVal, eifmtBVal, eifmtHVal:
			// records are 4-byte aligned: a value of none, 1 or 2 bytes
			// takes a 2-byte field
			if len(b) < 2 {
				return nil, fmt.Errorf("truncated attribute %#x", attr)
			}
			b = b[2:]
		case eifmtSVal:
			if len(b) < 2 {
				return nil, fmt.Errorf("truncated attribute %#x", attr)
			}
			n := int(binary.LittleEndian.Uint16(b))
			if len(b) < 2+n {
				return nil, fmt.Errorf("attribute %#x: %d bytes, %d left", attr, n, len(b)-2)
			}
			val, b = b[2:2+n], b[2+n:]
		default:
			return nil, fmt.Errorf("unknown attribute format %#x ", format)
		}
		if attr == eiattrKParamInfo && format == eifmtSVal {
			if len(val) < 12 {
				return nil, fmt.Errorf("EIATTR_KPARAM_INFO of %d bytes", len(val))
			}
			ord := binary.LittleEndian.Uint16(val[4:])
			off := binary.LittleEndian.Uint16(val[6:])
			flags := binary.LittleEndian.Uint32(val[8:])
			params = append(params, ParamInfo{Ordinal: int(ord), Offset: int(off), Size: int(flags >> 18)})
		}
	}
	sort.Slice(params, func(i, j int) bool { return params[i].Ordinal < params[j].Ordinal })
	return params, nil
}
