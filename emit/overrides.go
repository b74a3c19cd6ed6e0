package emit

import "github.com/cugen/cugen/library"

// The audited exceptions are the libraries' (library.Overrides, beside each
// description). The type-keyed tables apply in every package that
// declares the type, whichever library's rows list it.

// stringBufferLen is the buffer cugen passes for a `char *` output that is
// followed by its length (cuDeviceGetName, cuDeviceGetPCIBusId, ...): device
// names and PCI bus ids are far shorter.
const stringBufferLen = 256

// mergeOverrides takes library.Overrides.DefaultOneRecords and
// DevicePointerTypes of every library, once per model.
func (m *model) mergeOverrides() {
	m.defaultOne = library.Merged(m.opts.Libraries, func(o *library.Overrides) map[string]string { return o.DefaultOneRecords })
	m.devicePointerTypes = library.Merged(m.opts.Libraries, func(o *library.Overrides) map[string]string { return o.DevicePointerTypes })
}
