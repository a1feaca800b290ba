package sqlexec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"context"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/sqlexec/parser"
)

func (s *Session) showProperties(ctx context.Context, st *parser.ShowPropertiesStmt) (*Rows, error) {
	t, err := s.loadTable(ctx, st.Table)
	if err != nil {
		return nil, err
	}
	props := t.Metadata().Properties()
	var rows [][]any
	if st.Key != "" {
		v, ok := props[st.Key]
		if !ok {
			v = "Table " + t.Ident().String() + " does not have property: " + st.Key
		}
		rows = append(rows, []any{st.Key, v})
	} else {
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			rows = append(rows, []any{k, props[k]})
		}
	}
	return memRows(schemaOf(field("key", tString, false), field("value", tString, false)), rows)
}

func memRows(sch *arrow.Schema, rows [][]any) (*Rows, error) {
	it, err := rowsIterator(sch, rows)
	if err != nil {
		return nil, err
	}
	return newRows(it), nil
}

func (s *Session) describe(ctx context.Context, st *parser.DescribeStmt) (*Rows, error) {
	t, err := s.loadTable(ctx, st.Table)
	if err != nil {
		return nil, err
	}
	schema := t.Schema()
	var rows [][]any
	for _, f := range schema.Fields() {
		var doc any
		if f.Doc != "" {
			doc = f.Doc
		}
		rows = append(rows, []any{f.Name, sparkType(f.Type), doc})
	}
	spec := t.Spec()
	if !spec.IsUnpartitioned() {
		rows = append(rows, []any{"", "", nil}, []any{"# Partitioning", "", nil})
		for i, f := range spec.Fields {
			rows = append(rows, []any{"Part " + itoa(i), partitionTermSQL(schema, f), nil})
		}
	}
	if len(schema.IdentifierFieldIDs) > 0 {
		// the table's key (PRIMARY KEY or SET IDENTIFIER FIELDS), not enforced
		rows = append(rows, []any{"", "", nil}, []any{"# Identifier Fields", "", nil})
		for _, id := range schema.IdentifierFieldIDs {
			name, _ := schema.FindColumnName(id)
			f, _ := schema.FindFieldByID(id)
			rows = append(rows, []any{name, sparkType(f.Type), nil})
		}
	}
	if st.Extended {
		meta := t.Metadata()
		rows = append(rows, []any{"", "", nil}, []any{"# Metadata Columns", "", nil},
			[]any{"_spec_id", "int", nil}, []any{"_partition", "struct", nil}, []any{"_file", "string", nil},
			[]any{"_pos", "bigint", nil}, []any{"", "", nil},
			[]any{"# Detailed Table Information", "", nil},
			[]any{"Name", s.engine.catalogName() + "." + t.Ident().String(), nil},
			[]any{"Type", "MANAGED", nil},
			[]any{"Location", meta.Location(), nil},
			[]any{"Provider", "iceberg", nil})
		if snap := meta.CurrentSnapshot(); snap != nil {
			rows = append(rows, []any{"Current Snapshot", i64toa(snap.SnapshotID), nil})
		}
		rows = append(rows, []any{"Table Properties", "[" + propertyList(meta.Properties(), ",") + "]", nil})
	}
	return memRows(schemaOf(field("col_name", tString, false), field("data_type", tString, false), field("comment", tString, true)), rows)
}

// sparkType is the type as Spark's DESCRIBE prints it.
// sparkType prints a type as Spark's DESCRIBE does (its simpleString):
// lower case, no spaces, struct field names as they are.
func sparkType(t iceberg.Type) string {
	switch x := t.(type) {
	case *iceberg.ListType:
		return "array<" + sparkType(x.Element) + ">"
	case *iceberg.MapType:
		return "map<" + sparkType(x.Key) + "," + sparkType(x.Value) + ">"
	case *iceberg.StructType:
		parts := make([]string, len(x.FieldList))
		for i, f := range x.FieldList {
			parts[i] = f.Name + ":" + sparkType(f.Type)
		}
		return "struct<" + strings.Join(parts, ",") + ">"
	case iceberg.DecimalType:
		return "decimal(" + itoa(x.Precision) + "," + itoa(x.Scale) + ")"
	case iceberg.GeometryType, iceberg.GeographyType:
		// The keyword in lower case; a CRS or algorithm as it is.
		kw, params, ok := strings.Cut(parser.TypeSQL(t), "(")
		if ok {
			return strings.ToLower(kw) + "(" + params
		}
		return strings.ToLower(kw)
	}
	return strings.ToLower(parser.TypeSQL(t))
}

