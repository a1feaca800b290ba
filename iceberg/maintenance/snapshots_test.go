package maintenance

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/icesql/icesql/iceberg"
)

// history builds main = s1 (ids 0-1) -> s2 (2-3) -> s3 (4-5) and a branch
// "audit" = s2 -> s4 (ids 100-101) that main never saw.
func history(t *testing.T) (f *fixture, s1, s2, s3, s4 int64) {
	t.Helper()
	ctx := context.Background()
	f = newFixture(t)
	tbl := f.create(t, false, nil)
	tbl = appendRows(t, tbl, seq(0, 2))
	s1 = tbl.Metadata().CurrentSnapshotID()
	tbl = appendRows(t, tbl, seq(2, 4))
	s2 = tbl.Metadata().CurrentSnapshotID()
	if _, err := CreateRef(ctx, tbl, "audit", false, RefOptions{}); err != nil {
		t.Fatal(err)
	}
	tbl = f.load(t)
	u := tbl.NewAppend().ToBranch("audit")
	for _, df := range writeFiles(t, tbl, seq(100, 102), "a") {
		u.AddDataFile(df)
	}
	tbl, err := u.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s4 = refHeadOrZero(tbl.Metadata(), "audit")
	tbl = appendRows(t, tbl, seq(4, 6))
	s3 = tbl.Metadata().CurrentSnapshotID()
	return f, s1, s2, s3, s4
}

func refHeadOrZero(m *iceberg.TableMetadata, name string) int64 {
	if p := refHead(m, name); p != nil {
		return *p
	}
	return 0
}

func TestMoveMain(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		run     func(f *fixture, s1, s2, s3, s4 int64) (SnapshotChangeResult, error)
		wantErr error
		wantIDs []int64
	}{
		{"rollback to ancestor", func(f *fixture, s1, s2, s3, s4 int64) (SnapshotChangeResult, error) {
			return RollbackToSnapshot(ctx, f.load(t), s1)
		}, nil, seq(0, 2)},
		{"rollback to non-ancestor", func(f *fixture, s1, s2, s3, s4 int64) (SnapshotChangeResult, error) {
			return RollbackToSnapshot(ctx, f.load(t), s4)
		}, ErrNotAncestor, nil},
		{"rollback to unknown", func(f *fixture, s1, s2, s3, s4 int64) (SnapshotChangeResult, error) {
			return RollbackToSnapshot(ctx, f.load(t), 7)
		}, iceberg.ErrNoSuchSnapshot, nil},
		{"rollback to timestamp", func(f *fixture, s1, s2, s3, s4 int64) (SnapshotChangeResult, error) {
			tbl := f.load(t)
			s2Snap, _ := tbl.Metadata().SnapshotByID(s2)
			return RollbackToTimestamp(ctx, tbl, time.UnixMilli(s2Snap.TimestampMs+1))
		}, nil, seq(0, 4)},
		{"rollback to timestamp before history", func(f *fixture, s1, s2, s3, s4 int64) (SnapshotChangeResult, error) {
			return RollbackToTimestamp(ctx, f.load(t), time.UnixMilli(0))
		}, iceberg.ErrNoSuchSnapshot, nil},
		{"set current to non-ancestor id", func(f *fixture, s1, s2, s3, s4 int64) (SnapshotChangeResult, error) {
			return SetCurrentSnapshot(ctx, f.load(t), &s4, "")
		}, nil, append(seq(0, 4), 100, 101)},
		{"set current by ref", func(f *fixture, s1, s2, s3, s4 int64) (SnapshotChangeResult, error) {
			return SetCurrentSnapshot(ctx, f.load(t), nil, "audit")
		}, nil, append(seq(0, 4), 100, 101)},
		{"set current with both arguments", func(f *fixture, s1, s2, s3, s4 int64) (SnapshotChangeResult, error) {
			return SetCurrentSnapshot(ctx, f.load(t), &s1, "audit")
		}, ErrInvalidArgument, nil},
		{"set current to unknown ref", func(f *fixture, s1, s2, s3, s4 int64) (SnapshotChangeResult, error) {
			return SetCurrentSnapshot(ctx, f.load(t), nil, "nope")
		}, iceberg.ErrNoSuchRef, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, s1, s2, s3, s4 := history(t)
			res, err := tc.run(f, s1, s2, s3, s4)
			after := f.load(t)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				if after.Metadata().CurrentSnapshotID() != s3 {
					t.Fatal("a failed call moved main")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.PreviousSnapshotID == nil || *res.PreviousSnapshotID != s3 {
				t.Fatalf("previous = %v, want %d", res.PreviousSnapshotID, s3)
			}
			if after.Metadata().CurrentSnapshotID() != res.CurrentSnapshotID {
				t.Fatalf("main = %d, result says %d", after.Metadata().CurrentSnapshotID(), res.CurrentSnapshotID)
			}
			if got := readIDs(t, after, 0); !slices.Equal(got, tc.wantIDs) {
				t.Fatalf("rows = %v, want %v", got, tc.wantIDs)
			}
		})
	}
}

