package format

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"
	"strings"
)

func itoa(n int) string { return strconv.Itoa(n) }

// writeCSV prints RFC 4180 CSV with a header; NULL is an empty field.
func writeCSV(w io.Writer, r *Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(r.Columns); err != nil {
		return err
	}
	rec := make([]string, len(r.Columns))
	for _, row := range r.Rows {
		for j, v := range row {
			rec[j], _ = Text(v)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

var tsvEscaper = strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)

// writeTSV prints tab-separated values with a header; tabs, newlines and
// backslashes in values are backslash-escaped and NULL is an empty field.
func writeTSV(w io.Writer, r *Result) error {
	b := bufio.NewWriter(w)
	for i, c := range r.Columns {
		if i > 0 {
			b.WriteByte('\t')
		}
		b.WriteString(tsvEscaper.Replace(c))
	}
	b.WriteByte('\n')
	for _, row := range r.Rows {
		for j, v := range row {
			if j > 0 {
				b.WriteByte('\t')
			}
			s, _ := Text(v)
			b.WriteString(tsvEscaper.Replace(s))
		}
		b.WriteByte('\n')
	}
	return b.Flush()
}

// writeJSON prints one JSON object per row, keys in column order.
func writeJSON(w io.Writer, r *Result) error {
	b := bufio.NewWriter(w)
	keys := make([][]byte, len(r.Columns))
	for i, c := range r.Columns {
		k, err := json.Marshal(c)
		if err != nil {
			return err
		}
		keys[i] = k
	}
	for _, row := range r.Rows {
		b.WriteByte('{')
		for j, v := range row {
			if j > 0 {
				b.WriteByte(',')
			}
			b.Write(keys[j])
			b.WriteByte(':')
			val, err := json.Marshal(jsonValue(v))
			if err != nil {
				return err
			}
			b.Write(val)
		}
		b.WriteString("}\n")
	}
	return b.Flush()
}

var markdownEscaper = strings.NewReplacer(`|`, `\|`, "\n", "<br>", "\r", "")

// writeMarkdown prints a GitHub-flavoured Markdown table.
func writeMarkdown(w io.Writer, r *Result) error {
	b := bufio.NewWriter(w)
	b.WriteString("|")
	for _, c := range r.Columns {
		b.WriteString(" " + markdownEscaper.Replace(c) + " |")
	}
	b.WriteString("\n|")
	for j := range r.Columns {
		if len(r.Rows) > 0 && isNumber(r.Rows[0][j]) {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, row := range r.Rows {
		b.WriteString("|")
		for _, v := range row {
			s, null := Text(v)
			if null {
				s = "NULL"
			}
			b.WriteString(" " + markdownEscaper.Replace(s) + " |")
		}
		b.WriteString("\n")
	}
	return b.Flush()
}
