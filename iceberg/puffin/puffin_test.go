package puffin

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

func writeFile(t testing.TB, blobs map[string][]byte, order []string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, map[string]string{PropCreatedBy: "icesql test"})
	for _, name := range order {
		if _, err := w.AddBlob(BlobMetadata{Type: "test-v1", Fields: []int32{1}, SnapshotID: -1, SequenceNumber: -1,
			Properties: map[string]string{"name": name}}, blobs[name]); err != nil {
			t.Fatal(err)
		}
	}
	n, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("Finish returned %d, wrote %d", n, buf.Len())
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		blobs map[string][]byte
		order []string
	}{
		{"no blobs", nil, nil},
		{"one blob", map[string][]byte{"a": []byte("hello")}, []string{"a"}},
		{"empty and full blobs", map[string][]byte{"a": {}, "b": bytes.Repeat([]byte{7}, 5000)}, []string{"a", "b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := writeFile(t, tc.blobs, tc.order)
			r, err := NewReader(bytes.NewReader(file), int64(len(file)), 0)
			if err != nil {
				t.Fatal(err)
			}
			md := r.Metadata()
			if md.Properties[PropCreatedBy] != "icesql test" || len(md.Blobs) != len(tc.order) {
				t.Fatalf("footer %+v", md)
			}
			for i, name := range tc.order {
				b := md.Blobs[i]
				if b.Properties["name"] != name || b.SnapshotID != -1 || b.Type != "test-v1" {
					t.Fatalf("blob %d metadata %+v", i, b)
				}
				data, err := r.ReadBlob(b)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(data, tc.blobs[name]) {
					t.Fatalf("blob %s differs", name)
				}
			}
		})
	}
}

// withFooter builds a file whose footer payload is given raw, with flags.
func withFooter(blob, payload []byte, flags byte) []byte {
	b := append([]byte{}, Magic[:]...)
	b = append(b, blob...)
	b = append(b, Magic[:]...)
	b = append(b, payload...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	b = append(b, flags, 0, 0, 0)
	return append(b, Magic[:]...)
}

func TestCompressed(t *testing.T) {
	blob := []byte("some blob bytes, some blob bytes, some blob bytes")
	var zbuf bytes.Buffer
	zw, _ := zstd.NewWriter(&zbuf)
	_, _ = zw.Write(blob)
	_ = zw.Close()
	codec := CodecZstd
	meta := FileMetadata{Blobs: []BlobMetadata{{Type: "t", Fields: []int32{}, Offset: 4, Length: int64(zbuf.Len()), CompressionCodec: &codec}}}
	js, _ := json.Marshal(meta)
	var lbuf bytes.Buffer
	lw := lz4.NewWriter(&lbuf)
	_, _ = lw.Write(js)
	_ = lw.Close()
	file := withFooter(zbuf.Bytes(), lbuf.Bytes(), flagFooterCompressed)
	r, err := NewReader(bytes.NewReader(file), int64(len(file)), 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.ReadBlob(r.Metadata().Blobs[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, blob) {
		t.Fatalf("got %q", got)
	}
}

func TestReaderErrors(t *testing.T) {
	good := writeFile(t, map[string][]byte{"a": []byte("abc")}, []string{"a"})
	badBlob, _ := json.Marshal(FileMetadata{Blobs: []BlobMetadata{{Type: "t", Offset: 4, Length: 1000}}})
	other := "snappy"
	badCodec, _ := json.Marshal(FileMetadata{Blobs: []BlobMetadata{{Type: "t", Offset: 4, Length: 1, CompressionCodec: &other}}})
	tests := []struct {
		name string
		file []byte
		max  int64
		want error
	}{
		{"short", good[:10], 0, ErrCorrupt},
		{"bad head magic", append([]byte("XXXX"), good[4:]...), 0, ErrCorrupt},
		{"bad tail magic", append(append([]byte{}, good[:len(good)-1]...), 'X'), 0, ErrCorrupt},
		{"payload size too big", withFooter(nil, []byte("{}"), 0)[:0], 0, ErrCorrupt},
		{"bad json", withFooter(nil, []byte("{"), 0), 0, ErrCorrupt},
		{"no blobs list", withFooter(nil, []byte("{}"), 0), 0, ErrCorrupt},
		{"blob out of bounds", withFooter([]byte("x"), badBlob, 0), 0, ErrCorrupt},
		{"bad lz4 footer", withFooter(nil, []byte("not lz4"), flagFooterCompressed), 0, ErrCorrupt},
		{"footer over limit", good, 10, ErrTooLarge},
		{"unknown codec", withFooter([]byte("x"), badCodec, 0), 0, ErrUnsupportedCodec},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := readAll(tc.file, tc.max)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func readAll(file []byte, max int64) error {
	r, err := NewReader(bytes.NewReader(file), int64(len(file)), max)
	if err != nil {
		return err
	}
	for _, b := range r.Metadata().Blobs {
		if _, err := r.ReadBlob(b); err != nil {
			return err
		}
	}
	return nil
}

func FuzzReader(f *testing.F) {
	f.Add(writeFile(f, map[string][]byte{"a": []byte("abc")}, []string{"a"}))
	f.Add(writeFile(f, nil, nil))
	f.Fuzz(func(t *testing.T, file []byte) {
		err := readAll(file, 1<<20)
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrUnsupportedCodec) {
			t.Fatalf("untyped error %v", err)
		}
	})
}