func TestFastForward(t *testing.T) {
	ctx := context.Background()
	t.Run("main to a descendant branch", func(t *testing.T) {
		f := newFixture(t)
		tbl := appendRows(t, f.create(t, false, nil), seq(0, 2))
		head := tbl.Metadata().CurrentSnapshotID()
		if _, err := CreateRef(ctx, tbl, "staging", false, RefOptions{}); err != nil {
			t.Fatal(err)
		}
		tbl = f.load(t)
		u := tbl.NewAppend().ToBranch("staging")
		for _, df := range writeFiles(t, tbl, seq(2, 3), "a") {
			u.AddDataFile(df)
		}
		tbl, err := u.Commit(ctx)
		if err != nil {
			t.Fatal(err)
		}
		staged := refHeadOrZero(tbl.Metadata(), "staging")
		res, err := FastForward(ctx, tbl, "main", "staging")
		if err != nil {
			t.Fatal(err)
		}
		want := FastForwardResult{BranchUpdated: "main", PreviousRef: &head, UpdatedRef: staged}
		if res.BranchUpdated != want.BranchUpdated || *res.PreviousRef != head || res.UpdatedRef != staged {
			t.Fatalf("got %+v, want %+v", res, want)
		}
		if got := readIDs(t, f.load(t), 0); !slices.Equal(got, seq(0, 3)) {
			t.Fatalf("rows = %v", got)
		}
	})
	errCases := []struct {
		name, branch, to string
		wantErr          error
	}{
		{"diverged", "main", "audit", ErrNotAncestor},
		{"tag as branch", "v1", "main", ErrRefTypeMismatch},
		{"unknown target", "main", "nope", iceberg.ErrNoSuchRef},
		{"unknown branch", "nope", "main", iceberg.ErrNoSuchRef},
	}
	for _, tc := range errCases {
		t.Run(tc.name, func(t *testing.T) {
			f, s1, _, _, _ := history(t)
			if _, err := CreateRef(ctx, f.load(t), "v1", true, RefOptions{SnapshotID: &s1}); err != nil {
				t.Fatal(err)
			}
			_, err := FastForward(ctx, f.load(t), tc.branch, tc.to)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
		})
	}
}

func TestCherrypick(t *testing.T) {
	ctx := context.Background()
	t.Run("append onto a moved main", func(t *testing.T) {
		f, _, _, s3, s4 := history(t)
		res, err := CherrypickSnapshot(ctx, f.load(t), s4)
		if err != nil {
			t.Fatal(err)
		}
		tbl := f.load(t)
		cur := tbl.Metadata().CurrentSnapshot()
		if res.CurrentSnapshotID != cur.SnapshotID || res.SourceSnapshotID != s4 || cur.SnapshotID == s4 {
			t.Fatalf("result %+v, main %d", res, cur.SnapshotID)
		}
		if cur.ParentSnapshotID == nil || *cur.ParentSnapshotID != s3 {
			t.Fatalf("new snapshot's parent = %v, want %d", cur.ParentSnapshotID, s3)
		}
		if cur.Summary[SummarySourceSnapshotID] != strconv.FormatInt(s4, 10) || cur.Operation() != iceberg.OpAppend {
			t.Fatalf("summary %v", cur.Summary)
		}
		if got, want := readIDs(t, tbl, 0), append(seq(0, 6), 100, 101); !slices.Equal(got, want) {
			t.Fatalf("rows = %v, want %v", got, want)
		}
		_, err = CherrypickSnapshot(ctx, tbl, s4)
		if !errors.Is(err, ErrAlreadyCherrypicked) {
			t.Fatalf("second cherry-pick: err = %v", err)
		}
	})
	t.Run("fast-forward when the parent is main's head", func(t *testing.T) {
		f, _, _, s3, _ := history(t)
		tbl := f.load(t)
		if _, err := CreateRef(ctx, tbl, "wap", false, RefOptions{}); err != nil {
			t.Fatal(err)
		}
		tbl = f.load(t)
		u := tbl.NewAppend().ToBranch("wap")
		for _, df := range writeFiles(t, tbl, seq(200, 201), "a") {
			u.AddDataFile(df)
		}
		tbl, err := u.Commit(ctx)
		if err != nil {
			t.Fatal(err)
		}
		staged := refHeadOrZero(tbl.Metadata(), "wap")
		res, err := CherrypickSnapshot(ctx, tbl, staged)
		if err != nil {
			t.Fatal(err)
		}
		if res.CurrentSnapshotID != staged || f.load(t).Metadata().CurrentSnapshotID() != staged {
			t.Fatalf("main = %d, want staged %d (parent %d)", res.CurrentSnapshotID, staged, s3)
		}
	})
	t.Run("refused", func(t *testing.T) {
		f, s1, _, _, _ := history(t)
		tbl := deleteIDs(t, f.load(t), 0)
		del := tbl.Metadata().CurrentSnapshotID()
		tbl = appendRows(t, tbl, seq(10, 11))
		if _, err := RollbackToSnapshot(ctx, tbl, s1); err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			name    string
			id      int64
			wantErr error
		}{
			{"ancestor", s1, ErrAlreadyCherrypicked},
			{"delete snapshot", del, ErrCherrypickUnsupported},
			{"unknown", 99, iceberg.ErrNoSuchSnapshot},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				_, err := CherrypickSnapshot(ctx, f.load(t), tc.id)
				var se *SnapshotError
				if !errors.Is(err, tc.wantErr) || !errors.As(err, &se) || se.SnapshotID != tc.id {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
			})
		}
	})
}
