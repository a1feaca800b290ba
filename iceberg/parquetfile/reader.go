package parquetfile

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/icesql/icesql/iceberg"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// NameMapping resolves a column path (field names from the root, with list
// elements named "element" and map entries "key"/"value") to a field id,
// for files written without field ids.
type NameMapping func(path []string) (fieldID int, ok bool)

// Reader is an open Parquet data file.
type Reader struct {
	file    *parquet.File
	src     io.ReaderAt // the file's bytes, for checking page headers
	base    io.ReaderAt // src as Open was given it (before FetchAhead)
	skipCRC bool
	fetch   *chunkFetcher // nil unless FetchAhead
}

// FetchAhead makes readers of r fetch the projected column chunks of the
// row group they read and of the next one whole and concurrently, with at
// most inFlight requests at a time and budget bytes held, for files where
// every read is a request to a remote store. Call it before reading, and
// StopFetching before closing the file.
func (r *Reader) FetchAhead(inFlight int, budget int64, size int64) {
	if r.fetch == nil {
		r.fetch = newChunkFetcher(r.src, size, inFlight, budget)
		r.src = r.fetch
	}
}

// StopFetching waits for the fetches FetchAhead started.
func (r *Reader) StopFetching() {
	if r.fetch != nil {
		r.fetch.wait()
	}
}

// fetchGroup starts fetching the chunks of columns of row group group,
// and drops what earlier row groups held.
func (r *Reader) fetchGroup(group int, cols []*parquet.Column, current bool) {
	if r.fetch == nil {
		return
	}
	if current {
		r.fetch.release(group)
	}
	rg := &r.file.Metadata().RowGroups[group]
	for _, c := range cols {
		if c == nil || c.Index() < 0 || c.Index() >= len(rg.Columns) {
			continue
		}
		m := &rg.Columns[c.Index()].MetaData
		r.fetch.fetch(group, chunkStart(m), m.TotalCompressedSize)
	}
}

// Share returns a Reader of the same file that another goroutine may use
// alongside r: the decoded footer is shared (nothing changes it once
// Open has validated it), while the per-reader settings (SkipChecksums,
// FetchAhead) start unset. It is meant for a Reader opened over bytes in
// memory that never change, whose ReadAt is safe for concurrent use (a
// cache of small files).
func (r *Reader) Share() *Reader { return &Reader{file: r.file, src: r.base, base: r.base} }

// Over returns a Reader of the same file whose pages are read from src
// (the same bytes, opened again), sharing r's decoded footer: a footer
// decoded once serves later scans of the immutable file. r's own source
// is not read by the returned Reader.
func (r *Reader) Over(src io.ReaderAt) *Reader { return &Reader{file: r.file, src: src, base: src} }

// pages reads the pages of a column chunk of r's file through
// parquet-go, from r's source (not the one the footer was read from:
// see Over).
func (r *Reader) pages(cc parquet.ColumnChunk) parquet.Pages {
	if fc, ok := cc.(*parquet.FileColumnChunk); ok {
		return fc.PagesFrom(r.base)
	}
	return cc.Pages()
}

// SkipChecksums stops this package's page decoder verifying page CRCs
// (verified by default wherever a page has one), for speed; pages
// decoded by parquet-go (nested columns, rare encodings) are still
// checked. Call it before reading.
func (r *Reader) SkipChecksums() { r.skipCRC = true }

// Open reads and validates the footer of a Parquet file of the given size.
// Malformed files give an error matching iceberg.ErrInvalidDataFile.
func Open(r io.ReaderAt, size int64) (rd *Reader, err error) {
	if size < 12 {
		return nil, corrupt("file of %d bytes is too small for parquet", size)
	}
	// parquet-go panics on some malformed footers (bad schema trees); this
	// is the file-open boundary, so a panic here means a corrupt file.
	defer func() {
		if p := recover(); p != nil {
			rd, err = nil, corrupt("malformed parquet footer: %v", p)
		}
	}()
	// parquet-go sizes allocations from footer fields; check them first.
	if err := checkFooter(r, size); err != nil {
		if errors.Is(err, ErrEncrypted) {
			return nil, err
		}
		return nil, corrupt("%w", err)
	}
	f, err := parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true), parquet.ReadBufferSize(1<<20))
	if err != nil {
		return nil, corrupt("%v", err)
	}
	if err := validateFile(f); err != nil {
		return nil, err
	}
	return &Reader{file: f, src: r, base: r}, nil
}

