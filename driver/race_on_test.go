//go:build race

package driver_test

// raceEnabled: the race detector multiplies the cost of the single-goroutine
// size and depth cases many times over; they test no concurrency, so the
// -race pass skips them.
const raceEnabled = true
