package cuda

import (
	"fmt"
	"sync"

	"github.com/cugen/cugen/cuda/sys"
	"github.com/cugen/cugen/cuda/sys/cu"
)

// ErrWrongMajor is matched (errors.Is) by the error of the first call when
// the driver supports an older CUDA than the one the program was built
// for: the error names the build tag to build with instead.
var ErrWrongMajor = fmt.Errorf("cuda: the driver is older than the program's CUDA major")

// initDriver is cuInit, then, once per process, the check that the
// driver supports the CUDA major of the generated packages the program
// was built with: every function of the API that starts the driver calls
// it, so a wrong-major binary fails at its first call with the advice,
// never later with a missing symbol.
func initDriver() error {
	// cuInit and the version query need no context: direct, outside
	// the driver seam (driver.go).
	if err := cu.Init(0); err != nil {
		return err
	}
	return driverMajorOnce()
}

var driverMajorOnce = sync.OnceValue(func() error {
	v, err := cu.DriverGetVersion()
	if err != nil {
		return err
	}
	return checkMajor(int(v), int(cu.HeaderVersion))
})

// checkMajor refuses a driver that supports CUDA driver (1000*major +
// 10*minor) when the program was built over headers of version header:
// it names the build flag for the driver's major (package sys), or, for a
// module's own copy of the API, the header set to generate from.
func checkMajor(driver, header int) error {
	if driver/1000 >= header/1000 {
		return nil
	}
	dmaj, hmaj := driver/1000, header/1000
	have := fmt.Sprintf("this driver supports CUDA %d.%d", dmaj, driver%1000/10)
	if sys.Major == hmaj {
		how := "build with " + sys.BuildFlag(dmaj)
		if sys.BuildFlag(dmaj) == "" {
			how = "no build of this API supports it: update the driver"
		}
		return fmt.Errorf("%w: built for CUDA %d (%s); %s: %s", ErrWrongMajor, hmaj, sys.BuildFlag(hmaj), have, how)
	}
	// A module's copy (cugen gen): its generated packages set the major.
	return fmt.Errorf("%w: generated from CUDA %d headers; %s: generate from a CUDA %d header set, or update the driver", ErrWrongMajor, hmaj, have, dmaj)
}
