package table

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/expr"
)

// An overwrite of day 0 that started before a concurrent append of more
// day-0 data fails under serializable and leaves the append alone; under
// snapshot isolation both land. An append to another day never conflicts.
func TestOverwriteRacingAppend(t *testing.T) {
	dayFilter := expr.And(
		expr.GtEq("event_ts", iceberg.Timestamp(day0.UnixMicro())),
		expr.Lt("event_ts", iceberg.Timestamp(day0.Add(24*time.Hour).UnixMicro())))
	for _, tc := range []struct {
		isolation   string
		appendDay   int
		wantFailure bool
	}{
		{iceberg.IsolationSerializable, 0, true},
		{iceberg.IsolationSnapshot, 0, false},
		{iceberg.IsolationSerializable, 5, false},
	} {
		t.Run(tc.isolation+"/day"+itoa(tc.appendDay), func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t)
			tbl := f.createEvents(t, nil)
			old := f.dayFile(t, tbl, 0, 100)
			tbl, err := tbl.NewAppend().AddDataFile(old).Commit(ctx)
			if err != nil {
				t.Fatal(err)
			}
			start := tbl.Metadata().CurrentSnapshotID()

			// The overwrite reads at `start`; meanwhile another writer appends.
			concurrent := f.dayFile(t, tbl, tc.appendDay, 7)
			if _, err := tbl.NewAppend().AddDataFile(concurrent).Commit(ctx); err != nil {
				t.Fatal(err)
			}
			replacement := f.dayFile(t, tbl, 0, 90)
			_, err = tbl.NewOverwrite().RemoveFile(old).AddDataFile(replacement).
				Validate(&start, tc.isolation, dayFilter).Commit(ctx)
			final, lerr := Load(ctx, f.env, f.ident)
			if lerr != nil {
				t.Fatal(lerr)
			}
			live := liveFiles(t, final)
			if tc.wantFailure {
				var verr *iceberg.ValidationError
				if !errors.As(err, &verr) {
					t.Fatalf("got %v, want *ValidationError", err)
				}
				if len(verr.ConflictingFiles) != 1 || verr.ConflictingFiles[0] != concurrent.FilePath || verr.IsolationLevel != tc.isolation {
					t.Fatalf("validation error %+v", verr)
				}
				if len(live) != 2 || final.Metadata().CurrentSnapshot().Operation() != iceberg.OpAppend {
					t.Fatalf("table after failed overwrite: %v", live)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(live) != 2 || !contains(live, replacement.FilePath) || !contains(live, concurrent.FilePath) || contains(live, old.FilePath) {
				t.Fatalf("live files %v", live)
			}
			s := final.Metadata().CurrentSnapshot().Summary
			if s["operation"] != "overwrite" || s["deleted-data-files"] != "1" || s["deleted-records"] != "100" ||
				s["added-records"] != "90" || s["total-records"] != "97" {
				t.Fatalf("summary %v", s)
			}
		})
	}
}

// Removing a file that a concurrent commit already removed fails, at any
// isolation level, and is not retried.
func TestRemoveMissingFileFails(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.createEvents(t, nil)
	old := f.dayFile(t, tbl, 0, 10)
	tbl, err := tbl.NewAppend().AddDataFile(old).Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.NewDelete().RemoveFile(old).Commit(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = tbl.NewOverwrite().RemoveFile(old).AddDataFile(f.dayFile(t, tbl, 0, 5)).Commit(ctx)
	var verr *iceberg.ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("got %v, want *ValidationError", err)
	}
}

// A metadata-only delete removes whole files and refuses a filter that
// would need to rewrite part of a file.
func TestDeleteWhere(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.createEvents(t, nil)
	var err error
	for d := 0; d < 3; d++ {
		if tbl, err = tbl.NewAppend().AddDataFile(f.dayFile(t, tbl, d, 10)).Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	day1 := day0.AddDate(0, 0, 1)
	tbl, err = tbl.NewDelete().DeleteWhere(expr.Lt("event_ts", iceberg.Timestamp(day1.UnixMicro()))).Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(liveFiles(t, tbl)); got != 2 {
		t.Fatalf("%d live files, want 2", got)
	}
	if s := tbl.Metadata().CurrentSnapshot().Summary; s["operation"] != "delete" || s["total-records"] != "20" {
		t.Fatalf("summary %v", s)
	}
	_, err = tbl.NewDelete().DeleteWhere(expr.Lt("event_ts", iceberg.Timestamp(day1.Add(time.Hour).UnixMicro()))).Commit(ctx)
	var verr *iceberg.ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("partial-file delete: got %v, want *ValidationError", err)
	}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
