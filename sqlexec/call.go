package sqlexec

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icesql/icesql/iceberg/maintenance"
	"github.com/icesql/icesql/planner"
	"github.com/icesql/icesql/sqlexec/parser"
)

// procedure is one CALL system.<name> procedure: Spark's parameters in
// positional order and the function that runs it.
type procedure struct {
	name   string
	params []procParam
	run    func(ctx context.Context, s *Session, args callArgs) (maintenance.Result, error)
}

func (p *procedure) param(name string) *procParam {
	for i := range p.params {
		if strings.EqualFold(p.params[i].name, name) {
			return &p.params[i]
		}
	}
	return nil
}

func (p *procedure) paramNames() string {
	names := make([]string, 0, len(p.params))
	for _, prm := range p.params {
		if !prm.unsupported {
			names = append(names, prm.name)
		}
	}
	return strings.Join(names, ", ")
}

// procedureNames lists the procedures for error messages.
func procedureNames() string {
	names := make([]string, 0, len(procedures))
	for n := range procedures {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// call runs CALL [catalog.]system.<procedure>(args) and returns the
// procedure's result set. Procedures change tables and delete files at
// once, so they are refused inside a transaction (nothing of theirs could
// roll back).
func (s *Session) call(ctx context.Context, st *parser.CallStmt) (*Rows, error) {
	if err := s.checkWritable(); err != nil {
		return nil, err
	}
	if s.tx != nil {
		return nil, fmt.Errorf("%w: CALL %s runs outside transactions (COMMIT or ROLLBACK first)", ErrDDLInTxn, parser.QuoteName(st.Name))
	}
	p, err := s.lookupProcedure(st.Name)
	if err != nil {
		return nil, err
	}
	args, err := s.bindCallArgs(ctx, p, st.Args)
	if err != nil {
		return nil, err
	}
	res, err := p.run(ctx, s, args)
	if pe := (*ProcedureArgError)(nil); errors.As(err, &pe) {
		pe.Procedure = p.name
		return nil, pe
	}
	if err != nil {
		return nil, &StatementError{Stmt: "CALL " + p.name, Err: err}
	}
	return resultRows(res)
}

// callExec runs a CALL for its effect, discarding the result rows.
func (s *Session) callExec(ctx context.Context, st *parser.CallStmt) (Result, error) {
	rows, err := s.call(ctx, st)
	if err != nil {
		return Result{}, err
	}
	return Result{}, rows.Close()
}

// lookupProcedure resolves system.<name> or <catalog>.system.<name>.
func (s *Session) lookupProcedure(name []string) (*procedure, error) {
	full := parser.QuoteName(name)
	ok := false
	switch len(name) {
	case 2:
		ok = strings.EqualFold(name[0], "system")
	case 3:
		if !strings.EqualFold(name[0], s.engine.catalogName()) {
			return nil, fmt.Errorf("%w: %s: unknown catalog %q", ErrUnknownProcedure, full, name[0])
		}
		ok = strings.EqualFold(name[1], "system")
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s: procedures are named system.<name> (%s)", ErrUnknownProcedure, full, procedureNames())
	}
	p := procedures[strings.ToLower(name[len(name)-1])]
	if p == nil {
		known := slices.Sorted(maps.Keys(procedures))
		if near := planner.Suggest(name[len(name)-1], known); near != "" {
			return nil, fmt.Errorf("%w: %s; did you mean system.%s?", ErrUnknownProcedure, full, near)
		}
		return nil, fmt.Errorf("%w: %s (known: %s)", ErrUnknownProcedure, full, procedureNames())
	}
	return p, nil
}

// resultRows renders a procedure result as a result set.
func resultRows(res maintenance.Result) (*Rows, error) {
	cols := res.Columns()
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = field(c.Name, mustArrow(c.Type), true)
	}
	return memRows(schemaOf(fields...), res.Rows())
}
