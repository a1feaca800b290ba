package parquetfile

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/icesql/icesql/iceberg"
)

// Metrics are the Iceberg column metrics of a written file, keyed by leaf
// field id; they map one to one onto iceberg.DataFile fields.
type Metrics struct {
	RecordCount     int64
	FileSizeInBytes int64
	ColumnSizes     map[int]int64
	ValueCounts     map[int]int64
	NullValueCounts map[int]int64
	NaNValueCounts  map[int]int64
	LowerBounds     map[int][]byte
	UpperBounds     map[int][]byte
	SplitOffsets    []int64
}

// Apply copies the metrics into a DataFile.
func (m Metrics) Apply(df *iceberg.DataFile) {
	df.FileFormat = iceberg.FormatParquet
	df.RecordCount = m.RecordCount
	df.FileSizeInBytes = m.FileSizeInBytes
	df.ColumnSizes = m.ColumnSizes
	df.ValueCounts = m.ValueCounts
	df.NullValueCounts = m.NullValueCounts
	df.NaNValueCounts = m.NaNValueCounts
	df.LowerBounds = m.LowerBounds
	df.UpperBounds = m.UpperBounds
	df.SplitOffsets = m.SplitOffsets
}

// boundStats tracks min/max (excluding nulls and NaN) and the NaN count of
// one leaf column, over the Parquet values written.
type boundStats struct {
	typ      iceberg.Type
	noBounds bool // under a list or map
	floating bool
	has      bool
	nans     int64
	minI     int64 // int32/int64 kinds and booleans (0/1)
	maxI     int64
	minF     float64
	maxF     float64
	minB     []byte
	maxB     []byte
	signedBE bool // FIXED_LEN_BYTE_ARRAY decimals compare as signed big-endian
	byteKind bool // bounds live in minB/maxB
	// geo is a geometry column's bounding box (see geo.go)
	geo *iceberg.GeoBounds
}

func (s *boundStats) init(t iceberg.Type, repeated bool) {
	s.typ = t
	s.noBounds = repeated
	switch t := t.(type) {
	case iceberg.FloatType, iceberg.DoubleType:
		s.floating = true
	case iceberg.DecimalType:
		s.signedBE = t.Precision > 18
		s.byteKind = s.signedBE
	case iceberg.StringType, iceberg.BinaryType, iceberg.FixedType, iceberg.UUIDType:
		s.byteKind = true
	case iceberg.GeographyType:
		s.noBounds = true
	}
}

func (s *boundStats) less(a, b []byte) bool {
	if s.signedBE && len(a) > 0 && len(b) > 0 && (a[0]^b[0])&0x80 != 0 {
		return a[0]&0x80 != 0 // negative < positive
	}
	return bytes.Compare(a, b) < 0
}

// bounds returns the serialised lower and upper bound (nil when absent).
func (s *boundStats) bounds(truncate int) (lower, upper []byte, err error) {
	if iceberg.IsGeo(s.typ) {
		return s.geoBounds(truncate)
	}
	if !s.has || s.noBounds || truncate < 0 {
		return nil, nil, nil
	}
	defer func() {
		// An empty string or binary is a valid bound: keep it non-nil.
		if lower == nil && err == nil {
			lower = []byte{}
		}
	}()
	lo, hi := s.goValue(true), s.goValue(false)
	lo = iceberg.TruncateLowerBound(lo, truncate)
	hi, ok := iceberg.TruncateUpperBound(hi, truncate)
	if lower, err = iceberg.SerializeValue(s.typ, lo); err != nil {
		return nil, nil, err
	}
	if !ok {
		return lower, nil, nil
	}
	upper, err = iceberg.SerializeValue(s.typ, hi)
	return lower, upper, err
}

// goValue converts the tracked min (or max) to the Iceberg Go value form.
func (s *boundStats) goValue(lowest bool) any {
	i, f, b := s.maxI, s.maxF, s.maxB
	if lowest {
		i, f, b = s.minI, s.minF, s.minB
	}
	switch t := s.typ.(type) {
	case iceberg.BooleanType:
		return i == 1
	case iceberg.IntType:
		return int32(i)
	case iceberg.LongType:
		return i
	case iceberg.FloatType:
		return float32(f)
	case iceberg.DoubleType:
		return f
	case iceberg.DateType:
		return iceberg.Date(i)
	case iceberg.TimeType:
		return iceberg.Time(i)
	case iceberg.TimestampType, iceberg.TimestampTzType:
		return iceberg.Timestamp(i)
	case iceberg.TimestampNsType, iceberg.TimestampTzNsType:
		return iceberg.TimestampNano(i)
	case iceberg.StringType:
		return string(b)
	case iceberg.UUIDType:
		var u iceberg.UUID
		copy(u[:], b)
		return u
	case iceberg.FixedType, iceberg.BinaryType:
		return append([]byte(nil), b...)
	case iceberg.DecimalType:
		if t.Precision <= 18 {
			return iceberg.Decimal{Unscaled: decimal128.FromI64(i), Scale: t.Scale}
		}
		return iceberg.Decimal{Unscaled: decimalFromBE(b), Scale: t.Scale}
	}
	return nil
}

// decimalFromBE decodes a big-endian two's-complement integer of up to 16
// bytes.
func decimalFromBE(b []byte) decimal128.Num {
	var full [16]byte
	if len(b) > 0 && b[0]&0x80 != 0 {
		for i := range full {
			full[i] = 0xff
		}
	}
	copy(full[16-len(b):], b)
	return decimal128.New(int64(binary.BigEndian.Uint64(full[:8])), binary.BigEndian.Uint64(full[8:]))
}

func (w *Writer) collectMetrics() (Metrics, error) {
	m := Metrics{
		RecordCount:     w.rows,
		FileSizeInBytes: w.out.n,
		ColumnSizes:     map[int]int64{},
		ValueCounts:     map[int]int64{},
		NullValueCounts: map[int]int64{},
		NaNValueCounts:  map[int]int64{},
		LowerBounds:     map[int][]byte{},
		UpperBounds:     map[int][]byte{},
	}
	for _, rg := range w.rowGroups {
		m.SplitOffsets = append(m.SplitOffsets, chunkStart(&rg.Columns[0].MetaData))
	}
	for _, l := range w.leaves {
		if l.fieldID <= 0 {
			// a variant's metadata and value: no Iceberg field, no metrics
			continue
		}
		m.ColumnSizes[l.fieldID] = l.colSize
		m.ValueCounts[l.fieldID] = l.valueCount
		m.NullValueCounts[l.fieldID] = l.nullCount
		if l.stats.floating {
			m.NaNValueCounts[l.fieldID] = l.stats.nans
		}
		lo, hi, err := l.stats.bounds(w.opts.TruncateLength)
		if err != nil {
			return Metrics{}, fmt.Errorf("parquetfile: bounds of column %d: %w", l.fieldID, err)
		}
		if lo != nil {
			m.LowerBounds[l.fieldID] = lo
		}
		if hi != nil {
			m.UpperBounds[l.fieldID] = hi
		}
	}
	return m, nil
}
