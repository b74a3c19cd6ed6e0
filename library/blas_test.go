package library

import (
	"strings"
	"testing"
)

// TestBLASFamily: the rule that maps a cuBLAS C name to its family in the
// summary table strips the prefix, the _v2 and _64 suffixes and one type
// prefix, choosing the one that leaves a family (Sc of Scasum, C of
// Csyrk, Cs of Csscal), and takes a name without a type prefix whole.
func TestBLASFamily(t *testing.T) {
	for _, c := range []struct{ cname, family string }{
		{"cublasSgemm", "gemm"},
		{"cublasSgemm_v2", "gemm"},
		{"cublasDgemm_v2_64", "gemm"},
		{"cublasZgemm_64", "gemm"},
		{"cublasCgemm3m", "gemm3m"},
		{"cublasSgemmBatched", "gemmBatched"},
		{"cublasSgemmStridedBatched_64", "gemmStridedBatched"},
		{"cublasSgemmEx", "gemmEx"},
		{"cublasGemmEx", "GemmEx"},
		{"cublasGemmStridedBatchedEx_64", "GemmStridedBatchedEx"},
		{"cublasDotEx", "DotEx"},
		{"cublasDotcEx", "DotcEx"},
		{"cublasSdot", "dot"},
		{"cublasZdotc_v2", "dotc"},
		{"cublasIsamax_v2", "amax"},
		{"cublasIzamin_64", "amin"},
		{"cublasScasum", "asum"},
		{"cublasDznrm2", "nrm2"},
		{"cublasCsscal", "scal"},
		{"cublasZdrot", "rot"},
		{"cublasCsyrk", "syrk"},
		{"cublasCsyrk3mEx", "syrk3mEx"},
		{"cublasScopy", "copy"},
		{"cublasCherk3mEx", "herk3mEx"},
		{"cublasHgemm", "gemm"},
		{"cublasSetMatrixAsync_64", "SetMatrixAsync"},
	} {
		f, text, ok := CuBLAS.Summaries.Family(CuBLAS.Prefixes, c.cname)
		if !ok || f != c.family || text == "" {
			t.Errorf("Family(%s) = %q, %q, %v; want %q", c.cname, f, text, ok, c.family)
		}
	}
	for _, cname := range []string{"cublasCreate_v2", "cublasSetStream", "cublasUint8gemmBias", "cublasXerbla", "cusparseSgemm"} {
		if f, _, ok := CuBLAS.Summaries.Family(CuBLAS.Prefixes, cname); ok {
			t.Errorf("Family(%s) = %q, want none", cname, f)
		}
	}
	var none *Summaries
	if _, _, ok := none.Family(nil, "cublasSgemm"); ok {
		t.Error("a library without a table gave a family")
	}
}

// TestBLASFamiliesUnambiguous: every type prefix followed by every typed
// family maps back to that family, so no two readings of one name exist
// (Sc+asum, not S+casum; C+syrk, not Cs+yrk), and every text is a
// predicate that follows the Go name: lower case, no final period.
func TestBLASFamiliesUnambiguous(t *testing.T) {
	s := CuBLAS.Summaries
	for f, text := range s.Families {
		if text == "" || strings.HasSuffix(text, ".") || strings.ToLower(text[:1]) != text[:1] {
			t.Errorf("%s: %q, want a lower-case predicate without a final period", f, text)
		}
		if strings.ToLower(f[:1]) != f[:1] {
			continue // a name without a type prefix (GemmEx)
		}
		for _, tp := range s.Types {
			got, _, ok := s.Family(CuBLAS.Prefixes, "cublas"+tp+f)
			if ok && got != f {
				t.Errorf("cublas%s%s is of family %q, want %q", tp, f, got, f)
			}
		}
	}
}
