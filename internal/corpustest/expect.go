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

// PqarrowDeviation is how arrow-go's pqarrow reads a corpus file
// otherwise than the Parquet format's LogicalTypes.md and the file's own
// description: Pqarrow are the rows it gives (the tests check that it
// still gives them, so the reason stays true), Want the rows the rules
// give, canonically, compared instead of pqarrow's.
type PqarrowDeviation struct {
	Reason  string
	Pqarrow [][]string
	Want    [][]string
}

// PqarrowDeviations are the corpus files pqarrow reads otherwise than
// the format's rules, by name.
var PqarrowDeviations = map[string]PqarrowDeviation{
	// old_list_structure.md: LIST<LIST<INT32>>, one row [[1, 2], [3, 4]]
	"data/old_list_structure.parquet": {
		Reason: `pqarrow reads the element of a 2-level list (a repeated group named "array") as a struct of its one field, ` +
			`its own LIST annotation ignored; LogicalTypes.md (rule 3 and 4) and old_list_structure.md make it a list`,
		Pqarrow: [][]string{{"[{[1, 2]}, {[3, 4]}]"}},
		Want:    [][]string{{"[[1, 2], [3, 4]]"}},
	},
}
