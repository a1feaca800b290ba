package parser

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// TableRef is a table reference as written, with the Iceberg meaning the
// parser can give it without a catalog: metadata-table and branch/tag
// suffixes, time travel, and a leading catalog name (when the caller named
// its catalogs in Options).
type TableRef struct {
	// Parts is the dotted name as written, unquoted, one element per part.
	Parts []string
	// Catalog is Parts[0] when it names a catalog from Options.Catalogs and
	// at least two parts follow it.
	Catalog string
	// Namespace is empty for a name relative to the current namespace.
	Namespace []string
	Table     string
	// MetadataTable is a metadata table name in lower case ("snapshots",
	// "files", ...) read from a `.name` suffix or a `t$name` table name.
	MetadataTable string
	// Branch and Tag come from a `.branch_<name>` / `.tag_<name>` suffix.
	Branch, Tag string
	// VersionAsOf is nil, an int64 snapshot id or a string ref name.
	VersionAsOf any
	// TimestampAsOf is nil or the expression of TIMESTAMP AS OF,
	// FOR SYSTEM_TIME AS OF or TiDB's AS OF TIMESTAMP.
	TimestampAsOf ast.ExprNode
	// TimestampText is TimestampAsOf as written, for printing.
	TimestampText string
}

// RefMap gives the TableRef of every *ast.TableName of a statement's TiDB
// subtrees. The pointer is the key, so a rewritten name can never be
// confused with a user's table that happens to have the same spelling.
type RefMap map[*ast.TableName]*TableRef

// metadataTables are the Iceberg metadata table names a name may end with.
var metadataTables = map[string]bool{
	"snapshots": true, "history": true, "metadata_log_entries": true,
	"manifests": true, "all_manifests": true, "files": true,
	"data_files": true, "delete_files": true, "entries": true,
	"partitions": true, "refs": true, "all_data_files": true,
	"all_delete_files": true, "all_files": true, "all_entries": true,
	"position_deletes": true,
}

// IsMetadataTable reports whether name (any case) is a metadata table name.
func IsMetadataTable(name string) bool { return metadataTables[strings.ToLower(name)] }

// newTableRef interprets a dotted name. The suffix rules are syntactic:
// a last part equal to a metadata table name, or starting with branch_ or
// tag_, is a suffix when there are at least two parts. LiteralName gives
// the other reading for callers that, like Spark, try a real table first.
func newTableRef(parts []string, opts *Options) *TableRef {
	r := &TableRef{Parts: parts}
	rest := parts
	if len(rest) >= 3 && opts.isCatalog(rest[0]) {
		r.Catalog = rest[0]
		rest = rest[1:]
	}
	if n := len(rest); n >= 2 {
		last := rest[n-1]
		lower := strings.ToLower(last)
		switch {
		case metadataTables[lower]:
			r.MetadataTable = lower
			rest = rest[:n-1]
		case strings.HasPrefix(lower, "branch_") && len(last) > len("branch_"):
			r.Branch = last[len("branch_"):]
			rest = rest[:n-1]
		case strings.HasPrefix(lower, "tag_") && len(last) > len("tag_"):
			r.Tag = last[len("tag_"):]
			rest = rest[:n-1]
		}
	}
	n := len(rest)
	r.Table = rest[n-1]
	r.Namespace = rest[:n-1]
	if r.MetadataTable == "" && r.Branch == "" && r.Tag == "" {
		if i := strings.LastIndexByte(r.Table, '$'); i > 0 && metadataTables[strings.ToLower(r.Table[i+1:])] {
			r.MetadataTable = strings.ToLower(r.Table[i+1:])
			r.Table = r.Table[:i]
		}
	}
	return r
}

// LiteralName is the name read with no suffix interpretation: the
// namespace and table that Parts names if a table of that exact name exists.
func (r *TableRef) LiteralName() (namespace []string, table string) {
	rest := r.Parts
	if r.Catalog != "" {
		rest = rest[1:]
	}
	return rest[:len(rest)-1], rest[len(rest)-1]
}

// String prints the reference as SQL: the quoted name and any time travel.
func (r *TableRef) String() string {
	s := QuoteName(r.Parts)
	switch v := r.VersionAsOf.(type) {
	case int64:
		s += " VERSION AS OF " + strconv.FormatInt(v, 10)
	case string:
		s += " VERSION AS OF " + QuoteString(v)
	}
	if r.TimestampAsOf != nil {
		s += " TIMESTAMP AS OF " + r.TimestampText
	}
	return s
}

func (o *Options) isCatalog(name string) bool {
	for _, c := range o.Catalogs {
		if strings.EqualFold(c, name) {
			return true
		}
	}
	return false
}

// merge adds src's entries to dst (allocating it if needed).
func (m *RefMap) merge(src RefMap) {
	if len(src) == 0 {
		return
	}
	if *m == nil {
		*m = RefMap{}
	}
	for k, v := range src {
		(*m)[k] = v
	}
}
