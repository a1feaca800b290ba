package sqlexec

import (
	"fmt"
	"maps"
	"slices"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/sqlexec/parser"
)

// Session properties with a meaning here (Spark's names); others are kept
// and shown but change nothing.
const (
	// PropWAPID stages the session's writes to tables with
	// write.wap.enabled=true under this id (write-audit-publish);
	// CALL system.publish_changes publishes them.
	PropWAPID = "spark.wap.id"
	// PropWAPBranch is Spark's branch-based write-audit-publish.
	PropWAPBranch = "spark.wap.branch"
)

// setProperty runs SET [key [= value]].
func (s *Session) setProperty(st *parser.SetPropertyStmt) (*Rows, error) {
	sch := schemaOf(field("key", tString, false), field("value", tString, true))
	switch {
	case st.Key == "":
		var rows [][]any
		for _, k := range slices.Sorted(maps.Keys(s.props)) {
			rows = append(rows, []any{k, s.props[k]})
		}
		return memRows(sch, rows)
	case !st.HasValue:
		v, ok := s.props[st.Key]
		if !ok {
			return memRows(sch, [][]any{{st.Key, "<undefined>"}})
		}
		return memRows(sch, [][]any{{st.Key, v}})
	}
	if err := checkSessionPropertyName(st.Key); err != nil {
		return nil, err
	}
	if s.props == nil {
		s.props = map[string]string{}
	}
	s.props[st.Key] = st.Value
	return memRows(sch, [][]any{{st.Key, st.Value}})
}

// resetProperty runs RESET [key].
func (s *Session) resetProperty(st *parser.ResetPropertyStmt) (*Rows, error) {
	if st.Key == "" {
		clear(s.props)
	} else {
		delete(s.props, st.Key)
	}
	return emptyRows(), nil
}

// applyWAP stages u under the session's spark.wap.id when its table has
// write-audit-publish enabled, as Spark's writes do.
func (s *Session) applyWAP(u *table.SnapshotUpdate) error {
	meta := u.Table().Metadata()
	if !meta.PropertyBool(iceberg.PropWriteWAPEnabled, iceberg.DefaultWriteWAPEnabled) {
		return nil
	}
	id, hasID := s.props[PropWAPID]
	if _, hasBranch := s.props[PropWAPBranch]; hasBranch {
		if hasID {
			return fmt.Errorf("%w: cannot set both %s and %s", ErrInvalidSessionProperty, PropWAPID, PropWAPBranch)
		}
		return notSupported("%s (write to the branch with INSERT INTO t.branch_<name> and publish with CALL system.fast_forward)", PropWAPBranch)
	}
	if hasID && id != "" {
		u.StageOnly().SetSummary(wapIDSummary, id)
	}
	return nil
}

// wapIDSummary is the summary key of a staged write's id (Java's
// SnapshotSummary.STAGED_WAP_ID_PROP).
const wapIDSummary = "wap.id"
