package expr

import (
	"github.com/icesql/icesql/iceberg"
)

// inPredicateLimit is Java's cap on IN lists checked against bounds; longer
// lists are assumed to match, since checking costs more than it saves.
const inPredicateLimit = 200

// fileMetrics reads one file's column metrics, decoding bounds on demand.
type fileMetrics struct {
	f *iceberg.DataFile
}

func count(m map[int]int64, id int) (int64, bool) {
	if m == nil {
		return 0, false
	}
	v, ok := m[id]
	return v, ok
}

// mayContainNull: unknown null counts may hide nulls.
func (m fileMetrics) mayContainNull(id int) bool {
	n, ok := count(m.f.NullValueCounts, id)
	return !ok || n != 0
}

func (m fileMetrics) containsNullsOnly(id int) bool {
	v, okv := count(m.f.ValueCounts, id)
	n, okn := count(m.f.NullValueCounts, id)
	return okv && okn && v-n == 0
}

func (m fileMetrics) containsNoNaNs(id int) bool {
	n, ok := count(m.f.NaNValueCounts, id)
	return ok && n == 0
}

func (m fileMetrics) containsNaNsOnly(id int) bool {
	n, okn := count(m.f.NaNValueCounts, id)
	v, okv := count(m.f.ValueCounts, id)
	return okn && okv && n == v
}

// lower and upper return the decoded bound, or nil when absent.
func (m fileMetrics) lower(p *BoundPredicate) (any, error) {
	return decodeBound(m.f.LowerBounds, p.FieldID, p.Type)
}

func (m fileMetrics) upper(p *BoundPredicate) (any, error) {
	return decodeBound(m.f.UpperBounds, p.FieldID, p.Type)
}

func decodeBound(bounds map[int][]byte, id int, t iceberg.Type) (any, error) {
	b, ok := bounds[id]
	if !ok || b == nil {
		return nil, nil
	}
	return decodeValue(id, t, b)
}

func decodeValue(id int, t iceberg.Type, b []byte) (any, error) {
	v, err := iceberg.DeserializeValue(t, b)
	if err != nil {
		return nil, &BoundDecodeError{FieldID: id, Type: t, Bytes: len(b), Reason: err.Error()}
	}
	return v, nil
}

// cmp orders a bound against a literal of the same field type.
func cmp(a, b any) int {
	c, _ := iceberg.CompareValues(a, b)
	return c
}
