package manifest

import (
	"fmt"

	"github.com/hamba/avro/v2"
)

// step decodes one writer field into the target.
type step[T any] func(*dec, *T)

// fieldBinder builds the step for a known field id from the writer's
// field schema; ok is false for ids the target does not know.
type fieldBinder[T any] func(id int, s avro.Schema) (step[T], bool, error)

// recordPlan compiles a writer record into steps bound by field id, never
// by name, with unknown fields skipped. required lists the ids that must
// be present.
func recordPlan[T any](s avro.Schema, bind fieldBinder[T], required ...int) (func(*dec, *T), error) {
	rec, ok := deref(s).(*avro.RecordSchema)
	if !ok {
		return nil, &SchemaError{Reason: fmt.Sprintf("expected a record, found %s", s.Type())}
	}
	seen := map[int]bool{}
	steps := make([]step[T], 0, len(rec.Fields()))
	for _, f := range rec.Fields() {
		id, hasID := fieldID(f)
		if hasID && !seen[id] {
			st, known, err := bind(id, f.Type())
			if err != nil {
				return nil, &SchemaError{FieldID: id, Field: f.Name(), Reason: err.Error()}
			}
			if known {
				seen[id] = true
				steps = append(steps, st)
				continue
			}
		}
		skip, err := skipper(f.Type(), 0)
		if err != nil {
			return nil, &SchemaError{FieldID: id, Field: f.Name(), Reason: err.Error()}
		}
		steps = append(steps, func(d *dec, _ *T) { skip(d) })
	}
	for _, id := range required {
		if !seen[id] {
			return nil, &SchemaError{FieldID: id, Reason: fmt.Sprintf("required field id %d is missing from record %s", id, rec.Name())}
		}
	}
	return func(d *dec, v *T) {
		for _, st := range steps {
			st(d, v)
		}
	}, nil
}

// bindOpt builds a step that stores a (possibly nullable) value via set,
// leaving the target alone for null.
func bindOpt[T, V any](s avro.Schema, base func(avro.Schema) (func(*dec) V, error), set func(*T, V)) (step[T], bool, error) {
	read, err := optional(s, base)
	if err != nil {
		return nil, true, err
	}
	return func(d *dec, t *T) {
		if v, ok := read(d); ok {
			set(t, v)
		}
	}, true, nil
}
