// Package genfiles writes cugen's generated package directories and tells
// its files from the user's. A generated file starts with the marker line
// ([Marker], [IsGenerated]); anything else in a package directory is the
// user's and is kept. [WriteSet] replaces a set of package directories of
// one output directory as a unit, under a lock, staged beside them and
// swapped in through a journal, so that a crash or an error leaves the
// whole old set or the whole new one ([Recover] finishes or undoes an
// interrupted run). cugen gen writes the packages emit renders through it,
// and cugen layer the copies of the hand-written layer (internal/layergen):
// one writer for everything cugen writes into a module.
package genfiles
