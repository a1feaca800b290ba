package format

import (
	"bufio"
	"strings"
	"unicode/utf8"
)

// cellText is a value as an aligned cell: NULL spelled out, tabs and
// carriage returns escaped; a newline starts another line of the cell,
// printed as psql prints it (a + marks a cell that goes on below).
func cellText(v any) string {
	s, null := Text(v)
	if null {
		return "NULL"
	}
	// A text ending in a newline (SHOW CREATE TABLE's) ends with its last line.
	return escapeControls(strings.TrimSuffix(s, "\n"))
}

var controlEscaper = strings.NewReplacer("\r", `\r`, "\t", `\t`)

func escapeControls(s string) string { return controlEscaper.Replace(s) }

// width is the width of a cell: that of its widest line.
func width(s string) int {
	w := 0
	for line := range strings.SplitSeq(s, "\n") {
		w = max(w, utf8.RuneCountInString(line))
	}
	return w
}

// pad writes s padded with blanks to w runes (never cut).
func pad(b *strings.Builder, s string, w int, right bool) {
	gap := max(w-width(s), 0)
	if right {
		b.WriteString(strings.Repeat(" ", gap))
		b.WriteString(s)
		return
	}
	b.WriteString(s)
	b.WriteString(strings.Repeat(" ", gap))
}

// alignedPrinter prints a psql-style table with a row-count footer;
// numbers are right-aligned. The first AlignWindow rows decide the
// column widths.
type alignedPrinter struct {
	out     *bufio.Writer
	columns []string
	widths  []int // nil until the window is printed
	window  [][]string
	numeric [][]bool
	rows    int
	line    strings.Builder
}

func newAligned(out *bufio.Writer, columns []string) rowPrinter {
	return &alignedPrinter{out: out, columns: columns}
}

func (p *alignedPrinter) row(row []any) error {
	p.rows++
	cells := make([]string, len(row))
	numeric := make([]bool, len(row))
	for i, v := range row {
		cells[i], numeric[i] = cellText(v), isNumber(v)
	}
	if p.widths != nil {
		p.writeRow(cells, numeric)
		return nil
	}
	p.window = append(p.window, cells)
	p.numeric = append(p.numeric, numeric)
	if len(p.window) >= AlignWindow {
		p.printWindow()
	}
	return nil
}

func (p *alignedPrinter) end() error {
	if p.widths == nil {
		p.printWindow()
	}
	p.out.WriteString(rowCount(p.rows) + "\n")
	return nil
}

// printWindow fixes the widths from the header and the held rows, and
// prints them.
func (p *alignedPrinter) printWindow() {
	p.widths = make([]int, len(p.columns))
	for i, c := range p.columns {
		p.widths[i] = width(c)
	}
	for _, cells := range p.window {
		for j, s := range cells {
			p.widths[j] = max(p.widths[j], width(s))
		}
	}
	for i, c := range p.columns {
		p.separator(i, " | ")
		// Headers are centred, as psql does.
		left := (p.widths[i] - width(c)) / 2
		p.line.WriteString(strings.Repeat(" ", left))
		pad(&p.line, c, p.widths[i]-left, false)
	}
	p.endLine()
	for i := range p.columns {
		if i > 0 {
			p.line.WriteString("+")
		}
		p.line.WriteString(strings.Repeat("-", p.widths[i]+2))
	}
	p.endLine()
	for i, cells := range p.window {
		p.writeRow(cells, p.numeric[i])
	}
	p.window, p.numeric = nil, nil
}

func (p *alignedPrinter) writeRow(cells []string, numeric []bool) {
	lines := make([][]string, len(cells))
	height := 1
	for j, s := range cells {
		lines[j] = strings.Split(s, "\n")
		height = max(height, len(lines[j]))
	}
	for k := range height {
		p.line.WriteString(" ")
		for j := range cells {
			piece := ""
			if k < len(lines[j]) {
				piece = lines[j][k]
			}
			pad(&p.line, piece, p.widths[j], numeric[j])
			if k < len(lines[j])-1 {
				p.line.WriteString("+")
			} else {
				p.line.WriteString(" ")
			}
			if j < len(cells)-1 {
				p.line.WriteString("| ")
			}
		}
		p.endLine()
	}
}

func (p *alignedPrinter) separator(col int, sep string) {
	if col > 0 {
		p.line.WriteString(sep)
	} else {
		p.line.WriteString(" ")
	}
}

// endLine writes the line built so far without trailing blanks.
func (p *alignedPrinter) endLine() {
	p.out.WriteString(strings.TrimRight(p.line.String(), " "))
	p.out.WriteByte('\n')
	p.line.Reset()
}

// expandedPrinter prints one line per column per row, psql's \x.
type expandedPrinter struct {
	out       *bufio.Writer
	columns   []string
	nameWidth int
	rows      int
	line      strings.Builder
}

func newExpanded(out *bufio.Writer, columns []string) rowPrinter {
	p := &expandedPrinter{out: out, columns: columns}
	for _, c := range columns {
		p.nameWidth = max(p.nameWidth, width(c))
	}
	return p
}

func (p *expandedPrinter) row(row []any) error {
	p.rows++
	n := itoa(p.rows)
	p.out.WriteString("-[ RECORD " + n + " ]" + strings.Repeat("-", max(p.nameWidth+3-len(n)-11, 0)+8) + "\n")
	for j, v := range row {
		p.line.Reset()
		pad(&p.line, p.columns[j], p.nameWidth, false)
		p.out.WriteString(p.line.String())
		lines := strings.Split(cellText(v), "\n")
		for k, l := range lines {
			if k > 0 {
				p.out.WriteString(strings.Repeat(" ", p.nameWidth))
			}
			p.out.WriteString(" | ")
			p.out.WriteString(l)
			if k < len(lines)-1 {
				p.out.WriteString("+")
			}
			p.out.WriteString("\n")
		}
	}
	return nil
}

func (p *expandedPrinter) end() error {
	if p.rows == 0 {
		p.out.WriteString("(0 rows)\n")
	}
	return nil
}
