package format

import (
	"bufio"
	"io"
	"strings"
	"unicode/utf8"
)

// cellText is a value as an aligned cell: NULL spelled out, control
// characters escaped so a cell stays on one line.
func cellText(v any) string {
	s, null := Text(v)
	if null {
		return "NULL"
	}
	return escapeControls(s)
}

var controlEscaper = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`)

func escapeControls(s string) string { return controlEscaper.Replace(s) }

func width(s string) int { return utf8.RuneCountInString(s) }

func pad(b *bufio.Writer, s string, w int, right bool) {
	gap := w - width(s)
	if right {
		b.WriteString(strings.Repeat(" ", gap))
		b.WriteString(s)
		return
	}
	b.WriteString(s)
	b.WriteString(strings.Repeat(" ", gap))
}

// writeAligned prints a psql-style table with a row-count footer;
// numbers are right-aligned.
func writeAligned(w io.Writer, r *Result) error {
	out := bufio.NewWriter(w)
	// Lines are built in b first so trailing blanks can be cut.
	var lb strings.Builder
	b := bufio.NewWriter(&lb)
	endLine := func() {
		b.Flush()
		out.WriteString(strings.TrimRight(lb.String(), " "))
		out.WriteByte('\n')
		lb.Reset()
	}
	widths := make([]int, len(r.Columns))
	for i, c := range r.Columns {
		widths[i] = width(c)
	}
	cells := make([][]string, len(r.Rows))
	for i, row := range r.Rows {
		cells[i] = make([]string, len(row))
		for j, v := range row {
			cells[i][j] = cellText(v)
			widths[j] = max(widths[j], width(cells[i][j]))
		}
	}
	for i, c := range r.Columns {
		if i > 0 {
			b.WriteString(" | ")
		} else {
			b.WriteString(" ")
		}
		// Headers are centred, as psql does.
		left := (widths[i] - width(c)) / 2
		b.WriteString(strings.Repeat(" ", left))
		pad(b, c, widths[i]-left, false)
	}
	endLine()
	for i := range r.Columns {
		if i > 0 {
			b.WriteString("+")
		}
		b.WriteString(strings.Repeat("-", widths[i]+2))
	}
	endLine()
	for i, row := range cells {
		for j, s := range row {
			if j > 0 {
				b.WriteString(" | ")
			} else {
				b.WriteString(" ")
			}
			pad(b, s, widths[j], isNumber(r.Rows[i][j]))
		}
		endLine()
	}
	out.WriteString(rowCount(len(r.Rows)) + "\n")
	return out.Flush()
}

// writeExpanded prints one line per column per row, psql's \x.
func writeExpanded(w io.Writer, r *Result) error {
	b := bufio.NewWriter(w)
	if len(r.Rows) == 0 {
		b.WriteString("(0 rows)\n")
		return b.Flush()
	}
	nameWidth := 0
	for _, c := range r.Columns {
		nameWidth = max(nameWidth, width(c))
	}
	for i, row := range r.Rows {
		b.WriteString("-[ RECORD ")
		b.WriteString(itoa(i + 1))
		b.WriteString(" ]" + strings.Repeat("-", max(nameWidth+3-len(itoa(i+1))-11, 0)+8) + "\n")
		for j, v := range row {
			pad(b, r.Columns[j], nameWidth, false)
			b.WriteString(" | ")
			b.WriteString(cellText(v))
			b.WriteString("\n")
		}
	}
	return b.Flush()
}
