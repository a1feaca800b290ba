package arrowschema

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icesql/icesql/iceberg"
)

func TestUUIDAndFixedStayDistinct(t *testing.T) {
	tests := []struct {
		name   string
		ice    iceberg.Type
		isUUID bool
	}{
		{"uuid", iceberg.UUIDType{}, true},
		{"fixed[16]", iceberg.FixedType{Length: 16}, false},
		{"list<uuid>", &iceberg.ListType{ElementID: 2, Element: iceberg.UUIDType{}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			at, err := TypeToArrow(tc.ice)
			if err != nil {
				t.Fatal(err)
			}
			if IsUUID(at) != tc.isUUID {
				t.Fatalf("IsUUID(%v) = %v", at, !tc.isUUID)
			}
			back, err := TypeFromArrow(at)
			if err != nil || !iceberg.TypesEqual(back, tc.ice) {
				t.Fatalf("round trip %v -> %v -> %v (%v)", tc.ice, at, back, err)
			}
		})
	}
}

func TestUUIDValues(t *testing.T) {
	u, _ := iceberg.ParseUUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
	b := array.NewBuilder(memory.DefaultAllocator, UUIDType())
	defer b.Release()
	for _, v := range []any{u, u[:], nil} {
		if err := AppendValue(b, v); err != nil {
			t.Fatalf("append %T: %v", v, err)
		}
	}
	if err := AppendValue(b, []byte{1, 2}); !errors.Is(err, iceberg.ErrTypeMismatch) {
		t.Fatalf("2 bytes into a uuid: %v", err)
	}
	arr := b.NewArray()
	defer arr.Release()
	if !IsUUID(arr.DataType()) || arr.Len() != 3 {
		t.Fatalf("built %v of %d", arr.DataType(), arr.Len())
	}
	for i, want := range []any{u, u, nil} {
		got, err := ValueAt(arr, i, iceberg.UUIDType{})
		if err != nil || got != want {
			t.Errorf("row %d: %v (%v), want %v", i, got, err, want)
		}
	}
}

// CastRecord takes plain FixedSizeBinary(16) for a uuid column, at the top
// level and inside a list, but no other width.
func TestCastRecordFixedToUUID(t *testing.T) {
	mem := memory.DefaultAllocator
	target := arrow.NewSchema([]arrow.Field{
		{Name: "u", Type: UUIDType(), Nullable: true},
		{Name: "l", Type: arrow.ListOf(UUIDType()), Nullable: true},
	}, nil)
	for _, width := range []int{16, 8} {
		fsb := &arrow.FixedSizeBinaryType{ByteWidth: width}
		src := arrow.NewSchema([]arrow.Field{
			{Name: "u", Type: fsb, Nullable: true},
			{Name: "l", Type: arrow.ListOf(fsb), Nullable: true},
		}, nil)
		rb := array.NewRecordBuilder(mem, src)
		rb.Field(0).(*array.FixedSizeBinaryBuilder).Append(make([]byte, width))
		lb := rb.Field(1).(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.FixedSizeBinaryBuilder).Append(make([]byte, width))
		rec := rb.NewRecordBatch()
		rb.Release()
		out, err := CastRecord(context.Background(), rec, target)
		rec.Release()
		if width != 16 {
			if !errors.Is(err, iceberg.ErrTypeMismatch) {
				t.Fatalf("width %d: %v", width, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if !IsUUID(out.Column(0).DataType()) || !arrow.TypeEqual(out.Column(1).DataType(), target.Field(1).Type) {
			t.Fatalf("cast to %v, %v", out.Column(0).DataType(), out.Column(1).DataType())
		}
		if v, err := ValueAt(out.Column(0), 0, iceberg.UUIDType{}); err != nil || v != (iceberg.UUID{}) {
			t.Fatalf("value %v (%v)", v, err)
		}
		out.Release()
	}
}
