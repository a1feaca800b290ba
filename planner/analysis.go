package planner

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/icesql/icesql/sqlexec/exec"
)

// Analysis collects, for EXPLAIN ANALYZE, the plans a statement builds
// and what each of their operators did. Build looks for one in its
// context (WithAnalysis) and only then wraps operators in counters, so
// plain statements run exactly as without it.
type Analysis struct {
	mu         sync.Mutex
	roots      []Plan
	ops        map[Plan]*exec.OpStats
	scans      map[*Scan]*ScanAnalysis
	firstBuild time.Time
}

// ScanAnalysis holds the counters a table attaches to a scan
// (ScanRequest.Analysis); every run of one Scan node shares it.
type ScanAnalysis struct {
	mu       sync.Mutex
	counters fmt.Stringer
}

// Counters returns the counters attached so far, attaching the ones
// create makes when there are none yet.
func (s *ScanAnalysis) Counters(create func() fmt.Stringer) fmt.Stringer {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counters == nil {
		s.counters = create()
	}
	return s.counters
}

func (s *ScanAnalysis) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counters == nil {
		return ""
	}
	return s.counters.String()
}

type analysisKey struct{}

// NewAnalysis returns an empty Analysis.
func NewAnalysis() *Analysis {
	return &Analysis{ops: map[Plan]*exec.OpStats{}, scans: map[*Scan]*ScanAnalysis{}}
}

// WithAnalysis makes every Build under ctx record into a.
func WithAnalysis(ctx context.Context, a *Analysis) context.Context {
	return context.WithValue(ctx, analysisKey{}, a)
}

func analysisFrom(ctx context.Context) *Analysis {
	a, _ := ctx.Value(analysisKey{}).(*Analysis)
	return a
}

// FirstBuild is when the first plan started to be built (zero: none was):
// what came before is planning, what follows execution.
func (a *Analysis) FirstBuild() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.firstBuild
}

func (a *Analysis) addRoot(p Plan) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.firstBuild.IsZero() {
		a.firstBuild = time.Now()
	}
	a.roots = append(a.roots, p)
}

func (a *Analysis) stats(p Plan) *exec.OpStats {
	a.mu.Lock()
	defer a.mu.Unlock()
	st := a.ops[p]
	if st == nil {
		st = new(exec.OpStats)
		a.ops[p] = st
	}
	return st
}

func (a *Analysis) scan(s *Scan) *ScanAnalysis {
	a.mu.Lock()
	defer a.mu.Unlock()
	sa := a.scans[s]
	if sa == nil {
		sa = new(ScanAnalysis)
		a.scans[s] = sa
	}
	return sa
}

// wrap counts what it returns as operator p's output (nil a: it as is).
func (a *Analysis) wrap(p Plan, it exec.RecordIterator) exec.RecordIterator {
	if a == nil {
		return it
	}
	return exec.NewAnalyzed(it, a.stats(p))
}

// RenderOptions select what Render prints.
type RenderOptions struct {
	// NoTiming leaves out times, so that the text depends on the data only.
	NoTiming bool
	// NoBytes leaves out counts of bytes, which depend on the writer, and
	// of data files served from memory, which depend on earlier queries.
	NoBytes bool
}

// Render prints each plan built, as EXPLAIN prints it, each operator
// followed by what it did: rows and batches out, time in it including
// its inputs (workers' times summed) and its own share; below a scan,
// the counters its table attached. An operator that never ran says so.
func (a *Analysis) Render(opts RenderOptions) string {
	a.mu.Lock()
	roots := append([]Plan(nil), a.roots...)
	a.mu.Unlock()
	var sb strings.Builder
	var walk func(p Plan, depth int)
	walk = func(p Plan, depth int) {
		indent := strings.Repeat("  ", depth)
		sb.WriteString(indent)
		sb.WriteString(p.describe())
		sb.WriteString("  ")
		sb.WriteString(a.actual(p, opts))
		sb.WriteByte('\n')
		if s, ok := p.(*Scan); ok {
			a.mu.Lock()
			sa := a.scans[s]
			a.mu.Unlock()
			if sa != nil {
				for _, line := range strings.Split(sa.String(), "\n") {
					if line == "" || (opts.NoBytes && (strings.HasPrefix(line, "bytes") || strings.HasPrefix(line, "data files from the cache"))) {
						continue
					}
					sb.WriteString(indent + "  " + line + "\n")
				}
			}
		}
		for _, c := range p.Children() {
			walk(c, depth+1)
		}
	}
	for _, r := range roots {
		walk(r, 0)
	}
	return sb.String()
}

// actual is the parenthesised counters of one operator.
func (a *Analysis) actual(p Plan, opts RenderOptions) string {
	a.mu.Lock()
	st := a.ops[p]
	a.mu.Unlock()
	if st == nil || st.Calls.Load() == 0 {
		return "(never executed)"
	}
	d := fmt.Sprintf("(actual rows=%d batches=%d", st.Rows.Load(), st.Batches.Load())
	if !opts.NoTiming {
		total := time.Duration(st.Nanos.Load())
		self := total
		for _, c := range p.Children() {
			a.mu.Lock()
			cs := a.ops[c]
			a.mu.Unlock()
			if cs != nil {
				self -= time.Duration(cs.Nanos.Load())
			}
		}
		d += " time=" + FormatMillis(total) + " self=" + FormatMillis(max(self, 0))
	}
	return d + ")"
}

// FormatMillis prints a duration in milliseconds as EXPLAIN ANALYZE does.
func FormatMillis(d time.Duration) string {
	return fmt.Sprintf("%.3fms", float64(d)/float64(time.Millisecond))
}
