package corpustest

import (
	"encoding/csv"
	"os"
	"strconv"
	"strings"
)

// ExpectCSV reads a corpus *_expect.csv: the rows a file holds, as plain
// text, without its header line. An empty cell is NULL.
func ExpectCSV(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return rows[1:], nil
}

// Plain turns canonical rows into the plain text a CSV file holds: the
// first n cells of each row, strings unquoted and NULL empty.
func Plain(rows [][]string, n int) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = make([]string, 0, n)
		for _, c := range r[:min(n, len(r))] {
			switch {
			case c == "null":
				c = ""
			case strings.HasPrefix(c, `"`):
				if u, err := strconv.Unquote(c); err == nil {
					c = u
				}
			}
			out[i] = append(out[i], c)
		}
	}
	return out
}
