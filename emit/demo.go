package emit

// demoFiles returns the context-demo test files of the package (issue 4).
func (m *model) demoFiles() map[string][]byte { return nil }
