package maintenance

import (
	"context"
	"errors"
	"testing"

	"github.com/icesql/icesql/iceberg"
)

func TestCreateAndDropRefs(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tbl := f.create(t, false, nil)
	tbl = appendRows(t, tbl, seq(0, 2))
	first := tbl.Metadata().CurrentSnapshotID()
	tbl = appendRows(t, tbl, seq(2, 4))
	head := tbl.Metadata().CurrentSnapshotID()
	if _, err := CreateRef(ctx, tbl, "dev", false, RefOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := CreateRef(ctx, tbl, "v1", true, RefOptions{SnapshotID: &first, RetainMs: 1000}); err != nil {
		t.Fatal(err)
	}
	missing := int64(42)

	tests := []struct {
		name    string
		run     func() (RefResult, error)
		wantErr error
		want    RefResult
	}{
		{"branch at head", func() (RefResult, error) { return CreateRef(ctx, tbl, "b1", false, RefOptions{MinSnapshotsToKeep: 3}) },
			nil, RefResult{Name: "b1", Type: iceberg.BranchRef, SnapshotID: head, Created: true}},
		{"existing without replace", func() (RefResult, error) { return CreateRef(ctx, tbl, "dev", false, RefOptions{}) },
			ErrRefExists, RefResult{}},
		{"if not exists keeps it", func() (RefResult, error) {
			return CreateRef(ctx, tbl, "dev", false, RefOptions{IfNotExists: true, SnapshotID: &first})
		}, nil, RefResult{Name: "dev", Type: iceberg.BranchRef, SnapshotID: head}},
		{"replace moves it", func() (RefResult, error) {
			return CreateRef(ctx, tbl, "dev", false, RefOptions{Replace: true, SnapshotID: &first})
		}, nil, RefResult{Name: "dev", Type: iceberg.BranchRef, SnapshotID: first, Created: true}},
		{"branch over a tag", func() (RefResult, error) { return CreateRef(ctx, tbl, "v1", false, RefOptions{Replace: true}) },
			ErrRefTypeMismatch, RefResult{}},
		{"tag named main", func() (RefResult, error) { return CreateRef(ctx, tbl, "main", true, RefOptions{}) },
			ErrMainBranch, RefResult{}},
		{"tag with branch retention", func() (RefResult, error) { return CreateRef(ctx, tbl, "v2", true, RefOptions{MaxSnapshotAgeMs: 5}) },
			ErrInvalidArgument, RefResult{}},
		{"unknown snapshot", func() (RefResult, error) { return CreateRef(ctx, tbl, "v3", true, RefOptions{SnapshotID: &missing}) },
			iceberg.ErrNoSuchSnapshot, RefResult{}},
		{"replace and if not exists", func() (RefResult, error) {
			return CreateRef(ctx, tbl, "v4", true, RefOptions{Replace: true, IfNotExists: true})
		}, ErrInvalidArgument, RefResult{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.run()
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				var re *RefError
				if !errors.As(err, &re) {
					t.Fatalf("err %T is not a *RefError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			ref, ok := f.load(t).Metadata().Ref(tc.want.Name)
			if !ok || ref.SnapshotID != tc.want.SnapshotID || ref.Type != tc.want.Type {
				t.Fatalf("stored ref %+v (exists %v), want %+v", ref, ok, tc.want)
			}
		})
	}
	t.Run("stored retention", func(t *testing.T) {
		m := f.load(t).Metadata()
		if r, _ := m.Ref("b1"); r.MinSnapshotsToKeep == nil || *r.MinSnapshotsToKeep != 3 {
			t.Fatalf("b1 = %+v", r)
		}
		if r, _ := m.Ref("v1"); r.MaxRefAgeMs == nil || *r.MaxRefAgeMs != 1000 {
			t.Fatalf("v1 = %+v", r)
		}
	})

	drops := []struct {
		name     string
		ref      string
		tag      bool
		ifExists bool
		wantErr  error
	}{
		{"main", "main", false, false, ErrMainBranch},
		{"tag as branch", "v1", false, false, ErrRefTypeMismatch},
		{"branch as tag", "dev", true, false, ErrRefTypeMismatch},
		{"missing", "nope", false, false, iceberg.ErrNoSuchRef},
		{"missing if exists", "nope", true, true, nil},
		{"tag", "v1", true, false, nil},
		{"branch", "dev", false, false, nil},
	}
	for _, tc := range drops {
		t.Run("drop "+tc.name, func(t *testing.T) {
			err := DropRef(ctx, f.load(t), tc.ref, tc.tag, tc.ifExists)
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			_, exists := f.load(t).Metadata().Ref(tc.ref)
			if tc.wantErr == nil && exists {
				t.Fatalf("ref %q still exists", tc.ref)
			}
			if tc.wantErr != nil && !exists && !errors.Is(tc.wantErr, iceberg.ErrNoSuchRef) {
				t.Fatalf("ref %q was dropped by a failing call", tc.ref)
			}
		})
	}
}
