package s3_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
	s3io "github.com/icesql/icesql/iceberg/fileio/s3"
	"github.com/icesql/icesql/internal/s3test"
)

func TestMain(m *testing.M) { s3test.Main(m) }

func newIO(t *testing.T, props map[string]string) (*s3io.FileIO, s3test.Store) {
	t.Helper()
	st := s3test.Bucket(t)
	for k, v := range props {
		st.Props[k] = v
	}
	cfg, err := s3io.ConfigFromProperties(st.Props)
	if err != nil {
		t.Fatal(err)
	}
	fio, err := s3io.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return fio, st
}

func write(t *testing.T, fio fileio.FileIO, loc string, data []byte) error {
	t.Helper()
	out, err := fio.Create(context.Background(), loc)
	if err != nil {
		return err
	}
	// Small writes, as the Parquet writer makes them.
	for b := data; len(b) > 0; {
		n := min(len(b), 1000+rand.IntN(70000))
		if _, err := out.Write(b[:n]); err != nil {
			return err
		}
		b = b[n:]
	}
	if out.Written() != int64(len(data)) {
		t.Fatalf("Written() = %d, want %d", out.Written(), len(data))
	}
	return out.Close()
}

func TestReadWrite(t *testing.T) {
	fio, st := newIO(t, map[string]string{s3io.PropPartSize: "5242880"})
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		size int
	}{{"empty", 0}, {"small", 1234}, {"one part exactly", 5 << 20}, {"multipart", 12<<20 + 17}} {
		t.Run(tc.name, func(t *testing.T) {
			data := make([]byte, tc.size)
			for i := range data {
				data[i] = byte(rand.IntN(256))
			}
			loc := st.Warehouse("dir with space/" + tc.name + "%41.bin") // literal key, not decoded
			if err := write(t, fio, loc, data); err != nil {
				t.Fatal(err)
			}
			in, err := fio.Open(ctx, loc)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			if in.Size() != int64(len(data)) {
				t.Fatalf("Size() = %d, want %d", in.Size(), len(data))
			}
			got, err := io.ReadAll(in)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("ReadAll: %d bytes, err %v; want %d bytes", len(got), err, len(data))
			}
			if tc.size > 100 {
				p := make([]byte, 100)
				off := int64(tc.size - 60)
				n, err := in.ReadAt(p, off)
				if n != 60 || !errors.Is(err, io.EOF) || !bytes.Equal(p[:n], data[off:]) {
					t.Fatalf("ReadAt past the end: n=%d err=%v", n, err)
				}
				n, err = in.ReadAt(p, 7)
				if n != 100 || err != nil || !bytes.Equal(p, data[7:107]) {
					t.Fatalf("ReadAt: n=%d err=%v", n, err)
				}
			}
		})
	}
}

func TestCreateIsExclusive(t *testing.T) {
	fio, st := newIO(t, nil)
	loc := st.Warehouse("metadata/00001.metadata.json")
	if err := write(t, fio, loc, []byte("first")); err != nil {
		t.Fatal(err)
	}
	err := write(t, fio, loc, []byte("second"))
	if !errors.Is(err, fileio.ErrExists) || !errors.Is(err, iceberg.ErrFileExists) {
		t.Fatalf("second create: %v, want ErrExists", err)
	}
	in, err := fio.Open(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(in)
	if string(got) != "first" {
		t.Fatalf("object = %q: the second writer overwrote it", got)
	}
}

func TestMissingAndAbort(t *testing.T) {
	fio, st := newIO(t, map[string]string{s3io.PropPartSize: "5242880"})
	ctx := context.Background()
	if _, err := fio.Open(ctx, st.Warehouse("nope")); !errors.Is(err, iceberg.ErrNotFound) {
		t.Fatalf("open missing: %v", err)
	}
	if err := fio.Remove(ctx, st.Warehouse("nope")); err != nil {
		t.Fatalf("remove missing: %v", err)
	}
	for _, size := range []int{10, 11 << 20} {
		loc := st.Warehouse("aborted")
		out, err := fio.Create(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(make([]byte, size))
		if err := out.Abort(); err != nil {
			t.Fatal(err)
		}
		if _, err := fio.Open(ctx, loc); !errors.Is(err, iceberg.ErrNotFound) {
			t.Fatalf("size %d: aborted file is visible: %v", size, err)
		}
	}
	if _, err := fio.Open(ctx, "s3:///key"); !errors.Is(err, fileio.ErrBadLocation) {
		t.Fatalf("no bucket: %v", err)
	}
}

func TestListAndRemoveAll(t *testing.T) {
	fio, st := newIO(t, map[string]string{s3io.PropDeleteBatchSize: "3"})
	ctx := context.Background()
	var want []string
	for i := range 8 {
		loc := st.Warehouse("t/data/f" + string(rune('a'+i)))
		want = append(want, loc)
		if err := write(t, fio, loc, []byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := write(t, fio, st.Warehouse("t2/x"), []byte("other table")); err != nil {
		t.Fatal(err)
	}
	var got []string
	for fi, err := range fio.List(ctx, st.Warehouse("t")) { // not t2: a directory, not a key prefix
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size != 1 || fi.ModTime.IsZero() {
			t.Fatalf("listed %+v", fi)
		}
		got = append(got, fi.Location)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("List = %v, want %v", got, want)
	}
	if err := fio.RemoveAll(ctx, append(want, st.Warehouse("t/missing"))); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, err := range fio.List(ctx, st.Warehouse("")) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 1 {
		t.Fatalf("%d objects left, want 1 (t2/x)", n)
	}
}

func TestConfigFromProperties(t *testing.T) {
	for _, tc := range []struct {
		props map[string]string
		ok    bool
	}{
		{map[string]string{}, true},
		{map[string]string{s3io.PropPathStyle: "yes"}, false},
		{map[string]string{s3io.PropPartSize: "1024"}, false},
		{map[string]string{s3io.PropAccessKeyID: "a"}, false},
		{map[string]string{s3io.PropDeleteBatchSize: "5000"}, false},
		{map[string]string{s3io.PropAccessKeyID: "a", s3io.PropSecretAccessKey: "b", s3io.PropPathStyle: "true"}, true},
	} {
		_, err := s3io.ConfigFromProperties(tc.props)
		if (err == nil) != tc.ok {
			t.Errorf("%v: err %v", tc.props, err)
		}
		if err != nil && !errors.Is(err, iceberg.ErrUnsupported) {
			t.Errorf("%v: %v does not match iceberg.ErrUnsupported", tc.props, err)
		}
	}
}

func TestParseLocation(t *testing.T) {
	for _, tc := range []struct{ loc, bucket, key string }{
		{"s3://b/k/x.parquet", "b", "k/x.parquet"},
		{"s3a://b/a%20b", "b", "a%20b"},
		{"S3N://b", "b", ""},
	} {
		b, k, err := s3io.ParseLocation(tc.loc)
		if err != nil || b != tc.bucket || k != tc.key {
			t.Errorf("%s: %q %q %v", tc.loc, b, k, err)
		}
	}
	for _, bad := range []string{"file:///x", "s3://", "s3:///k", "http://b/k"} {
		if _, _, err := s3io.ParseLocation(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
