package parser

import "strings"

// Markers for expression syntax TiDB lacks, rewritten into calls the
// planner recognises:
//
//   - CAST(x AS <Spark type>) becomes __icesql_cast(x, '<type>'), where
//     <type> is the Iceberg name of the target type (int, long, float,
//     double, boolean, string, binary, date, time, timestamp,
//     timestamptz, uuid, decimal(p,s), fixed[n]) or smallint / tinyint
//     (INT values range-checked to 16 / 8 bits). Casts to MySQL types
//     TiDB knows (SIGNED, CHAR, DATETIME, DECIMAL, ...) are left to TiDB.
//
// ARRAY(a, b, ...) becomes `array`(a, b, ...): ARRAY is a TiDB keyword,
// so the call is written with a quoted name (a call of function "array";
// MAP(...) parses as the call of "map" as it is).
const CastMarker = "__icesql_cast"

// sparkCastTypes are the first words of the CAST target types rewritten
// for the planner; other types go to TiDB unchanged.
var sparkCastTypes = map[string]bool{
	"INT": true, "INTEGER": true, "BIGINT": true, "LONG": true, "SMALLINT": true, "SHORT": true,
	"TINYINT": true, "BYTE": true, "STRING": true, "VARCHAR": true, "TEXT": true, "BOOLEAN": true,
	"BOOL": true, "FLOAT": true, "REAL": true, "TIMESTAMP": true, "TIMESTAMP_NTZ": true,
	"TIMESTAMP_LTZ": true, "TIMESTAMPTZ": true, "TIMESTAMP_NS": true, "TIMESTAMPTZ_NS": true, "TIMESTAMP_NTZ_NS": true, "TIMESTAMP_LTZ_NS": true, "UNKNOWN": true, "VOID": true, "VARIANT": true, "UUID": true, "BINARY": true, "VARBINARY": true, "FIXED": true,
}

// castSite is a CAST whose target type is rewritten: the AS token and the
// closing parenthesis, with the type name the planner reads.
type castSite struct {
	close    int
	typeName string
}

// sparkCast inspects CAST at token i (followed by "("). It returns the
// index of the AS that starts the target type and the rewrite, or ok
// false when TiDB should see the CAST as written.
func (c *parseCtx) sparkCast(i, to int) (as int, site castSite, ok bool, err error) {
	toks := c.toks
	end, err := c.skipParens(i+1, to)
	if err != nil {
		return 0, castSite{}, false, err
	}
	closing := end - 1
	as, depth := -1, 0
	for k := i + 2; k < closing; k++ {
		switch {
		case toks[k].isOp("("):
			depth++
		case toks[k].isOp(")"):
			depth--
		case depth == 0 && toks[k].isKw("AS"):
			as = k
		}
	}
	if as < 0 || as+1 >= closing || toks[as+1].kind != tkIdent {
		return 0, castSite{}, false, nil
	}
	first := strings.ToUpper(toks[as+1].val)
	if !sparkCastTypes[first] {
		return 0, castSite{}, false, nil
	}
	cur := &cursor{c: c, i: as + 1, end: closing}
	t, err := cur.typ()
	if err != nil {
		return 0, castSite{}, false, err
	}
	if !cur.atEnd() {
		return 0, castSite{}, false, cur.errorf("unexpected %s in CAST type", cur.describe())
	}
	name := t.String()
	switch first {
	case "SMALLINT", "SHORT":
		name = "smallint"
	case "TINYINT", "BYTE":
		name = "tinyint"
	}
	return as, castSite{close: closing, typeName: name}, true, nil
}
