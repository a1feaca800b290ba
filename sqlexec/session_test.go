package sqlexec

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/sqlexec/exec"
)

func newSession(t *testing.T) *Session {
	t.Helper()
	e, err := Open(context.Background(), Config{Warehouse: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e.NewSession()
}

func queryInt(t *testing.T, p *Prepared, args ...any) int64 {
	t.Helper()
	rows, err := p.Query(context.Background(), args)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b []any
	for {
		rec, err := rows.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			break
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			b = append(b, exec.ValueAt(rec.Column(0), i))
		}
		rec.Release()
	}
	if len(b) != 1 {
		t.Fatalf("got %d rows, want 1", len(b))
	}
	return b[0].(int64)
}

func TestPreparedRebindsPlaceholders(t *testing.T) {
	s := newSession(t)
	ctx := context.Background()
	if _, err := s.Exec(ctx, "CREATE TABLE t (id BIGINT, s STRING)", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Exec(ctx, "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')", nil); err != nil {
		t.Fatal(err)
	}
	p, err := s.Prepare("SELECT count(*) FROM t WHERE id >= ? AND s <> ?")
	if err != nil {
		t.Fatal(err)
	}
	if p.NumInput() != 2 {
		t.Fatalf("NumInput = %d", p.NumInput())
	}
	tests := []struct {
		min  any
		not  string
		want int64
	}{{1, "x", 3}, {2, "x", 2}, {int32(2), "b", 1}, {uint8(9), "x", 0}}
	for _, tc := range tests {
		if got := queryInt(t, p, tc.min, tc.not); got != tc.want {
			t.Errorf("min %v not %q: %d rows, want %d", tc.min, tc.not, got, tc.want)
		}
	}
	var pe *ParamError
	if _, err := p.Query(ctx, []any{1}); !errors.As(err, &pe) || !errors.Is(err, ErrParams) {
		t.Fatalf("wrong arg count: %v", err)
	}
	if _, err := p.Query(ctx, []any{struct{}{}, "x"}); !errors.As(err, &pe) || pe.Index != 1 {
		t.Fatalf("bad arg type: %v", err)
	}
}

func TestDatumOf(t *testing.T) {
	tests := []struct {
		name string
		in   any
		ok   bool
	}{
		{"nil", nil, true},
		{"bool", true, true},
		{"int", 5, true},
		{"uint64 max", uint64(1 << 63), false},
		{"float32", float32(1.5), true},
		{"string", "x", true},
		{"bytes", []byte("x"), true},
		{"time", time.Date(2024, 1, 2, 3, 4, 5, 6000, time.UTC), true},
		{"decimal", iceberg.Decimal{Scale: 2}, true},
		{"uuid", iceberg.UUID{1}, true},
		{"struct", struct{}{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := datumOf(tc.in)
			if (err == nil) != tc.ok {
				t.Fatalf("datumOf(%v) err = %v, want ok=%v", tc.in, err, tc.ok)
			}
		})
	}
}

func TestReadOnlyEngineRefusesWrites(t *testing.T) {
	dir := t.TempDir()
	e, err := Open(context.Background(), Config{Warehouse: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.NewSession().Exec(context.Background(), "CREATE TABLE t (x INT)", nil); err != nil {
		t.Fatal(err)
	}
	e.Close()
	ro, err := Open(context.Background(), Config{Warehouse: dir, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	for _, q := range []string{"INSERT INTO t VALUES (1)", "DROP TABLE t", "ALTER TABLE t SET TBLPROPERTIES ('a'='b')", "DELETE FROM t"} {
		if _, err := ro.NewSession().Exec(context.Background(), q, nil); !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s: %v", q, err)
		}
	}
}
