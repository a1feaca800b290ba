package shell

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/icesql/icesql/cmd/icesql/internal/format"
)

const helpText = `Meta-commands:
  \q                 quit (or Ctrl-D)
  \help, \?          this help
  \dn                list namespaces
  \dt [namespace]    list tables
  \d table           describe a table: columns, partitioning, properties, current snapshot
  \snapshots table   list a table's snapshots
  \dv [namespace]    list views
  \conninfo          the warehouse, catalog, namespace and mode of the connection
  \format NAME       output format: aligned, csv, tsv, json, markdown, expanded
  \x                 toggle expanded output
  \pset [OPTION [VALUE]]
                     format NAME; null 'TEXT' (how aligned, expanded and Markdown
                     output show NULL; default NULL); pager on|off|always
                     (on: results taller than the screen); \pset alone lists them
  \timing [on|off]   print each statement's run time (time spent in the pager
                     is left out)
  \i file            run the statements and meta-commands of a file
  \e [file]          edit file, or the last statement, with $VISUAL or $EDITOR
                     (default vi); what is saved runs when the editor exits
  \! [command]       run a shell command (no command: $SHELL)
  \copy table FROM 'file' [WITH (option value, ...)]
                     bulk-load a file into a table. Options: FORMAT csv|jsonl|parquet
                     (default from the extension); for CSV: HEADER true|false
                     (default true), DELIMITER ',', QUOTE '"', ESCAPE (default the
                     quote), NULL '' (an unquoted field equal to it is NULL; "" quoted
                     is a string). JSON lines fill list, map and struct columns from
                     arrays and objects.
  \copy (query) TO 'file' [WITH (option value, ...)]
  \copy table TO 'file' [...]
                     write a result to a file (replacing it; OVERWRITE false keeps an
                     existing one). Options: FORMAT csv|json|parquet (default from
                     the extension; json is one object per line); for CSV: HEADER
                     true|false (default true), DELIMITER ',', NULL ''. The file STDOUT
                     prints CSV. psql's spellings work too: WITH CSV HEADER,
                     (FORMAT csv, HEADER), DELIMITER '|', unquoted file names.
  \o [file]          send query results to file (created or truncated); \o alone
                     sends them to the terminal again
SQL statements end with ';' and may span lines (history keeps one as one entry). COPY (query) TO 'file'
[(FORMAT parquet|csv|json, ...)] writes a result from SQL (a new file unless
OVERWRITE; never inside the warehouse). Ctrl-C cancels a running statement.
Ctrl-R searches the history (again: older matches). Tab completes names; in
\copy, file names.
Rows print as they arrive. The aligned format sizes its columns from the first
1000 rows; a wider value later overflows its column instead of re-aligning.
`

func (s *Shell) meta(ctx context.Context, line string) error {
	cmd, args, _ := strings.Cut(strings.TrimSpace(line), " ")
	args = strings.TrimSpace(args)
	switch cmd {
	case `\q`, `\quit`:
		return ErrQuit
	case `\help`, `\?`, `\h`:
		fmt.Fprint(s.Out, helpText)
		return nil
	case `\format`:
		if args == "" {
			fmt.Fprintf(s.Out, "Output format is %s.\n", s.Format)
			return nil
		}
		return s.formatCommand(args)
	case `\pset`:
		return s.pset(args)
	case `\i`, `\include`:
		return s.include(ctx, unquote(args))
	case `\e`, `\edit`:
		return s.edit(ctx, unquote(args))
	case `\!`:
		return s.shellCommand(ctx, args)
	case `\conninfo`:
		return s.conninfo()
	case `\dv`:
		if args == "" {
			return s.show(ctx, "SHOW VIEWS")
		}
		return s.show(ctx, "SHOW VIEWS IN "+args)
	case `\x`:
		if s.Format == format.Expanded {
			s.setFormat(s.prevFormat)
		} else {
			s.setFormat(format.Expanded)
		}
		if s.Terminal {
			fmt.Fprintf(s.Out, "Output format is %s.\n", s.Format)
		}
		return nil
	case `\timing`:
		switch strings.ToLower(args) {
		case "":
			s.Timing = !s.Timing
		case "on":
			s.Timing = true
		case "off":
			s.Timing = false
		default:
			return fmt.Errorf("%w: \\timing [on|off]", ErrUsage)
		}
		if s.Terminal {
			fmt.Fprintf(s.Out, "Timing is %s.\n", onOff(s.Timing))
		}
		return nil
	case `\dn`:
		return s.show(ctx, "SHOW NAMESPACES")
	case `\dt`:
		if args == "" {
			return s.show(ctx, "SHOW TABLES")
		}
		return s.show(ctx, "SHOW TABLES IN "+args)
	case `\d`:
		if args == "" {
			return s.show(ctx, "SHOW TABLES")
		}
		return s.describe(ctx, args)
	case `\snapshots`:
		if args == "" {
			return fmt.Errorf("%w: \\snapshots table", ErrUsage)
		}
		return s.show(ctx, "SELECT committed_at, snapshot_id, parent_id, operation, summary FROM "+args+".snapshots ORDER BY committed_at")
	case `\copy`:
		return s.copy(ctx, args)
	case `\o`, `\out`:
		return s.setOutput(unquote(args))
	}
	return fmt.Errorf("%w: %s (try \\help)", ErrUnknownMeta, cmd)
}

