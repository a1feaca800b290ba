package sqlexec

// MinSplitBytes lets the external tests split small files.
var MinSplitBytes = &minSplitBytes
