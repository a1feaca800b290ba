package sqlexec

import (
	"sort"

	"github.com/icesql/icesql/iceberg/scan"
)

// balanceTasks deals tasks into at most n groups of about equal bytes:
// largest file first, each to the lightest group so far (a greedy
// schedule within 4/3 of the best). Groups keep no empty member.
func balanceTasks(tasks []scan.FileScanTask, n int) [][]scan.FileScanTask {
	if n > len(tasks) {
		n = len(tasks)
	}
	if n <= 1 {
		if len(tasks) == 0 {
			return nil
		}
		return [][]scan.FileScanTask{tasks}
	}
	order := make([]int, len(tasks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return taskBytes(tasks[order[a]]) > taskBytes(tasks[order[b]])
	})
	groups := make([][]scan.FileScanTask, n)
	sizes := make([]int64, n)
	for _, i := range order {
		light := 0
		for g := 1; g < n; g++ {
			if sizes[g] < sizes[light] {
				light = g
			}
		}
		groups[light] = append(groups[light], tasks[i])
		sizes[light] += taskBytes(tasks[i])
	}
	return groups
}

// taskBytes is what reading a task costs: its data file and its deletes.
func taskBytes(t scan.FileScanTask) int64 {
	n := t.File.FileSizeInBytes
	if t.Split() {
		n = t.Length
	}
	for _, d := range t.Deletes {
		n += d.File.FileSizeInBytes
	}
	return max(n, 1)
}
