package sqlexec

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	tidb "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/sqlexec/parser"
)

// paramBinder substitutes `?` placeholders of a statement's TiDB subtrees
// with literal values. The AST keeps the literals between runs; the binder
// remembers which literal stands for which placeholder so a prepared
// statement can be run again with new arguments.
type paramBinder struct {
	roots []ast.Node
	// sites maps the node currently standing at each placeholder position
	// (a *tidb.ParamMarkerExpr at first, later the literal put there).
	sites map[ast.Node]int
	count int
}

// newParamBinder counts the placeholders of stmt.
func newParamBinder(stmt parser.Statement) *paramBinder {
	pb := &paramBinder{sites: map[ast.Node]int{}}
	pb.roots = tidbRoots(stmt)
	// Order placeholders by their position in the text, which is the
	// order of the arguments. Roots come in the order of the text, and
	// each was parsed from its own piece of it (offsets are within the
	// piece), so markers are ordered root by root.
	for _, r := range pb.roots {
		mc := &markerCounter{}
		r.Accept(mc)
		sort.SliceStable(mc.markers, func(i, j int) bool { return mc.markers[i].Offset < mc.markers[j].Offset })
		for _, m := range mc.markers {
			pb.sites[m] = pb.count
			pb.count++
		}
	}
	return pb
}

// tidbRoots lists the TiDB subtrees of a statement.
func tidbRoots(stmt parser.Statement) []ast.Node {
	switch s := stmt.(type) {
	case *parser.TiDBStmt:
		return []ast.Node{s.Node}
	case *parser.CreateTableStmt:
		if s.AsSelect != nil {
			return []ast.Node{s.AsSelect.Node}
		}
	case *parser.InsertOverwriteStmt:
		return []ast.Node{s.Insert}
	case *parser.ExplainStmt:
		return tidbRoots(s.Stmt)
	case *parser.CallStmt:
		return callArgRoots(s)
	case *parser.MergeStmt:
		return mergeRoots(s)
	case *parser.CopyToStmt:
		if s.Query != nil {
			return []ast.Node{s.Query.Node}
		}
	}
	return nil
}

type markerCounter struct{ markers []*tidb.ParamMarkerExpr }

func (v *markerCounter) Enter(n ast.Node) (ast.Node, bool) { return n, false }

func (v *markerCounter) Leave(n ast.Node) (ast.Node, bool) {
	if m, ok := n.(*tidb.ParamMarkerExpr); ok {
		v.markers = append(v.markers, m)
	}
	return n, true
}

// bind puts args in place of the placeholders.
func (pb *paramBinder) bind(args []any) error {
	if len(args) != pb.count {
		return &ParamError{Msg: fmt.Sprintf("statement has %d placeholders, got %d arguments", pb.count, len(args))}
	}
	if pb.count == 0 {
		return nil
	}
	lits := make([]*tidb.ValueExpr, len(args))
	for i, a := range args {
		d, err := datumOf(a)
		if err != nil {
			return &ParamError{Index: i + 1, Msg: err.Error()}
		}
		lits[i] = d
	}
	for _, r := range pb.roots {
		r.Accept(&substituter{pb: pb, lits: lits})
	}
	return nil
}

type substituter struct {
	pb   *paramBinder
	lits []*tidb.ValueExpr
}

func (v *substituter) Enter(n ast.Node) (ast.Node, bool) { return n, false }

func (v *substituter) Leave(n ast.Node) (ast.Node, bool) {
	order, ok := v.pb.sites[n]
	if !ok || order < 0 || order >= len(v.lits) {
		return n, true
	}
	delete(v.pb.sites, n)
	lit := &tidb.ValueExpr{}
	*lit = *v.lits[order]
	v.pb.sites[lit] = order
	return lit, true
}

// datumOf turns a Go argument into a TiDB literal.
func datumOf(a any) (*tidb.ValueExpr, error) {
	v := &tidb.ValueExpr{}
	switch x := a.(type) {
	case nil:
		v.SetNull()
	case bool:
		if x {
			v.SetInt64(1)
		} else {
			v.SetInt64(0)
		}
	case int:
		v.SetInt64(int64(x))
	case int8:
		v.SetInt64(int64(x))
	case int16:
		v.SetInt64(int64(x))
	case int32:
		v.SetInt64(int64(x))
	case int64:
		v.SetInt64(x)
	case uint:
		v.SetUint64(uint64(x))
	case uint8:
		v.SetInt64(int64(x))
	case uint16:
		v.SetInt64(int64(x))
	case uint32:
		v.SetInt64(int64(x))
	case uint64:
		if x > math.MaxInt64 {
			return nil, fmt.Errorf("unsigned value %d does not fit a signed 64-bit integer", x)
		}
		v.SetInt64(int64(x))
	case float32:
		v.SetFloat64(float64(x))
	case float64:
		v.SetFloat64(x)
	case string:
		v.SetString(x)
	case []byte:
		v.SetBytes(append([]byte(nil), x...))
	case time.Time:
		// All nine digits: timestamp_ns columns keep them, microsecond
		// columns drop the last three when the text is cast. A time
		// outside UTC keeps its wall clock and offset: a timestamp column
		// gets the same instant, a DATE column the date as the caller's
		// location has it (as other drivers store it).
		if x.Location() == time.UTC {
			v.SetString(x.Format("2006-01-02 15:04:05.999999999"))
		} else {
			v.SetString(x.Format("2006-01-02 15:04:05.999999999Z07:00"))
		}
	case iceberg.Decimal:
		dec := new(tidb.MyDecimal)
		if err := dec.FromString([]byte(x.String())); err != nil {
			return nil, fmt.Errorf("decimal %s: %v", x, err)
		}
		v.SetMysqlDecimal(dec)
	case iceberg.UUID:
		v.SetString(uuidString(x))
	case iceberg.Date:
		v.SetString(time.Unix(int64(x)*86400, 0).UTC().Format("2006-01-02"))
	case iceberg.Timestamp:
		v.SetString(time.UnixMicro(int64(x)).UTC().Format("2006-01-02 15:04:05.999999"))
	case iceberg.TimestampNano:
		v.SetString(time.Unix(0, int64(x)).UTC().Format("2006-01-02 15:04:05.999999999"))
	default:
		return nil, fmt.Errorf("unsupported argument type %T", a)
	}
	return v, nil
}

func uuidString(u iceberg.UUID) string {
	const hex = "0123456789abcdef"
	b := make([]byte, 0, 36)
	for i, c := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b = append(b, '-')
		}
		b = append(b, hex[c>>4], hex[c&15])
	}
	return string(b)
}
