package exec

import "context"

// MemoryConfig is a query's memory budget and spill location, carried in
// its context so that a session can set it once for every query it runs.
type MemoryConfig struct {
	// Limit is EvalContext.MemoryLimit (0: DefaultMemoryLimit).
	Limit int64
	// SpillDir is EvalContext.SpillDir ("": os.TempDir()).
	SpillDir string
}

type memoryConfigKey struct{}

// WithMemoryConfig returns ctx carrying cfg.
func WithMemoryConfig(ctx context.Context, cfg MemoryConfig) context.Context {
	return context.WithValue(ctx, memoryConfigKey{}, cfg)
}

// MemoryConfigFrom returns the MemoryConfig ctx carries, if any.
func MemoryConfigFrom(ctx context.Context) (MemoryConfig, bool) {
	if ctx == nil {
		return MemoryConfig{}, false
	}
	cfg, ok := ctx.Value(memoryConfigKey{}).(MemoryConfig)
	return cfg, ok
}
