package cuda

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// badParamInfos are parameter infos no kernel has, as a broken or hostile
// driver (cuFuncGetParamInfo) could answer them: offset, size of each.
var badParamInfos = []struct {
	name   string
	params [][2]uint64
	want   string
}{
	{"negative offset", [][2]uint64{{0, 8}, {1<<64 - 4, 4}}, "parameter 1: the driver reports offset -4, size 4"},
	{"offset 1 TiB", [][2]uint64{{0, 4}, {1 << 40, 4}}, "parameter 1: the driver reports offset 1099511627776, size 4: ends past"},
	{"past the limit", [][2]uint64{{32760, 8}}, "parameter 0: the driver reports offset 32760, size 8: ends past the 32764 bytes"},
	{"size past the limit", [][2]uint64{{0, 1 << 63}}, "parameter 0: the driver reports offset 0, size 9223372036854775808: ends past"},
	{"size 0", [][2]uint64{{0, 4}, {4, 0}}, "parameter 1: the driver reports offset 4, size 0: size 0"},
	{"overlapping", [][2]uint64{{0, 8}, {4, 4}}, "parameter 1: the driver reports offset 4, size 4: overlaps parameter 0 (offset 0, size 8)"},
	{"not increasing", [][2]uint64{{8, 4}, {0, 4}}, "parameter 1: the driver reports offset 0, size 4: below parameter 0's offset 8"},
}

// TestBadParamInfo: parameter info that cannot be right is an error of
// Module.Kernel naming the kernel and the parameter, before any launch
// (it made Launch panic with a slice bound out of range, or allocate the
// offset's bytes: a 1 TiB offset ran out of memory).
func TestBadParamInfo(t *testing.T) {
	for _, c := range badParamInfos {
		t.Run(c.name, func(t *testing.T) {
			f, ctx := newFake(t)
			defer ctx.Close()
			m := fakeModule(ctx)
			defer m.Close()
			f.params = c.params
			k, err := m.Kernel("k")
			if err == nil {
				t.Fatalf("Kernel: no error; parameters %v", k.params)
			}
			if !strings.Contains(err.Error(), `kernel "k": `+c.want) {
				t.Fatalf("Kernel: %v\nwant it to contain %q", err, c.want)
			}
		})
	}
	// The limits themselves are fine.
	for _, ok := range [][][2]uint64{{}, {{0, 32764}}, {{0, 4}, {8, 8}, {16, 8}, {24, 4}}, {{0, 1}, {1, 1}, {32763, 1}}} {
		f, ctx := newFake(t)
		m := fakeModule(ctx)
		f.params = ok
		k, err := m.Kernel("k")
		if err != nil {
			t.Errorf("%v: %v", ok, err)
		} else if ps, known := k.Params(); !known || len(ps) != len(ok) {
			t.Errorf("%v: parameters %v (known %v)", ok, ps, known)
		}
		m.Close()
		ctx.Close()
	}
}

// fuzzArg makes argument i of kind b: every type Launch accepts, and a few
// it refuses.
func fuzzArg(b byte, i int, buf *Buffer[float32]) any {
	v := uint64(i+1) * 0x0102030405060708
	switch b % 20 {
	case 0:
		return int8(v)
	case 1:
		return uint8(v)
	case 2:
		return v&1 == 1
	case 3:
		return int16(v)
	case 4:
		return uint16(v)
	case 5:
		return int32(v)
	case 6:
		return uint32(v)
	case 7:
		return float32(v)
	case 8:
		return int64(v)
	case 9:
		return v
	case 10:
		return float64(v)
	case 11:
		return vec3{float32(v), 2, 3}
	case 12:
		return pair{int8(v), float64(v)}
	case 13:
		return [5]byte{byte(v), 1, 2, 3, 4}
	case 14:
		return int(v) // Go's int: only for an 8-byte parameter
	case 15:
		return buf
	case 16:
		return struct{}{} // no C++ type of size 0
	case 17:
		return "pointers"
	case 18:
		return [3]uint16{uint16(v), 7, 9}
	}
	return uintptr(v)
}

// argBytes is what the kernel must receive for a: its C bytes.
func argBytes(a any) []byte {
	if b, ok := a.(*Buffer[float32]); ok {
		a = uint64(b.Ptr())
	}
	v := reflect.New(reflect.TypeOf(a))
	v.Elem().Set(reflect.ValueOf(a))
	return bytes.Clone(unsafe.Slice((*byte)(v.UnsafePointer()), v.Elem().Type().Size()))
}

