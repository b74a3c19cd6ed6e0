package cuda

import (
	"errors"
	"fmt"

	"github.com/cugen/cugen/cuda/sys/cu"
)

// kernelDriver is the driver's per-kernel queries: the real driver, or the
// fake of the tests.
type kernelDriver interface {
	activeBlocks(fn cu.Function, block int32, shared uint64) (int32, error)
	potentialBlockSize(fn cu.Function, shared func(int32) uint64, sharedConst uint64, limit int32) (minGrid, block int32, err error)
	funcAttr(fn cu.Function, a cu.FunctionAttribute) (int32, error)
	setFuncAttr(fn cu.Function, a cu.FunctionAttribute, v int32) error
}

func (realDriver) activeBlocks(fn cu.Function, block int32, shared uint64) (int32, error) {
	return cu.OccupancyMaxActiveBlocksPerMultiprocessor(fn, block, shared)
}

func (realDriver) potentialBlockSize(fn cu.Function, shared func(int32) uint64, sharedConst uint64, limit int32) (int32, int32, error) {
	return cu.OccupancyMaxPotentialBlockSize(fn, shared, sharedConst, limit)
}

func (realDriver) funcAttr(fn cu.Function, a cu.FunctionAttribute) (int32, error) {
	return cu.FuncGetAttribute(a, fn)
}

func (realDriver) setFuncAttr(fn cu.Function, a cu.FunctionAttribute, v int32) error {
	return cu.FuncSetAttribute(fn, a, v)
}

var errLibraryQuery = errors.New("a library's kernel has no context of its own to query in: use a module's kernel")

// query runs fn with a use of the kernel's module held, on a locked thread
// with the module's context current.
func (k *Kernel) query(what string, fn func(d kernelDriver) error) error {
	if k.lib != nil {
		return fmt.Errorf("cuda: kernel %s: %s: %w", k.name, what, errLibraryQuery)
	}
	r := k.mod.r
	if !r.uses.acquire() {
		return fmt.Errorf("cuda: kernel %s: %s: its module: %w", k.name, what, ErrFreed)
	}
	err := onThread(r.ctx, func() error { return fn(r.ctx.drv) })
	r.uses.release()
	if err != nil {
		return fmt.Errorf("cuda: kernel %s: %s: %w", k.name, what, err)
	}
	return nil
}

// maxBlock is the most threads a block can have on every CUDA device.
const maxBlock = 1024

// MaxActiveBlocksPerSM returns how many blocks of block threads, each with
// sharedMem bytes of dynamic shared memory, one multiprocessor runs at
// once (cuOccupancyMaxActiveBlocksPerMultiprocessor). Times the device's
// multiprocessor count, it is the largest grid a cooperative launch
// ([Config.Cooperative]) takes.
func (k *Kernel) MaxActiveBlocksPerSM(block, sharedMem int) (int, error) {
	if block <= 0 || block > maxBlock {
		return 0, &ConfigError{Kernel: k.name, Reason: fmt.Sprintf("block of %d threads: want 1 to %d", block, maxBlock)}
	}
	if sharedMem < 0 {
		return 0, &ConfigError{Kernel: k.name, Reason: fmt.Sprintf("negative shared memory (%d bytes)", sharedMem)}
	}
	var n int32
	err := k.query("occupancy", func(d kernelDriver) (err error) {
		n, err = d.activeBlocks(k.fn, int32(block), uint64(sharedMem))
		return err
	})
	return int(n), err
}

// SuggestBlockSize returns the block size that reaches the kernel's
// highest occupancy with sharedMem bytes of dynamic shared memory per
// block, and the smallest grid that fills the device at it
// (cuOccupancyMaxPotentialBlockSize). limit caps the block size: 0 is no
// cap, and a limit above what the device or the kernel allows is an upper
// bound as CUDA takes it (cuda-samples pass 1,000,000), answered within
// the kernel's maximum (TestSuggestBlockSizeLimitAbove). A negative limit
// is a *ConfigError.
func (k *Kernel) SuggestBlockSize(sharedMem, limit int) (block, minGrid int, err error) {
	if sharedMem < 0 {
		return 0, 0, &ConfigError{Kernel: k.name, Reason: fmt.Sprintf("negative shared memory (%d bytes)", sharedMem)}
	}
	return k.suggest(nil, uint64(sharedMem), limit)
}

// SuggestBlockSizeFunc is [Kernel.SuggestBlockSize] for a kernel whose
// dynamic shared memory depends on its block size: sharedMem returns it
// for a block of the threads given. The driver calls it, on the calling
// goroutine, through a C callback (the cu package's callbacks). A negative
// size from sharedMem is an error.
func (k *Kernel) SuggestBlockSizeFunc(sharedMem func(block int) int, limit int) (block, minGrid int, err error) {
	if sharedMem == nil {
		return 0, 0, &ConfigError{Kernel: k.name, Reason: "nil shared memory function"}
	}
	bad, badBlock := 0, 0
	b, g, err := k.suggest(func(block int32) uint64 {
		n := sharedMem(int(block))
		if n < 0 {
			if bad == 0 {
				bad, badBlock = n, int(block)
			}
			return 0
		}
		return uint64(n)
	}, 0, limit)
	if err == nil && bad != 0 {
		return 0, 0, &ConfigError{Kernel: k.name, Reason: fmt.Sprintf("shared memory function: %d bytes for a block of %d threads", bad, badBlock)}
	}
	return b, g, err
}

func (k *Kernel) suggest(fn func(int32) uint64, shared uint64, limit int) (block, minGrid int, err error) {
	if limit < 0 {
		return 0, 0, &ConfigError{Kernel: k.name, Reason: fmt.Sprintf("negative block size limit (%d)", limit)}
	}
	// The driver takes min(limit, the kernel's maximum threads per
	// block); no device has more than maxBlock, so a larger limit is
	// maxBlock, within int32.
	limit = min(limit, maxBlock)
	var g, b int32
	err = k.query("occupancy", func(d kernelDriver) (err error) {
		g, b, err = d.potentialBlockSize(k.fn, fn, shared, int32(limit))
		return err
	})
	return int(b), int(g), err
}
