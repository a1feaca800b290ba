package parser

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	tidb "github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"

	"github.com/icesql/icesql/planner"
	// The test driver supplies ast.ValueExpr; without a driver the TiDB
	// parser cannot build literals.
	_ "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// span maps a piece of the text given to TiDB back to the script.
type span struct {
	newStart, origStart, length int
	copied                      bool
}

// mappedText is text built from pieces of the script and synthetic pieces
// (placeholders, prefixes), remembering where each piece came from so
// TiDB's error positions point into the user's text.
type mappedText struct {
	b     strings.Builder
	spans []span
}

func (m *mappedText) copy(src string, from, to int) {
	m.spans = append(m.spans, span{m.b.Len(), from, to - from, true})
	m.b.WriteString(src[from:to])
}

func (m *mappedText) synth(s string, orig int) {
	m.spans = append(m.spans, span{m.b.Len(), orig, len(s), false})
	m.b.WriteString(s)
}

func (m *mappedText) orig(off int) int {
	for i := len(m.spans) - 1; i >= 0; i-- {
		sp := m.spans[i]
		if off >= sp.newStart {
			if sp.copied {
				return sp.origStart + min(off-sp.newStart, sp.length)
			}
			return sp.origStart
		}
	}
	if len(m.spans) > 0 {
		return m.spans[0].origStart
	}
	return 0
}

// tidbTotalLen matches the suffix TiDB adds when it cuts a long near text.
var tidbTotalLen = regexp.MustCompile(`\(total length (\d+)\)\s*$`)

// tidbError converts a TiDB parse error on m's text into a *ParseError on
// the script. TiDB reports positions only inside its message, as
// `line L column C near "REST"...`, where REST is the text from the
// offending token to the end; its length locates the token.
func (c *parseCtx) tidbError(m *mappedText, fallback int, err error) error {
	msg := err.Error()
	text := m.b.String()
	i := strings.Index(msg, ` near "`)
	if !strings.HasPrefix(msg, "line ") || i < 0 {
		return newParseError(c.src, fallback, msg)
	}
	rest := -1
	if sub := tidbTotalLen.FindStringSubmatch(msg); sub != nil {
		rest, _ = strconv.Atoi(sub[1])
	} else {
		// Without the cut, the near text is a suffix of the parsed text.
		near := msg[i+len(` near "`):]
		for k := len(near); k >= 0; k-- {
			if strings.HasSuffix(text, near[:k]) && (k == len(near) || near[k] == '"') {
				rest = k
				break
			}
		}
	}
	off := fallback
	if rest >= 0 && rest <= len(text) {
		off = m.orig(len(text) - rest)
	}
	if rest == 0 {
		return newParseError(c.src, off, "unexpected end of statement")
	}
	return newParseError(c.src, off, c.unexpectedAt(off))
}

// tidbReserved are the words TiDB's grammar never takes as a name.
var tidbReserved = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range tidb.Keywords {
		if k.Reserved {
			m[k.Word] = true
		}
	}
	return m
}()

// unexpectedAt says what is wrong with the token at byte offset off: a
// reserved word where a name may have been meant gets the way out.
func (c *parseCtx) unexpectedAt(off int) string {
	i := sort.Search(len(c.toks), func(i int) bool { return c.toks[i].pos >= off })
	if i < len(c.toks) && c.toks[i].pos == off && c.toks[i].kind == tkIdent {
		if w := strings.ToUpper(c.toks[i].val); tidbReserved[w] {
			return fmt.Sprintf("%s is a reserved word; to use it as a name, back-quote it: %s", w, QuoteIdent(c.toks[i].val))
		}
	}
	return "unexpected input"
}