// validateFile checks what later decoding relies on: every row group has a
// chunk per leaf column, row counts are sane, chunks lie inside the file.
func validateFile(f *parquet.File) error {
	leaves := 0
	var repeated []bool // per leaf: under a list or map
	var walk func(c *parquet.Column, depth int) error
	walk = func(c *parquet.Column, depth int) error {
		if depth > 64 {
			return corrupt("schema nested deeper than 64 levels")
		}
		if c.Leaf() {
			leaves++
			repeated = append(repeated, c.MaxRepetitionLevel() > 0)
			if c.MaxDefinitionLevel() > 250 || c.MaxRepetitionLevel() > 250 {
				return corrupt("column %q nested too deeply", c.Name())
			}
			if isListColumn(c) || isMapColumn(c) {
				return corrupt("primitive column %q is annotated as a list or map", c.Name())
			}
			// Kind panics for malformed leaf types; asking here, under
			// Open's recover, turns that into an error.
			_ = c.Type().Kind()
			if c.Type().Kind() == parquet.FixedLenByteArray && c.Type().Length() <= 0 {
				return corrupt("column %q has fixed length %d", c.Name(), c.Type().Length())
			}
			return nil
		}
		for _, ch := range c.Columns() {
			if err := walk(ch, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(f.Root(), 0); err != nil {
		return err
	}
	md := f.Metadata()
	for _, se := range md.Schema[min(1, len(md.Schema)):] {
		// parquet-go reads a leaf of no known physical type as NULL
		if (!se.NumChildren.Valid || se.NumChildren.V == 0) && (!se.Type.Valid || se.Type.V < format.Boolean || se.Type.V > format.FixedLenByteArray) {
			return corrupt("column %q has no valid physical type", se.Name)
		}
	}
	if md.NumRows < 0 {
		return corrupt("negative row count %d", md.NumRows)
	}
	var total int64
	for i, rg := range md.RowGroups {
		if len(rg.Columns) != leaves {
			return corrupt("row group %d has %d column chunks, schema has %d columns", i, len(rg.Columns), leaves)
		}
		if rg.NumRows < 0 {
			return corrupt("row group %d has negative row count", i)
		}
		if leaves == 0 && rg.NumRows > 0 {
			return corrupt("row group %d has %d rows and no columns", i, rg.NumRows)
		}
		total += rg.NumRows
		for j, cc := range rg.Columns {
			m := cc.MetaData
			start := chunkStart(&m)
			if start < 4 || m.TotalCompressedSize < 0 || start+m.TotalCompressedSize > f.Size() {
				return corrupt("row group %d column %d lies outside the file", i, j)
			}
			if err := checkDeclaredCounts(m, rg.NumRows, repeated[j]); err != nil {
				return corrupt("row group %d column %d: %v", i, j, err)
			}
		}
	}
	// Early writers (parquet-rs 0.3) left the file's row count at 0; the
	// row groups' counts, tied above to their chunks' value counts, stand.
	if total != md.NumRows && md.NumRows != 0 {
		return corrupt("row groups hold %d rows, footer says %d", total, md.NumRows)
	}
	return nil
}

// maxPageValues bounds the entries of one page (pqarrow cuts pages at
// 1 MiB, Java at 20,000 rows); counts above it come from corrupt footers
// and would make a reader spin or allocate without limit.
const maxPageValues = 1 << 24

// minPageBytes is the least a page takes in a chunk (header and body).
const minPageBytes = 8

// checkDeclaredCounts ties a chunk's declared value count to its row
// group's rows and to its size, so that row counts are backed by bytes.
func checkDeclaredCounts(m format.ColumnMetaData, rows int64, repeated bool) error {
	switch {
	case m.NumValues < 0:
		return fmt.Errorf("negative value count %d", m.NumValues)
	case !repeated && m.NumValues != rows:
		return fmt.Errorf("%d values for %d rows", m.NumValues, rows)
	case repeated && m.NumValues < rows:
		return fmt.Errorf("%d values cannot hold %d rows", m.NumValues, rows)
	case m.NumValues > (m.TotalCompressedSize/minPageBytes+1)*maxPageValues:
		return fmt.Errorf("%d values in %d bytes", m.NumValues, m.TotalCompressedSize)
	}
	return nil
}

// checkChunk checks the pages of the chunk of leaf column col in row
// group group before parquet-go reads them.
func (r *Reader) checkChunk(group int, col *parquet.Column) error {
	m := &r.file.Metadata().RowGroups[group].Columns[col.Index()].MetaData
	bc := &bodyChecker{codec: m.Codec, maxDef: byte(col.MaxDefinitionLevel()), maxRep: byte(col.MaxRepetitionLevel())}
	if err := checkChunkPages(r.src, m, bc); err != nil {
		return corrupt("row group %d column %q: %v", group, col.Name(), err)
	}
	return nil
}

// checkChunks checks the chunks of cols in row group group, up to
// workers at a time (the checks decompress every page).
func (r *Reader) checkChunks(group int, cols []*parquet.Column, workers int) error {
	if workers <= 1 || len(cols) <= 1 {
		for _, c := range cols {
			if err := r.checkChunk(group, c); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, len(cols))
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for i, c := range cols {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			errs[i] = r.checkChunk(group, c)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// NumRows is the file's row count: the sum of its row groups' (which
// Open checked against the footer's count, where the writer gave one).
func (r *Reader) NumRows() int64 {
	var n int64
	for _, rg := range r.file.Metadata().RowGroups {
		n += rg.NumRows
	}
	return n
}

// RowGroupStart is the offset of row group group's first byte: the first
// page (dictionary or data) of its first column chunk, as Java's
// BlockMetaData.getStartingPos.
func (r *Reader) RowGroupStart(group int) int64 {
	rg := &r.file.Metadata().RowGroups[group]
	if len(rg.Columns) == 0 {
		return rg.FileOffset
	}
	return chunkStart(&rg.Columns[0].MetaData)
}

// chunkStart is the offset of a column chunk's first page: its
// dictionary page when it has one before the data pages.
func chunkStart(m *format.ColumnMetaData) int64 {
	if m.DictionaryPageOffset > 0 && m.DictionaryPageOffset < m.DataPageOffset {
		return m.DictionaryPageOffset
	}
	return m.DataPageOffset
}

// InRange reports whether row group group starts in [start, end); every
// group is in range when end <= 0.
func (r *Reader) InRange(group int, start, end int64) bool {
	if end <= 0 {
		return true
	}
	s := r.RowGroupStart(group)
	return s >= start && s < end
}

// NumRowGroups is the number of row groups.
func (r *Reader) NumRowGroups() int { return len(r.file.RowGroups()) }

// Metadata returns a key from the footer's key-value metadata.
func (r *Reader) Metadata(key string) (string, bool) { return r.file.Lookup(key) }

// Schema derives the Iceberg schema of the file from its Parquet schema,
// using the field ids it carries, or mapping when a node has none.
func (r *Reader) Schema(mapping NameMapping) (*iceberg.Schema, error) {
	var fields []iceberg.NestedField
	for _, c := range r.file.Root().Columns() {
		f, ok, err := fileField(c, []string{c.Name()}, mapping, 0)
		if err != nil {
			return nil, err
		}
		if ok {
			fields = append(fields, f)
		}
	}
	s, err := iceberg.NewSchema(0, fields)
	if err != nil {
		return nil, corrupt("%v", err)
	}
	return s, nil
}

func columnID(c *parquet.Column, path []string, mapping NameMapping) (int, bool) {
	if c.ID() != 0 {
		return c.ID(), true
	}
	if mapping != nil {
		return mapping(path)
	}
	return 0, false
}

// fileField converts a Parquet column filling a slot of repetition
// level rep to an Iceberg field; ok is false for columns without an id
// (they cannot be projected).
func fileField(c *parquet.Column, path []string, mapping NameMapping, rep int) (iceberg.NestedField, bool, error) {
	id, ok := columnID(c, path, mapping)
	if !ok {
		return iceberg.NestedField{}, false, nil
	}
	t, err := fileType(c, path, mapping, rep)
	if err != nil {
		return iceberg.NestedField{}, false, err
	}
	if t == nil {
		return iceberg.NestedField{}, false, nil
	}
	// a repeated column is a required list of itself, or the required
	// element of the list whose repeated field it is
	return iceberg.NestedField{ID: id, Name: c.Name(), Type: t, Required: c.Required() || c.Repeated()}, true, nil
}

func fileType(c *parquet.Column, path []string, mapping NameMapping, rep int) (iceberg.Type, error) {
	if c.Leaf() && !bareRepeated(c, rep) {
		t, err := primitiveFromParquet(c.Type())
		return t, namedCRSError(err, path)
	}
	switch {
	case isVariantColumn(c) && !bareRepeated(c, rep):
		// metadata and value are the variant's encoding, not fields.
		return iceberg.VariantType{}, nil
	case isListColumn(c) || bareRepeated(c, rep) || isKeySet(c, rep):
		group, elem := listElement(c, rep)
		if elem == nil && bareRepeated(c, rep) {
			return nil, corrupt("column %q is a repeated LIST or MAP outside a list", c.Name())
		}
		if elem == nil {
			return nil, corrupt("list column %q has no element", c.Name())
		}
		ef, ok, err := fileField(elem, append(path, "element"), mapping, group.MaxRepetitionLevel())
		if err != nil || !ok {
			return nil, err
		}
		return &iceberg.ListType{ElementID: ef.ID, Element: ef.Type, ElementRequired: ef.Required}, nil
	case isMapColumn(c):
		kv, k, v := mapKeyValue(c, rep)
		if k == nil || v == nil {
			return nil, corrupt("map column %q has no key/value", c.Name())
		}
		kf, okk, err := fileField(k, append(path, "key"), mapping, kv.MaxRepetitionLevel())
		if err != nil {
			return nil, err
		}
		vf, okv, err := fileField(v, append(path, "value"), mapping, kv.MaxRepetitionLevel())
		if err != nil || !okk || !okv {
			return nil, err
		}
		return &iceberg.MapType{KeyID: kf.ID, Key: kf.Type, ValueID: vf.ID, Value: vf.Type, ValueRequired: vf.Required}, nil
	}
	st := &iceberg.StructType{}
	for _, ch := range c.Columns() {
		f, ok, err := fileField(ch, append(path, ch.Name()), mapping, rep)
		if err != nil {
			return nil, err
		}
		if ok {
			st.FieldList = append(st.FieldList, f)
		}
	}
	return st, nil
}