// unquote strips one pair of single quotes ('it”s' is it's).
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// formatCommand sets the output format by name.
func (s *Shell) formatCommand(name string) error {
	f, err := format.Parse(name)
	if err != nil {
		return err
	}
	s.setFormat(f)
	if s.Terminal {
		fmt.Fprintf(s.Out, "Output format is %s.\n", f)
	}
	return nil
}

func (s *Shell) setFormat(f format.Format) {
	if s.Format != format.Expanded {
		s.prevFormat = s.Format
	}
	s.Format = f
}

func (s *Shell) show(ctx context.Context, q string) error {
	return s.stream(ctx, q, nil)
}

// describe prints columns and partitioning, properties and the current
// snapshot of a table.
func (s *Shell) describe(ctx context.Context, table string) error {
	ext, err := s.query(ctx, "DESCRIBE EXTENDED "+table)
	if err != nil {
		return err
	}
	notNull := s.notNullColumns(ctx, table)
	// DESCRIBE EXTENDED is columns, partitioning, then sections starting
	// "# Metadata Columns"; only the first two are shown, NOT NULL columns
	// marked, and no comment shown as empty rather than NULL.
	cols := &format.Result{Columns: ext.Columns}
	var current any
	inColumns, inPartitioning := true, false
	for _, row := range ext.Rows {
		name, _ := format.Text(row[0])
		switch name {
		case "# Metadata Columns":
			inColumns = false
			if n := len(cols.Rows); n > 0 && isBlankRow(cols.Rows[n-1]) {
				cols.Rows = cols.Rows[:n-1]
			}
		case "# Partitioning":
			inPartitioning = true
		}
		if inColumns {
			row = slices.Clone(row)
			if len(row) == 3 && row[2] == nil {
				row[2] = ""
			}
			if !inPartitioning && notNull[name] {
				typ, _ := format.Text(row[1])
				row[1] = typ + " not null"
			}
			cols.Rows = append(cols.Rows, row)
		}
		if name == "Current Snapshot" {
			current = row[1]
		}
	}
	fmt.Fprintf(s.Out, "Table %s\n", table)
	if err := s.print(cols); err != nil {
		return err
	}
	props, err := s.query(ctx, "SHOW TBLPROPERTIES "+table)
	if err != nil {
		return err
	}
	fmt.Fprintln(s.Out, "Properties:")
	if err := s.print(props); err != nil {
		return err
	}
	if current == nil {
		fmt.Fprintln(s.Out, "Current snapshot: none")
		return nil
	}
	text, _ := format.Text(current)
	id, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return fmt.Errorf("DESCRIBE EXTENDED gave current snapshot %q, not a snapshot id", text)
	}
	snap, err := s.query(ctx, "SELECT committed_at, snapshot_id, operation, summary FROM "+table+".snapshots WHERE snapshot_id = ?", id)
	if err != nil {
		return err
	}
	fmt.Fprintln(s.Out, "Current snapshot:")
	// The summary is too wide for a table row.
	if s.Format == format.Aligned {
		s.Format = format.Expanded
		defer func() { s.Format = format.Aligned }()
	}
	return s.print(snap)
}

// notNullColumns names the NOT NULL columns of a table (none when they
// cannot be found: \d then shows no marks).
func (s *Shell) notNullColumns(ctx context.Context, table string) map[string]bool {
	rows, err := s.Conn.QueryContext(ctx, "SELECT * FROM "+table+" LIMIT 0")
	if err != nil {
		return nil
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for _, ct := range cts {
		if n, ok := ct.Nullable(); ok && !n {
			out[ct.Name()] = true
		}
	}
	return out
}

func isBlankRow(row []any) bool {
	for _, v := range row {
		if t, _ := format.Text(v); t != "" {
			return false
		}
	}
	return true
}
