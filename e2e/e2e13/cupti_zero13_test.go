package e2e13

import (
	"errors"
	"testing"

	"github.com/cugen/cugen/ffi"
	"github.com/cugen/cugen/generated/cuda13/cupti"
)

// TestCUPTIZeroSubscriber13: every wrapper that takes a
// CUpti_SubscriberHandle returns CUPTI_ERROR_INVALID_PARAMETER (what the
// header documents for a NULL subscriber) for a zero one, without loading
// or calling CUPTI (library.Overrides.NonNullHandles): it passes with or
// without libcupti, and no GPU. Before the guard cuptiEnableDomain(1,
// NULL, ...) segfaulted inside CUPTI, and without the library the
// wrappers returned its load error.
func TestCUPTIZeroSubscriber13(t *testing.T) {
	_, stateErr := cupti.GetCallbackState(0, cupti.CbDomainRuntimeApi, 1)
	for _, c := range []struct {
		fn  string
		err error
	}{
		{"cuptiEnableDomain", cupti.EnableDomain(1, 0, cupti.CbDomainRuntimeApi)},
		{"cuptiEnableAllDomains", cupti.EnableAllDomains(1, 0)},
		{"cuptiEnableCallback", cupti.EnableCallback(1, 0, cupti.CbDomainRuntimeApi, 1)},
		{"cuptiGetCallbackState", stateErr},
		{"cuptiUnsubscribe", cupti.Unsubscribe(0)},
	} {
		var ce *ffi.CallError
		if !errors.As(c.err, &ce) || ce.Func != c.fn || !errors.Is(c.err, cupti.ErrorInvalidParameter) {
			t.Errorf("%s with a zero subscriber: %v; want %s's CUPTI_ERROR_INVALID_PARAMETER", c.fn, c.err, c.fn)
			continue
		}
		t.Logf("%s(zero subscriber): %v", c.fn, c.err)
	}
}
