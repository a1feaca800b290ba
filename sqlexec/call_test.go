package sqlexec

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/maintenance"
	"github.com/icesql/icesql/sqlexec/exec"
	"github.com/icesql/icesql/sqlexec/parser"
)

func TestSplitTableName(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // parts joined by |, or "error"
	}{
		{"t", "t"},
		{"ns.t", "ns|t"},
		{"cat.ns.t", "cat|ns|t"},
		{"`a.b`.t", "a.b|t"},
		{"ns.`we``ird`", "ns|we`ird"},
		{"", "error"},
		{"ns.", "error"},
		{".t", "error"},
		{"ns..t", "error"},
		{"`open", "error"},
		{"ns t", "error"},
		{"`a`b.t", "error"},
		{"a`b", "error"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			parts, err := splitTableName(tc.in)
			got := strings.Join(parts, "|")
			if err != nil {
				got = "error"
			}
			if got != tc.want {
				t.Fatalf("splitTableName(%q) = %q (err %v), want %q", tc.in, got, err, tc.want)
			}
		})
	}
}

func FuzzSplitTableName(f *testing.F) {
	for _, s := range []string{"ns.t", "`a.b`.t", "a``b", "..", "`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		parts, err := splitTableName(s)
		if err != nil {
			return
		}
		if len(parts) == 0 {
			t.Fatalf("%q: no parts and no error", s)
		}
		for _, p := range parts {
			if p == "" {
				t.Fatalf("%q: empty part in %q", s, parts)
			}
		}
	})
}

func TestParseSortOrder(t *testing.T) {
	schema, err := iceberg.NewSchema(0, []iceberg.NestedField{
		{ID: 1, Name: "id", Type: iceberg.LongType{}},
		{ID: 2, Name: "Name", Type: iceberg.StringType{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in, want string // want: "id:dir:nulls,..." or an error substring
	}{
		{"id", "1:asc:nulls-first"},
		{"id DESC", "1:desc:nulls-last"},
		{"id desc nulls first, Name", "1:desc:nulls-first,2:asc:nulls-first"},
		{"name ASC NULLS LAST", "2:asc:nulls-last"},
		{"zorder(id, name)", "zorder is not supported"},
		{"nope", `unknown column "nope"`},
		{"id sideways", "cannot read sort term"},
		{"id,", "empty term"},
		{"id NULLS", "cannot read sort term"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			o, err := parseSortOrder(schema, tc.in)
			if err != nil {
				if !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %q, want %q", err, tc.want)
				}
				return
			}
			var got []string
			for _, f := range o.Fields {
				got = append(got, itoa(f.SourceID)+":"+string(f.Direction)+":"+string(f.NullOrder))
			}
			if strings.Join(got, ",") != tc.want {
				t.Fatalf("got %s, want %s", strings.Join(got, ","), tc.want)
			}
		})
	}
}

func TestApplyRewriteOptions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    map[string]string
		err   string
		check func(maintenance.RewriteOptions) bool
	}{
		{"sizes", map[string]string{"target-file-size-bytes": "1000", "min-file-size-bytes": "10", "max-file-size-bytes": "2000"}, "",
			func(o maintenance.RewriteOptions) bool {
				return o.TargetFileSizeBytes == 1000 && o.MinFileSizeBytes == 10 && o.MaxFileSizeBytes == 2000
			}},
		{"counts and flags", map[string]string{"min-input-files": "2", "delete-file-threshold": "3", "rewrite-all": "true"}, "",
			func(o maintenance.RewriteOptions) bool {
				return o.MinInputFiles == 2 && o.DeleteFileThreshold == 3 && o.RewriteAll
			}},
		{"scheduling options ignored", map[string]string{"max-concurrent-file-group-rewrites": "9"}, "",
			func(o maintenance.RewriteOptions) bool { return o.TargetFileSizeBytes == 0 }},
		{"negative", map[string]string{"target-file-size-bytes": "-1"}, "not a positive integer", nil},
		{"not a number", map[string]string{"min-input-files": "many"}, "not a positive integer", nil},
		{"too large count", map[string]string{"min-input-files": "99999999999"}, "too large", nil},
		{"bad bool", map[string]string{"rewrite-all": "yes please"}, "not true or false", nil},
		{"unsupported", map[string]string{"use-starting-sequence-number": "true"}, "not supported", nil},
		{"unknown", map[string]string{"target-size": "1"}, `unknown option "target-size"`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var o maintenance.RewriteOptions
			err := applyRewriteOptions(&o, tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(o) {
				t.Fatalf("options %+v", o)
			}
		})
	}
}

