package load

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// maxJSONLine bounds one JSON lines record.
const maxJSONLine = 64 << 20

// newJSONL reads one JSON object per line; keys name columns
// (case-insensitively), missing keys are NULL, blank lines are skipped.
func newJSONL(path string, in io.Reader, cols []Column, b *batcher) (func() (arrow.RecordBatch, error), error) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), maxJSONLine)
	byName := make(map[string]int, len(cols))
	for i, c := range cols {
		byName[strings.ToLower(c.Name)] = i
	}
	vals := make([]any, len(cols))
	var line int64
	return func() (arrow.RecordBatch, error) {
		for sc.Scan() {
			line++
			text := bytes.TrimSpace(sc.Bytes())
			if len(text) == 0 {
				continue
			}
			dec := json.NewDecoder(bytes.NewReader(text))
			dec.UseNumber()
			var obj map[string]any
			if err := dec.Decode(&obj); err != nil {
				return nil, &InputError{File: path, Line: line, Msg: "not a JSON object", Err: err}
			}
			if dec.More() {
				return nil, &InputError{File: path, Line: line, Msg: "more than one JSON value on the line"}
			}
			clear(vals)
			for k, v := range obj {
				c, ok := byName[strings.ToLower(k)]
				if !ok {
					return nil, &InputError{File: path, Line: line, Msg: fmt.Sprintf("key %q is not a column of the table", k)}
				}
				cv, err := fromJSON(cols[c].Type, v)
				if err != nil {
					raw, _ := json.Marshal(v)
					return nil, &ValueError{File: path, Line: line, Column: cols[c].Name, Field: c + 1, Value: string(raw), Type: typeName(cols[c].Type), Err: err}
				}
				vals[c] = cv
			}
			for c, v := range vals {
				if err := b.append(c, v); err != nil {
					return nil, err
				}
			}
			if b.endRow() {
				return b.flush()
			}
		}
		if err := sc.Err(); err != nil {
			return nil, &InputError{File: path, Line: line + 1, Msg: "read", Err: err}
		}
		return b.flush()
	}, nil
}