// paramRecords is what the fuzzer's driver reports: 16 bytes a parameter
// (offset, size, little-endian); a last record shorter than 16 bytes makes
// the driver fail (the parameters are then unknown).
func paramRecords(ps [][2]uint64, unknown bool) []byte {
	var b []byte
	for _, p := range ps {
		b = binary.LittleEndian.AppendUint64(b, p[0])
		b = binary.LittleEndian.AppendUint64(b, p[1])
	}
	if unknown {
		b = append(b, 0)
	}
	return b
}

// FuzzPackParams: whatever parameter info the driver reports and whatever
// arguments Launch gets, nothing panics and nothing allocates beyond the
// 32764 bytes of parameters: the info is accepted (offsets increasing,
// sizes > 0, inside the limit) or refused naming the kernel and the
// parameter, and the arguments are packed, each at its offset with its C
// bytes, or refused by an error.
func FuzzPackParams(f *testing.F) {
	for _, c := range badParamInfos {
		f.Add(paramRecords(c.params, false), bytes.Repeat([]byte{8}, len(c.params)))
	}
	f.Add(paramRecords([][2]uint64{{0, 4}, {8, 8}, {16, 8}, {24, 4}}, false), []byte{7, 15, 15, 5})
	f.Add(paramRecords([][2]uint64{{0, 1}, {4, 4}, {8, 8}, {16, 12}, {32, 16}, {48, 5}, {54, 6}}, false), []byte{0, 5, 10, 11, 12, 13, 18})
	f.Add(paramRecords([][2]uint64{{0, 8}}, false), []byte{14})
	f.Add(paramRecords([][2]uint64{{0, 8}}, false), []byte{16})
	f.Add(paramRecords(nil, true), []byte{0, 5, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19})
	f.Add(paramRecords(nil, true), bytes.Repeat([]byte{16}, 20))
	f.Add(paramRecords(nil, true), bytes.Repeat([]byte{12}, 40))

	fk, ctx := newFake(f)
	m := fakeModule(ctx)
	buf, err := Alloc[float32](ctx, 4)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, info, kinds []byte) {
		if len(kinds) > 4096 {
			kinds = kinds[:4096]
		}
		params, known, err := paramInfoOf("fuzz", func(i uint64) (uint64, uint64, error) {
			if i >= uint64(len(info)/16) {
				if len(info)%16 != 0 {
					return 0, 0, errors.New("the driver failed")
				}
				return 0, 0, cu.ErrorInvalidValue
			}
			r := info[16*i:]
			return binary.LittleEndian.Uint64(r), binary.LittleEndian.Uint64(r[8:]), nil
		})
		if err != nil {
			if known || params != nil || !strings.HasPrefix(err.Error(), `cuda: kernel "fuzz": parameter `) {
				t.Fatalf("refused info: %v, known %v, params %v", err, known, params)
			}
			return
		}
		end := 0
		for i, p := range params {
			if p.Size <= 0 || p.Offset < end || p.Offset+p.Size > maxParamBytes {
				t.Fatalf("accepted parameter %d: %v (end of the ones before %d)", i, p, end)
			}
			end = p.Offset + p.Size
		}
		args := make([]any, len(kinds))
		for i, b := range kinds {
			args[i] = fuzzArg(b, i, buf)
		}
		k := &Kernel{name: "fuzz", mod: m, params: params, known: known}
		size, err := k.layout(args)
		before := fk.launches.Load()
		lerr := k.Launch(Config{}, args...)
		if (err == nil) != (lerr == nil) || (err == nil) != (fk.launches.Load() == before+1) {
			t.Fatalf("layout: %v; Launch: %v", err, lerr)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "cuda: kernel fuzz") {
				t.Fatalf("error: %v", err)
			}
			return
		}
		if size < 0 || known && size > maxParamBytes || !known && size > 64*len(args) {
			t.Fatalf("%d bytes of parameters for %d arguments", size, len(args))
		}
		words := make([]uint64, (size+7)/8)
		offs := make([]int, len(args))
		k.packFree(args, words, offs)
		packed := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), len(words)*8)
		end = 0
		for i, a := range args {
			want := argBytes(a)
			off := offs[i]
			if known && off != params[i].Offset || off < end || off+len(want) > size {
				t.Fatalf("argument %d (%T, %d bytes) at offset %d; end before %d, size %d, params %v", i, a, len(want), off, end, size, params)
			}
			if !known && off%reflect.TypeOf(a).Align() != 0 {
				t.Fatalf("argument %d (%T) at offset %d: misaligned", i, a, off)
			}
			if got := packed[off : off+len(want)]; !bytes.Equal(got, want) {
				t.Fatalf("argument %d (%T) at %d: packed % x, want % x", i, a, off, got, want)
			}
			end = off + len(want)
		}
	})
}
