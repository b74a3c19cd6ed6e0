package cuda

// GPU tests of devices: enumeration, properties, peer access. They skip
// without a device (gpuContext).

import (
	"errors"
	"github.com/cugen/cugen/cugentest"
	"regexp"
	"testing"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// TestGPUDevices: Devices lists DeviceCount devices with distinct, non-zero
// UUIDs and well-formed, distinct PCI addresses; Properties agrees with
// single attribute queries and with what every CUDA device has.
func TestGPUDevices(t *testing.T) {
	gpuContext(t)
	ds, err := Devices()
	if err != nil {
		t.Fatal(err)
	}
	if n, err := DeviceCount(); err != nil || n != len(ds) || n == 0 {
		t.Fatalf("DeviceCount %d, %v; Devices %d", n, err, len(ds))
	}
	pci := regexp.MustCompile(`^[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7]$`)
	uuids, addrs := map[[16]byte]bool{}, map[string]bool{}
	for i, d := range ds {
		if d.Ordinal() != i {
			t.Fatalf("device %d has ordinal %d", i, d.Ordinal())
		}
		u, err := d.UUID()
		if err != nil || u == ([16]byte{}) || uuids[u] {
			t.Fatalf("device %d: UUID %x, %v (zero or repeated)", i, u, err)
		}
		uuids[u] = true
		a, err := d.PCIBusID()
		if err != nil || !pci.MatchString(a) || addrs[a] {
			t.Fatalf("device %d: PCI bus id %q, %v", i, a, err)
		}
		addrs[a] = true
		p, err := d.Properties()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("device %d: %x %s, %d SMs, cc %d.%d", i, u, a, p.MultiprocessorCount, p.ComputeCapabilityMajor, p.ComputeCapabilityMinor)
		for _, c := range []struct {
			a   cu.DeviceAttribute
			got int
		}{
			{cu.DeviceAttributeMultiprocessorCount, p.MultiprocessorCount},
			{cu.DeviceAttributeComputeCapabilityMajor, p.ComputeCapabilityMajor},
			{cu.DeviceAttributeMaxSharedMemoryPerBlockOptin, p.MaxSharedMemoryPerBlockOptin},
			{cu.DeviceAttributeL2CacheSize, p.L2CacheSize},
			{cu.DeviceAttributePciBusId, p.PciBusId},
		} {
			if want, err := d.Attribute(c.a); err != nil || want != c.got {
				t.Errorf("device %d: attribute %d: Properties %d, Attribute %d, %v", i, c.a, c.got, want, err)
			}
		}
		if p.WarpSize != 32 || p.MaxThreadsPerBlock != 1024 || p.MaxBlockDimX != 1024 || !p.UnifiedAddressing || !p.CanMapHostMemory {
			t.Errorf("device %d: %+v", i, p)
		}
		if p.ComputeCapabilityMajor >= 9 && (!p.ClusterLaunch || !p.CooperativeLaunch) {
			t.Errorf("device %d: sm_90 without cluster or cooperative launch", i)
		}
	}
}

// TestGPUPeerAccess: with two devices, EnablePeerAccess succeeds (twice)
// where CanAccessPeer says so and is the driver's
// PEER_ACCESS_UNSUPPORTED where it does not; a device is not its own peer.
func TestGPUPeerAccess(t *testing.T) {
	c0 := gpuContext(t)
	if ok, err := c0.Device().CanAccessPeer(c0.Device()); ok || err != nil {
		t.Fatalf("a device its own peer: %v, %v", ok, err)
	}
	n, err := DeviceCount()
	if err != nil {
		t.Fatal(err)
	}
	cugentest.SkipFewGPUs(t, 2, n)
	c1, err := NewContext(1)
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	can, err := c0.Device().CanAccessPeer(c1.Device())
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		err := c0.EnablePeerAccess(c1)
		if can && err != nil || !can && !errors.Is(err, cu.ErrorPeerAccessUnsupported) {
			t.Fatalf("CanAccessPeer %v; EnablePeerAccess: %v", can, err)
		}
	}
}
