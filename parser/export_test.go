package parser

// StubHeaders are the headers the parser supplies (stubHeaders), for the
// tests that compile the same headers with gcc.
var StubHeaders = stubHeaders
