package emit

import "github.com/cugen/cugen/library"

// The audited exceptions are the libraries' (library.Overrides, beside each
// description). The type-keyed tables apply in every package that
// declares the type, whichever library's rows list it.

// stringBufferLen is the buffer cugen passes for a `char *` output that is
// followed by its length (cuDeviceGetName, cuDeviceGetPCIBusId, ...): device
// names and PCI bus ids are far shorter.
const stringBufferLen = 256

// defaultOne is library.Overrides.DefaultOneRecords of every library.
func (m *model) defaultOne() map[string]string {
	return library.Merged(m.opts.Libraries, func(o *library.Overrides) map[string]string { return o.DefaultOneRecords })
}

// devicePointerTypes is library.Overrides.DevicePointerTypes of every
// library.
func (m *model) devicePointerTypes() map[string]string {
	return library.Merged(m.opts.Libraries, func(o *library.Overrides) map[string]string { return o.DevicePointerTypes })
}
