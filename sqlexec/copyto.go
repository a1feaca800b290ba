package sqlexec

import (
	"context"
	"errors"
	"strings"

	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec/export"
	"github.com/icesql/icesql/sqlexec/parser"
)

// ErrCopyToDisabled: COPY ... TO on an engine with Config.DisableCopyTo.
var ErrCopyToDisabled = errors.New("sqlexec: COPY ... TO is disabled (DSN allow_copy_to=false)")

// copyTo runs COPY (query) TO 'file' / COPY table TO 'file': the one SQL
// statement that writes outside the tables. It writes a new file (an
// existing one only with OVERWRITE), never inside the warehouse
// directory, the catalog file or a table's location, and is refused
// altogether with Config.DisableCopyTo. The result's RowsAffected is the
// rows written.
func (s *Session) copyTo(ctx context.Context, st *parser.CopyToStmt) (Result, error) {
	if s.engine.cfg.DisableCopyTo {
		return Result{}, ErrCopyToDisabled
	}
	if err := s.engine.checkCopyTarget(ctx, st.File); err != nil {
		return Result{}, err
	}
	opts := export.DefaultOptions()
	var csvOnly []string
	for _, o := range st.Options {
		if err := opts.Set(o.Name, o.Value, o.Value != "" || o.Quoted); err != nil {
			return Result{}, invalidf("COPY: %v", err)
		}
		if export.IsCSVOnly(o.Name) {
			csvOnly = append(csvOnly, o.Name)
		}
	}
	if err := opts.Normalize(st.File); err != nil {
		return Result{}, invalidf("COPY: %v", err)
	}
	if err := opts.CheckFormatOptions(csvOnly); err != nil {
		return Result{}, invalidf("COPY: %v", err)
	}
	var rows *Rows
	var err error
	if st.Query != nil {
		rows, err = s.selectRows(ctx, st.Query.Node, st.Refs)
	} else {
		rows, err = s.Query(ctx, "SELECT * FROM "+quotedName(st.Table.Parts), nil)
	}
	if err != nil {
		return Result{}, err
	}
	defer rows.Close()
	n, err := export.WriteFile(ctx, st.File, rows, opts)
	if err != nil {
		if errors.Is(err, export.ErrFileExists) {
			return Result{}, invalidf("COPY: %v", err)
		}
		return Result{}, err
	}
	return Result{RowsAffected: n}, nil
}

// checkCopyTarget refuses a COPY target inside the warehouse directory
// (tables, metadata, the catalog file) or any table's location.
func (e *Engine) checkCopyTarget(ctx context.Context, file string) error {
	p, err := resolvedPath(file)
	if err != nil {
		return locationErrorf("COPY TO %q: %v", file, err)
	}
	if within(e.warehouseDir(), p) {
		return locationErrorf("COPY TO %q: the file lies inside the warehouse directory %q", file, e.warehouseDir())
	}
	if within(p, e.catalogPath()) {
		return locationErrorf("COPY TO %q: the catalog file", file)
	}
	if err := e.checkNoOverlap(ctx, table.Identifier{}, p, file, true); err != nil {
		return err
	}
	return nil
}

// quotedName back-quotes each part of a name.
func quotedName(parts []string) string {
	q := make([]string, len(parts))
	for i, p := range parts {
		q[i] = "`" + strings.ReplaceAll(p, "`", "``") + "`"
	}
	return strings.Join(q, ".")
}
