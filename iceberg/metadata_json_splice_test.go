package iceberg

import (
	"bytes"
	"compress/gzip"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"testing"
)

// gunzipOne is the content of data, which must be exactly one gzip member
// (the reader checks its CRC-32 and size).
func gunzipOne(t *testing.T, data []byte) []byte {
	t.Helper()
	br := bytes.NewReader(data)
	zr, err := gzip.NewReader(br)
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if br.Len() != 0 {
		t.Fatalf("%d bytes after the gzip member", br.Len())
	}
	return out
}

func TestCRC32Combine(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 3<<20+12345)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	for _, cut := range []int{0, 1, 7, 4096, 40000, 1 << 20, len(data) - 1, len(data)} {
		a, b := data[:cut], data[cut:]
		got := crc32Combine(crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(b), int64(len(b)))
		if want := crc32.ChecksumIEEE(data); got != want {
			t.Errorf("cut %d: %08x, want %08x", cut, got, want)
		}
	}
}

// A gzipped metadata.json copies the compressed runs of its history from
// the cache: a commit compresses only what follows the last run, the file
// stays one gzip member with exactly the plain encoding's bytes, and
// compressing in runs costs little ratio.
func TestGzipMetadataReusesRuns(t *testing.T) {
	defer func(size int) { zRunSize = size }(zRunSize)
	zRunSize = 4 << 10
	m := newTestTable(t, nil)
	for id := int64(1); id <= 400; id++ {
		m = appendSnapshot(t, m, id)
	}
	if _, err := EncodeMetadata(m, true); err != nil {
		t.Fatal(err)
	}
	runs := m.snapJSON.snaps.runs
	logRuns := m.snapJSON.log.runs
	if len(runs) < 10 || len(logRuns) < 1 {
		t.Fatalf("%d snapshot runs, %d log runs for 400 snapshots", len(runs), len(logRuns))
	}
	next := appendSnapshot(t, m, 401)
	gz, err := EncodeMetadata(next, true)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range runs {
		if &next.snapJSON.snaps.runs[i].data[0] != &r.data[0] {
			t.Fatalf("run %d compressed again for the next version", i)
		}
	}
	plain, err := EncodeMetadata(next, false)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gunzipOne(t, gz), plain) {
		t.Fatal("gzipped metadata holds other bytes than the plain encoding")
	}
	var whole bytes.Buffer
	zw := gzip.NewWriter(&whole)
	zw.Write(plain)
	zw.Close()
	if len(gz) > whole.Len()*3/2 {
		t.Errorf("gzipped in runs: %d bytes, in one piece %d", len(gz), whole.Len())
	}
	// Expiring the oldest snapshots keeps the runs after them, but for
	// those whose dictionary reached into what was dropped.
	b := NewMetadataBuilder(next)
	if err := b.RemoveSnapshots(1, 2, 3, 4, 5, 6, 7, 8, 9, 10); err != nil {
		t.Fatal(err)
	}
	expired, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	expired = appendSnapshot(t, expired, 402)
	kept := map[*byte]bool{}
	cut := next.snapJSON.snaps.ends[9] + 1
	for _, r := range next.snapJSON.snaps.runs {
		if r.a > 10 && r.dictFrom >= cut {
			kept[&r.data[0]] = true
		}
	}
	gz, err = EncodeMetadata(expired, true)
	if err != nil {
		t.Fatal(err)
	}
	reused := 0
	for _, r := range expired.snapJSON.snaps.runs {
		if kept[&r.data[0]] {
			reused++
		}
	}
	if reused < len(kept) || reused == 0 {
		t.Fatalf("after expiring the oldest, %d of %d runs reused", reused, len(kept))
	}
	fresh := *expired
	fresh.snapJSON = nil
	want, err := EncodeMetadata(&fresh, false)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gunzipOne(t, gz), want) {
		t.Fatal("gzipped metadata after expiring the oldest holds other bytes than a fresh plain encoding")
	}
	if got, err := EncodeMetadata(expired, false); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("plain metadata after expiring the oldest differs from a fresh encoding (%v)", err)
	}

	back, err := ParseMetadata(plain)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Snapshots()) != 401 || len(back.SnapshotLog()) != 401 {
		t.Fatalf("read back %d snapshots, %d log entries", len(back.Snapshots()), len(back.SnapshotLog()))
	}
}