// partitionTermSQL prints a partition field as PARTITIONED BY takes it.
func partitionTermSQL(schema *iceberg.Schema, f iceberg.PartitionField) string {
	col, ok := schema.FindColumnName(f.SourceID)
	if !ok {
		col = "<dropped column " + itoa(f.SourceID) + ">"
	}
	term := parser.PartitionTerm{Column: col}
	switch x := f.Transform.(type) {
	case iceberg.BucketTransform:
		term.Transform, term.Param = "bucket", x.N
	case iceberg.TruncateTransform:
		term.Transform, term.Param = "truncate", x.W
	default:
		term.Transform = f.Transform.String()
	}
	return term.String()
}

func propertyList(props map[string]string, sep string) string {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + props[k]
	}
	return strings.Join(parts, sep)
}

func (s *Session) showCreateTable(ctx context.Context, st *parser.ShowCreateTableStmt) (*Rows, error) {
	t, err := s.loadTable(ctx, st.Table)
	if err != nil {
		return nil, err
	}
	meta := t.Metadata()
	schema := t.Schema()
	var b strings.Builder
	b.WriteString("CREATE TABLE " + parser.QuoteName(append([]string{s.engine.catalogName()}, append(append([]string(nil), t.Ident().Namespace...), t.Ident().Name)...)) + " (\n")
	for i, f := range schema.Fields() {
		if i > 0 {
			b.WriteString(",\n")
		}
		c := parser.ColumnDef{Name: f.Name, Type: f.Type, NotNull: f.Required, Comment: f.Doc}
		b.WriteString("  " + c.String())
	}
	if ids := schema.IdentifierFieldIDs; len(ids) > 0 {
		names := make([]string, len(ids))
		for i, id := range ids {
			name, _ := schema.FindColumnName(id)
			names[i] = parser.QuoteName(strings.Split(name, "."))
		}
		b.WriteString(",\n  PRIMARY KEY (" + strings.Join(names, ", ") + ") NOT ENFORCED")
	}
	b.WriteString(")\nUSING iceberg\n")
	if spec := t.Spec(); !spec.IsUnpartitioned() {
		terms := make([]string, len(spec.Fields))
		for i, f := range spec.Fields {
			terms[i] = partitionTermSQL(schema, f)
		}
		b.WriteString("PARTITIONED BY (" + strings.Join(terms, ", ") + ")\n")
	}
	b.WriteString("LOCATION " + parser.QuoteString(meta.Location()) + "\n")
	props := meta.Properties()
	if v := meta.FormatVersion(); v != iceberg.DefaultFormatVersion {
		// the statement must recreate the version: v3 column types need it
		props = maps.Clone(props)
		if props == nil {
			props = map[string]string{}
		}
		props[iceberg.PropFormatVersion] = strconv.Itoa(v)
	}
	writeTblProperties(&b, props)
	return memRows(schemaOf(field("createtab_stmt", tString, false)), [][]any{{b.String()}})
}

// writeTblProperties writes SHOW CREATE's TBLPROPERTIES clause, keys
// sorted, leaving out the keys omit (printed elsewhere); nothing when no
// property is left.
func writeTblProperties(b *strings.Builder, props map[string]string, omit ...string) {
	keys := make([]string, 0, len(props))
	for k := range props {
		if !slices.Contains(omit, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return
	}
	sort.Strings(keys)
	b.WriteString("TBLPROPERTIES (\n")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("  " + parser.QuoteString(k) + " = " + parser.QuoteString(props[k]))
	}
	b.WriteString(")\n")
}

func itoa(n int) string     { return strconv.Itoa(n) }
func i64toa(n int64) string { return strconv.FormatInt(n, 10) }
