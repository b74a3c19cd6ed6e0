package gen

import (
	"strings"
	"testing"
)

// TestSelectLibs: -lib's libraries, in any case, with those their
// packages import (the descriptions' Imports), each pulled in with a
// note, in the order of library.All; nothing is emitted to find them.
// Was: the packages were all emitted, then their Go parsed for imports.
func TestSelectLibs(t *testing.T) {
	got, notes, err := selectLibs([]string{"CUSOLVER", "nvrtc"})
	var names []string
	for _, d := range got {
		names = append(names, d.Package)
	}
	wantNotes := "cugen: -lib: cublas too (cusolver imports it)|cugen: -lib: cudart too (cusolver imports it)|cugen: -lib: cu too (cudart imports it)"
	if err != nil || strings.Join(names, " ") != "cu cudart nvrtc cublas cusolver" || strings.Join(notes, "|") != wantNotes {
		t.Errorf("selectLibs(CUSOLVER, nvrtc) = %q, %q, %v", names, notes, err)
	}
	if _, _, err := selectLibs([]string{"cudnn8"}); err == nil || !strings.Contains(err.Error(), `unknown library "cudnn8" (cugen's libraries: cu, cudart,`) {
		t.Errorf("cudnn8: %v", err)
	}
}
