package cuda

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// Devices returns every CUDA device, in ordinal order (cuDeviceGetCount,
// cuDeviceGet), after cuInit.
func Devices() ([]Device, error) {
	n, err := DeviceCount()
	if err != nil {
		return nil, err
	}
	ds := make([]Device, n)
	for i := range ds {
		if ds[i], err = GetDevice(i); err != nil {
			return nil, err
		}
	}
	return ds, nil
}

// UUID returns the device's UUID (cuDeviceGetUuid), the one nvidia-smi
// prints as GPU-xxxxxxxx-xxxx-....
func (d Device) UUID() ([16]byte, error) {
	u, err := cu.DeviceGetUuid(d.dev) // no context: direct (driver.go)
	return u.Bytes, err
}

// PCIBusID returns the device's PCI address, domain:bus:device.function
// in hexadecimal, e.g. "0000:1B:00.0" (cuDeviceGetPCIBusId).
func (d Device) PCIBusID() (string, error) { return cu.DeviceGetPCIBusId(d.dev) }

// Properties returns every attribute of the device (cuDeviceGetAttribute,
// once each).
func (d Device) Properties() (DeviceProperties, error) {
	return deviceProperties(func(a cu.DeviceAttribute) (int32, error) {
		return cu.DeviceGetAttribute(a, d.dev)
	})
}

// deviceProperties fills DeviceProperties from get: an attribute get
// refuses as invalid (a driver older than the attribute) stays zero.
func deviceProperties(get func(cu.DeviceAttribute) (int32, error)) (DeviceProperties, error) {
	var p DeviceProperties
	v := reflect.ValueOf(&p).Elem()
	for i, a := range devAttrs {
		x, err := get(cu.DeviceAttribute(a))
		if errors.Is(err, cu.ErrorInvalidValue) {
			continue
		}
		if err != nil {
			return DeviceProperties{}, fmt.Errorf("cuda: device attribute %s: %w", v.Type().Field(i).Name, err)
		}
		if f := v.Field(i); f.Kind() == reflect.Bool {
			f.SetBool(x != 0)
		} else {
			f.SetInt(int64(x))
		}
	}
	return p, nil
}

// CanAccessPeer reports whether contexts on d can access the memory of
// peer's (cuDeviceCanAccessPeer). A device is not its own peer.
func (d Device) CanAccessPeer(peer Device) (bool, error) {
	if d.dev == peer.dev {
		return false, nil
	}
	ok, err := cu.DeviceCanAccessPeer(d.dev, peer.dev) // no context: direct
	return ok != 0, err
}

var errSamePeer = errors.New("a context is not its own peer")

// EnablePeerAccess lets kernels and copies in c reach the memory of
// peer's context (cuCtxEnablePeerAccess), one way: call it on each side
// for both. Enabling it again is not an error. Where the devices cannot
// (Device.CanAccessPeer) it is the driver's
// CUDA_ERROR_PEER_ACCESS_UNSUPPORTED.
func (c *Context) EnablePeerAccess(peer *Context) error {
	ps, err := peer.use()
	if err != nil {
		return fmt.Errorf("cuda: EnablePeerAccess: the peer: %w", err)
	}
	defer peer.ref.end()
	if c != nil && c.ref.s == ps {
		return fmt.Errorf("cuda: EnablePeerAccess: %w", errSamePeer)
	}
	err = c.do(func(s *ctxState) error { return s.drv.enablePeer(s, ps) })
	if errors.Is(err, cu.ErrorPeerAccessAlreadyEnabled) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cuda: EnablePeerAccess: %w", err)
	}
	return nil
}
