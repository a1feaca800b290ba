package parquetfile

import (
	"bytes"
	"errors"
	"testing"

	pq "github.com/parquet-go/parquet-go"

	"github.com/icesql/icesql/iceberg"
)

// A GEOMETRY or GEOGRAPHY column whose CRS is inline PROJJSON (as
// parquet-testing's crs-arbitrary-value.parquet has it) is refused with
// an InlineCRSError naming the column, matching iceberg.ErrUnsupported:
// the file is well formed, only Iceberg's type string cannot hold the
// CRS. An identifier CRS still reads.
func TestGeoInlineCRSRefused(t *testing.T) {
	projjson := `{"$schema": "https://proj.org/schemas/v0.7/projjson.schema.json", "type": "GeographicCRS", "name": "WGS 84 (CRS84)"}`
	for _, c := range []struct {
		node pq.Node
		kind string
	}{
		{pq.Geometry(projjson), "geometry"},
		{pq.Geography(" "+projjson, 0), "geography"},
	} {
		var buf bytes.Buffer
		w := pq.NewWriter(&buf, pq.NewSchema("s", pq.Group{"id": pq.Int(32), "shape": pq.Optional(c.node)}))
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		_, err = r.Schema(func([]string) (int, bool) { n++; return n, true })
		var ce *InlineCRSError
		if !errors.As(err, &ce) || ce.Column != "shape" || ce.Kind != c.kind {
			t.Fatalf("%s: %v, want an InlineCRSError for column shape", c.kind, err)
		}
		if !errors.Is(err, iceberg.ErrUnsupported) || errors.Is(err, iceberg.ErrInvalidDataFile) {
			t.Errorf("%s: %v matches the wrong sentinel", c.kind, err)
		}
	}
	var buf bytes.Buffer
	w := pq.NewWriter(&buf, pq.NewSchema("s", pq.Group{"shape": pq.Optional(pq.Geometry("srid:4326"))}))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Schema(func([]string) (int, bool) { return 1, true })
	if err != nil || s.Fields()[0].Type.String() != "geometry(srid:4326)" {
		t.Fatalf("srid:4326: %v, %v", s, err)
	}
}