func TestConvertCallArg(t *testing.T) {
	for _, tc := range []struct {
		name string
		kind argKind
		v    any
		want any // or an error substring (string) when err is set
		err  bool
	}{
		{"long", argLong, int64(7), int64(7), false},
		{"int from int32", argInt, int32(7), int64(7), false},
		{"int out of range", argInt, int64(1) << 40, "out of range", true},
		{"long from string", argLong, "7", "must be a long", true},
		{"long from float", argLong, 1.5, "must be a long", true},
		{"bool", argBool, true, true, false},
		{"bool from 0", argBool, int64(0), false, false},
		{"bool from 2", argBool, int64(2), "must be a boolean", true},
		{"string", argString, "x", "x", false},
		{"string from int", argString, int64(1), "must be a string", true},
		{"timestamp from string", argTimestamp, "2024-01-02 03:04:05", time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), false},
		{"timestamp from junk", argTimestamp, "soon", "is not a timestamp", true},
		{"timestamp from bool", argTimestamp, true, "must be a timestamp", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := convertCallArg(tc.kind, tc.v, nil)
			if tc.err {
				if err == nil || !strings.Contains(err.Error(), tc.want.(string)) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ts, ok := got.(time.Time); ok {
				if !ts.Equal(tc.want.(time.Time)) {
					t.Fatalf("got %v, want %v", ts, tc.want)
				}
				return
			}
			if got != tc.want {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

// TestCallErrors checks the error types of bad CALLs through a session.
func TestCallErrors(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	if _, err := s.Exec(ctx, "CREATE TABLE t (id BIGINT)", nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sql      string
		sentinel error
		arg      string
	}{
		{"CALL system.nope('t')", ErrUnknownProcedure, ""},
		{"CALL other.system.expire_snapshots('t')", ErrUnknownProcedure, ""},
		{"CALL expire_snapshots('t')", ErrUnknownProcedure, ""},
		{"CALL system.expire_snapshots()", ErrProcedureArgument, "table"},
		{"CALL system.expire_snapshots(tbl => 't')", ErrProcedureArgument, "tbl"},
		{"CALL system.expire_snapshots('t', table => 't')", ErrProcedureArgument, "table"},
		{"CALL system.expire_snapshots(table => 1)", ErrProcedureArgument, "table"},
		{"CALL system.expire_snapshots(table => 't', snapshot_ids => ('a', 'b'))", ErrProcedureArgument, "snapshot_ids"},
		{"CALL system.expire_snapshots(table => 't', retain_last => 0)", ErrProcedureArgument, "retain_last"},
		{"CALL system.expire_snapshots(table => 't', older_than => nocolumn)", ErrProcedureArgument, "older_than"},
		{"CALL system.rewrite_data_files(table => 't', options => 'x')", ErrProcedureArgument, "options"},
		{"CALL system.set_current_snapshot(table => 't', snapshot_id => 1, ref => 'main')", ErrProcedureArgument, "snapshot_id"},
		{"CALL system.register_table(table => 't2', metadata_file => '')", ErrProcedureArgument, "metadata_file"},
		{"CALL system.expire_snapshots(table => 'no.such.t')", iceberg.ErrNoSuchTable, ""},
		{"CALL system.register_table('t', 'nowhere.metadata.json')", nil, ""},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			_, err := s.Exec(ctx, tc.sql, nil)
			if err == nil {
				t.Fatal("no error")
			}
			if tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
				t.Fatalf("err = %v, want %v", err, tc.sentinel)
			}
			var pe *ProcedureArgError
			if tc.arg != "" && (!errors.As(err, &pe) || pe.Argument != tc.arg || pe.Procedure == "") {
				t.Fatalf("err = %v, want a *ProcedureArgError for %s", err, tc.arg)
			}
		})
	}
}

// TestCallResultsAndRegister runs procedures through a session and checks
// their result columns and rows, and that register_table makes a second
// name for an existing table's metadata.
func TestCallResultsAndRegister(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	for _, q := range []string{
		"CREATE TABLE t (id BIGINT)",
		"INSERT INTO t VALUES (1)",
		"INSERT INTO t VALUES (2)",
	} {
		if _, err := s.Exec(ctx, q, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	first := int64(0)
	tbl, err := s.loadTable(ctx, mustRef("t"))
	if err != nil {
		t.Fatal(err)
	}
	for snap := range tbl.Metadata().Ancestors(tbl.Metadata().CurrentSnapshotID()) {
		first = snap.SnapshotID
	}
	head := tbl.Metadata().CurrentSnapshotID()

	cols, rows := callRows(t, s, "CALL system.rollback_to_snapshot('t', ?)", first)
	if strings.Join(cols, ",") != "previous_snapshot_id,current_snapshot_id" || rows[0][0] != head || rows[0][1] != first {
		t.Fatalf("rollback: %v %v (head %d, first %d)", cols, rows, head, first)
	}
	cols, rows = callRows(t, s, "CALL system.set_current_snapshot(table => 't', snapshot_id => ?)", head)
	if rows[0][0] != first || rows[0][1] != head {
		t.Fatalf("set_current_snapshot: %v %v", cols, rows)
	}
	if _, err := s.Exec(ctx, "ALTER TABLE t CREATE TAG first AS OF VERSION "+i64toa(first), nil); err != nil {
		t.Fatal(err)
	}
	_, rows = callRows(t, s, "CALL system.set_current_snapshot(table => 't', ref => 'first')")
	if rows[0][1] != first {
		t.Fatalf("set_current_snapshot to a tag: %v", rows)
	}
	_, rows = callRows(t, s, "CALL system.rollback_to_timestamp('t', ?)", time.Now().Add(time.Hour))
	if rows[0][1] != first {
		t.Fatalf("rollback_to_timestamp: %v", rows)
	}

	tbl, err = s.loadTable(ctx, mustRef("t"))
	if err != nil {
		t.Fatal(err)
	}
	cols, rows = callRows(t, s, "CALL system.register_table('t2', ?)", tbl.MetadataLocation())
	if strings.Join(cols, ",") != "current_snapshot_id,total_records_count,total_data_files_count" ||
		rows[0][0] != first || rows[0][1] != int64(1) || rows[0][2] != int64(1) {
		t.Fatalf("register_table: %v %v", cols, rows)
	}
	if _, err := s.Exec(ctx, "CALL system.register_table('t2', ?)", []any{tbl.MetadataLocation()}); !errors.Is(err, iceberg.ErrTableAlreadyExists) {
		t.Fatalf("registering twice: %v", err)
	}
}

func callRows(t *testing.T, s *Session, q string, args ...any) ([]string, [][]any) {
	t.Helper()
	rows, err := s.Query(context.Background(), q, args)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var names []string
	for _, c := range rows.Columns() {
		names = append(names, c.Name)
	}
	var out [][]any
	for {
		rec, err := rows.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			break
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			row := make([]any, rec.NumCols())
			for c := range row {
				row[c] = exec.ValueAt(rec.Column(c), i)
			}
			out = append(out, row)
		}
		rec.Release()
	}
	if len(out) == 0 {
		t.Fatalf("%s: no rows", q)
	}
	return names, out
}

func mustRef(name string) *parser.TableRef {
	return &parser.TableRef{Parts: []string{name}, Table: name}
}
