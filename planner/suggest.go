package planner

import (
	"sort"
	"strings"
)

// Suggest returns the candidate closest to name (ignoring case) when it
// is near enough to be a slip of the keyboard: at most two edits, and
// fewer than half of name's characters. "" when nothing is that close.
func Suggest(name string, candidates []string) string {
	best, bestD := "", -1
	n := []rune(strings.ToLower(name))
	for _, c := range candidates {
		if strings.EqualFold(c, name) {
			continue
		}
		d := editDistance(n, []rune(strings.ToLower(c)))
		if d <= 2 && 2*d <= len(n) && (bestD < 0 || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance, with a swap of two adjacent
// characters counted as one edit.
func editDistance(a, b []rune) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// didYouMean is the suffix of an error message naming a suggestion.
func didYouMean(s string) string {
	if s == "" {
		return ""
	}
	return `; did you mean "` + s + `"?`
}

// suggestFunction finds a near-miss among the scalar functions.
func suggestFunction(name string) string {
	names := make([]string, 0, len(functions)+len(constructorFuncs))
	for n := range functions {
		names = append(names, n)
	}
	for n := range constructorFuncs {
		names = append(names, n)
	}
	sort.Strings(names) // ties go the same way every time
	return Suggest(name, names)
}
