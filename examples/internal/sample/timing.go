package sample

import "github.com/cugen/cugen/cuda/sys/cu"

// Timed times library calls the way the math examples' C references do:
// fn once to warm up, then reps runs between two CUDA events recorded on
// the default stream; it returns the milliseconds per run. It must run
// with a context current (inside cuda.Context.Do).
func Timed(reps int, fn func() error) (float64, error) {
	if err := fn(); err != nil {
		return 0, err
	}
	var ms float32
	err := withEvents(func(start, stop cu.Event) error {
		if err := cu.EventRecord(start, 0); err != nil {
			return err
		}
		for i := 0; i < reps; i++ {
			if err := fn(); err != nil {
				return err
			}
		}
		var err error
		ms, err = elapsed(start, stop)
		return err
	})
	return float64(ms) / float64(reps), err
}

// TimedEach is Timed for a call that consumes its input (a factorization
// overwrites its matrix): reset runs before each run, outside the timed
// region, and the runs are timed one by one (run 0 warms up).
func TimedEach(reps int, reset, fn func() error) (float64, error) {
	var total float32
	err := withEvents(func(start, stop cu.Event) error {
		for i := 0; i <= reps; i++ {
			if err := reset(); err != nil {
				return err
			}
			if err := cu.EventRecord(start, 0); err != nil {
				return err
			}
			if err := fn(); err != nil {
				return err
			}
			ms, err := elapsed(start, stop)
			if err != nil {
				return err
			}
			if i > 0 {
				total += ms
			}
		}
		return nil
	})
	return float64(total) / float64(reps), err
}

// withEvents runs fn with two fresh events, destroyed after it.
func withEvents(fn func(start, stop cu.Event) error) error {
	start, err := cu.EventCreate(0)
	if err != nil {
		return err
	}
	defer cu.EventDestroy(start)
	stop, err := cu.EventCreate(0)
	if err != nil {
		return err
	}
	defer cu.EventDestroy(stop)
	return fn(start, stop)
}

// elapsed records stop on the default stream, waits for it and returns
// the milliseconds since start.
func elapsed(start, stop cu.Event) (float32, error) {
	if err := cu.EventRecord(stop, 0); err != nil {
		return 0, err
	}
	if err := cu.EventSynchronize(stop); err != nil {
		return 0, err
	}
	return cu.EventElapsedTime(start, stop)
}