// tidbParse parses m's text as exactly one TiDB statement and resolves its
// table names: placeholders to the refs recorded while rewriting, every
// other name to a TableRef of its own.
func (c *parseCtx) tidbParse(m *mappedText, fallback int, rw *rewrite) (ast.StmtNode, RefMap, error) {
	// A fresh parser per statement: TiDB's parser recycles the memory of
	// the AST it returned on its next parse, so a parser must never be
	// reused while an earlier statement's AST is alive (a pooled one was,
	// and the race detector caught ASTs changing under running queries).
	text := m.b.String()
	if err := c.checkNumberLiterals(m, text); err != nil {
		return nil, nil, err
	}
	p := tidb.New()
	p.SetSQLMode(mysql.ModePipesAsConcat)
	stmts, _, err := p.ParseSQL(text)
	if err != nil {
		return nil, nil, c.tidbError(m, fallback, err)
	}
	if len(stmts) != 1 {
		return nil, nil, newParseError(c.src, fallback, "expected one statement")
	}
	if err := planner.CheckDepth(stmts[0]); err != nil {
		return nil, nil, err
	}
	stmts[0] = applySparkPipes(stmts[0])
	refs, err := c.collectRefs(stmts[0], rw, fallback)
	if err != nil {
		return nil, nil, err
	}
	return stmts[0], refs, nil
}

// collectRefs walks the AST once, building the RefMap and giving rewritten
// table sources their written name as alias so qualified columns resolve.
func (c *parseCtx) collectRefs(n ast.Node, rw *rewrite, fallback int) (RefMap, error) {
	v := &refVisitor{ctx: c, rw: rw, refs: RefMap{}}
	n.Accept(v)
	for name, site := range rw.byName {
		if !site.found {
			return nil, newParseError(c.src, site.pos, "a table reference is not allowed here: "+site.ref.String())
		}
		_ = name
	}
	if v.err != nil {
		return nil, v.err
	}
	return v.refs, nil
}

type refVisitor struct {
	ctx  *parseCtx
	rw   *rewrite
	refs RefMap
	err  error
}

func (v *refVisitor) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.TableSource:
		if tn, ok := x.Source.(*ast.TableName); ok && x.AsName.L == "" {
			if site := v.rw.lookup(tn.Name.O); site != nil {
				alias := site.ref.Parts[len(site.ref.Parts)-1]
				x.AsName = ast.NewCIStr(alias)
			}
		}
	case *ast.TableName:
		if site := v.rw.lookup(x.Name.O); site != nil && x.Schema.O == "" {
			if site.found {
				v.err = newParseError(v.ctx.src, site.pos, "table reference used twice")
				return n, true
			}
			site.found = true
			v.refs[x] = site.ref
		} else {
			parts := []string{x.Name.O}
			if x.Schema.O != "" {
				parts = []string{x.Schema.O, x.Name.O}
			}
			v.refs[x] = newTableRef(parts, v.ctx.opts)
		}
		if x.AsOf != nil {
			r := v.refs[x]
			r.TimestampAsOf = x.AsOf.TsExpr
			r.TimestampText = restore(x.AsOf.TsExpr)
		}
	case *ast.ColumnName:
		if site := v.rw.lookup(x.Table.O); site != nil {
			v.err = newParseError(v.ctx.src, site.pos, "a table reference is not allowed here: "+site.ref.String())
		}
	}
	return n, false
}

func (v *refVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// maxNumberDigits is the most digits a numeric literal may have: MySQL's
// DECIMAL limit, and far below what TiDB's decimal type can hold (its
// parser panics on longer literals instead of returning an error).
const maxNumberDigits = 65

// checkNumberLiterals rejects numeric literals with more digits than any
// SQL type holds, before TiDB sees them.
func (c *parseCtx) checkNumberLiterals(m *mappedText, text string) error {
	toks, err := lex(text)
	if err != nil {
		return nil // TiDB reports malformed text itself
	}
	for _, t := range toks {
		if t.kind != tkNumber {
			continue
		}
		digits := 0
		for i := 0; i < len(t.val); i++ {
			if t.val[i] == 'e' || t.val[i] == 'E' {
				break
			}
			if isDigit(t.val[i]) {
				digits++
			}
		}
		if digits > maxNumberDigits {
			return newParseError(c.src, m.orig(t.pos), fmt.Sprintf("numeric literal has %d digits; at most %d are supported", digits, maxNumberDigits))
		}
	}
	return nil
}
