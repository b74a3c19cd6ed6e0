package emit

import "regexp"

// nullableWords are the ways CUDA's docs say that a string parameter may
// be NULL: "An optional name for this input in log messages." (cuLinkAddData),
// "name can be NULL" (nvrtcCreateProgram), "If NULL, "<unnamed>" is used"
// (nvvmAddModuleToProgram). A C string so documented is *string in Go, so a
// caller can pass NULL, which C may treat otherwise than "" (the JIT log of
// cuLinkAddData does). Words about NULL in other senses ("a pointer to a
// NULL-terminated string") do not match.
var nullableWords = regexp.MustCompile(`(?i)\b(an optional|optional name|optionally|(can|may) be NULL|if NULL\b|NULL if|or NULL\b)`)

// nullableString reports whether a const char * parameter with this doc
// may be NULL.
func nullableString(doc string) bool { return nullableReason(doc) != "" }

// nullableReason is the words of doc that make its parameter nullable, for
// the audit, or "".
func nullableReason(doc string) string { return nullableWords.FindString(doc) }
