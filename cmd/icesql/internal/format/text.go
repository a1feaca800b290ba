package format

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
)

func itoa(n int) string { return strconv.Itoa(n) }

// csvPrinter prints RFC 4180 CSV with a header; NULL is an empty field.
type csvPrinter struct {
	cw  *csv.Writer
	rec []string
	err error // from writing the header
}

func newCSV(out *bufio.Writer, columns []string) rowPrinter {
	p := &csvPrinter{cw: csv.NewWriter(out), rec: make([]string, len(columns))}
	p.err = p.cw.Write(columns)
	return p
}

func (p *csvPrinter) row(row []any) error {
	if p.err != nil {
		return p.err
	}
	for j, v := range row {
		p.rec[j], _ = Text(v)
	}
	if err := p.cw.Write(p.rec); err != nil {
		return err
	}
	// The csv writer has its own buffer; hand rows on so the caller's
	// Flush shows them.
	p.cw.Flush()
	return p.cw.Error()
}

func (p *csvPrinter) end() error {
	if p.err != nil {
		return p.err
	}
	p.cw.Flush()
	return p.cw.Error()
}

var tsvEscaper = strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)

// tsvPrinter prints tab-separated values with a header; tabs, newlines
// and backslashes in values are backslash-escaped and NULL is an empty
// field.
type tsvPrinter struct{ out *bufio.Writer }

func newTSV(out *bufio.Writer, columns []string) rowPrinter {
	for i, c := range columns {
		if i > 0 {
			out.WriteByte('\t')
		}
		out.WriteString(tsvEscaper.Replace(c))
	}
	out.WriteByte('\n')
	return &tsvPrinter{out: out}
}

func (p *tsvPrinter) row(row []any) error {
	for j, v := range row {
		if j > 0 {
			p.out.WriteByte('\t')
		}
		s, _ := Text(v)
		p.out.WriteString(tsvEscaper.Replace(s))
	}
	return p.out.WriteByte('\n')
}

func (p *tsvPrinter) end() error { return nil }

// jsonPrinter prints one JSON object per row, keys in column order.
type jsonPrinter struct {
	out  *bufio.Writer
	keys [][]byte
}

func newJSON(out *bufio.Writer, columns []string) rowPrinter {
	p := &jsonPrinter{out: out, keys: make([][]byte, len(columns))}
	for i, c := range columns {
		// Marshalling a string cannot fail.
		p.keys[i], _ = json.Marshal(c)
	}
	return p
}

func (p *jsonPrinter) row(row []any) error {
	p.out.WriteByte('{')
	for j, v := range row {
		if j > 0 {
			p.out.WriteByte(',')
		}
		p.out.Write(p.keys[j])
		p.out.WriteByte(':')
		val, err := json.Marshal(jsonValue(v))
		if err != nil {
			return err
		}
		p.out.Write(val)
	}
	_, err := p.out.WriteString("}\n")
	return err
}

func (p *jsonPrinter) end() error { return nil }

var markdownEscaper = strings.NewReplacer(`|`, `\|`, "\n", "<br>", "\r", "")

// markdownPrinter prints a GitHub-flavoured Markdown table. The first
// row decides which columns are right-aligned (numbers), so the header
// waits for it.
type markdownPrinter struct {
	out         *bufio.Writer
	columns     []string
	headerShown bool
}

func newMarkdown(out *bufio.Writer, columns []string) rowPrinter {
	return &markdownPrinter{out: out, columns: columns}
}

func (p *markdownPrinter) header(first []any) {
	p.headerShown = true
	p.out.WriteString("|")
	for _, c := range p.columns {
		p.out.WriteString(" " + markdownEscaper.Replace(c) + " |")
	}
	p.out.WriteString("\n|")
	for j := range p.columns {
		if first != nil && isNumber(first[j]) {
			p.out.WriteString("---:|")
		} else {
			p.out.WriteString("---|")
		}
	}
	p.out.WriteString("\n")
}

func (p *markdownPrinter) row(row []any) error {
	if !p.headerShown {
		p.header(row)
	}
	p.out.WriteString("|")
	for _, v := range row {
		s, null := Text(v)
		if null {
			s = "NULL"
		}
		p.out.WriteString(" " + markdownEscaper.Replace(s) + " |")
	}
	_, err := p.out.WriteString("\n")
	return err
}

func (p *markdownPrinter) end() error {
	if !p.headerShown {
		p.header(nil)
	}
	return nil
}
