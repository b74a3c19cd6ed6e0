package cuda

import (
	"errors"
	"strings"
	"testing"

	"github.com/cugen/cugen/cuda/sys"
)

// TestCheckMajor: a driver of an older CUDA major than the build's is
// refused with the build flag of the driver's major (or, for a module's
// copy, whose generated packages set the major, the header set to
// generate from); one of the build's major or newer passes.
// cugentest's TestStandinLayer meets the error through the API's first
// call on the stand-in driver (CUDA 12.4) in a build with no tag.
func TestCheckMajor(t *testing.T) {
	h := 1000 * sys.Major
	for _, c := range []struct {
		driver, header int
		want           string
	}{
		{h, h, ""},
		{h + 1010, h, ""},
		{13000, 13000, ""},
	} {
		if err := checkMajor(c.driver, c.header); err != nil {
			t.Errorf("checkMajor(%d, %d) = %v", c.driver, c.header, err)
		}
	}
	if sys.Major == 13 {
		err := checkMajor(12040, 13000)
		want := "cuda: the driver is older than the program's CUDA major: built for CUDA 13 (no cuda tag); this driver supports CUDA 12.4: build with -tags cuda12"
		if err == nil || err.Error() != want || !errors.Is(err, ErrWrongMajor) {
			t.Errorf("checkMajor(12040, 13000) = %v\nwant %s", err, want)
		}
	}
	err := checkMajor(11080, 1000*sys.Major)
	if err == nil || !errors.Is(err, ErrWrongMajor) || !strings.Contains(err.Error(), "this driver supports CUDA 11.8: no build of this API supports it: update the driver") {
		t.Errorf("checkMajor(11080) = %v", err)
	}
	other := 1000 * (sys.Major - 1)
	if sys.Major == 12 {
		other = 11000
	}
	err = checkMajor(other, 1000*(sys.Major+1))
	if err == nil || !strings.Contains(err.Error(), "generate from a CUDA") {
		t.Errorf("a module's copy: %v", err)
	}
}
