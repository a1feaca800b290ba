package rest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/internal/restapi"
)

// change is one table's commit being applied: its base as read from the
// catalog and the metadata the request's updates produce on it.
type change struct {
	id      catalog.Identifier
	req     restapi.CommitTableRequest
	baseLoc string // "" when the table does not exist (a staged create)
	base    *iceberg.TableMetadata
	meta    *iceberg.TableMetadata
	loc     string // the written metadata.json, "" before writing
}

func (c *change) unchanged() bool { return c.base != nil && c.meta == c.base }

func creates(req restapi.CommitTableRequest) bool {
	return slices.ContainsFunc(req.Requirements, func(r iceberg.Requirement) bool {
		_, ok := r.(iceberg.AssertCreate)
		return ok
	})
}

// stage checks the requirements against the base and applies the updates.
func (s *Server) stage(ctx context.Context, c *change) error {
	c.base, c.meta, c.loc = nil, nil, ""
	if c.baseLoc != "" {
		e, err := s.readMetadata(ctx, c.baseLoc)
		if err != nil {
			return err
		}
		c.base = e.meta
	} else if !creates(c.req) {
		return fmt.Errorf("%w: %s", iceberg.ErrNoSuchTable, c.id)
	}
	if err := iceberg.ValidateRequirements(c.base, c.req.Requirements); err != nil {
		return fmt.Errorf("%w: table %s: %w", iceberg.ErrCommitFailed, c.id, err)
	}
	meta, err := iceberg.ApplyUpdates(c.base, c.baseLoc, c.req.Updates)
	if err != nil {
		return err
	}
	c.meta = meta
	return nil
}

// write writes the staged metadata as the table's next metadata.json.
func (s *Server) write(ctx context.Context, c *change) error {
	if c.unchanged() {
		return nil
	}
	loc, err := table.WriteMetadata(ctx, s.env, c.meta, c.baseLoc)
	if err != nil {
		return err
	}
	c.loc = loc
	return nil
}

// discard removes metadata files of a lost attempt; after an unknown
// outcome nothing may be removed.
func (s *Server) discard(ctx context.Context, changes []*change) {
	for _, c := range changes {
		if c.loc != "" {
			s.env.IO.Remove(context.WithoutCancel(ctx), c.loc)
			c.loc = ""
		}
	}
}

// retryable reports whether a lost swap may be retried on a fresh base:
// the pointer moved (or a concurrent create won), and the requirements are
// checked again on the next attempt.
func retryable(err error) bool {
	return errors.Is(err, iceberg.ErrCommitFailed) && !errors.Is(err, iceberg.ErrRequirementFailed) ||
		errors.Is(err, iceberg.ErrTableAlreadyExists)
}

func (s *Server) commitTable(w http.ResponseWriter, r *http.Request) error {
	id, err := identParam(r, "table")
	if err != nil {
		return err
	}
	var req restapi.CommitTableRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	if req.Identifier != nil {
		if got, err := toIdent(*req.Identifier); err != nil || got.String() != id.String() {
			return badRequest("commit body names table %v, the path %s", req.Identifier, id)
		}
	}
	c := &change{id: id, req: req}
	if err := s.commit(r.Context(), []*change{c}); err != nil {
		return err
	}
	loc, meta := c.loc, c.meta
	if c.unchanged() {
		loc = c.baseLoc
	}
	data, err := s.cache.put(loc, meta).encoded()
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, restapi.CommitTableResponse{MetadataLocation: loc, Metadata: data})
}

func (s *Server) commitTransaction(w http.ResponseWriter, r *http.Request) error {
	var req restapi.CommitTransactionRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	if len(req.TableChanges) == 0 {
		return badRequest("transaction without table-changes")
	}
	seen := map[string]bool{}
	var changes []*change
	for _, tc := range req.TableChanges {
		if tc.Identifier == nil {
			return badRequest("every table change of a transaction needs an identifier")
		}
		id, err := toIdent(*tc.Identifier)
		if err != nil {
			return err
		}
		if seen[id.String()] {
			return badRequest("table %s appears twice in the transaction", id)
		}
		seen[id.String()] = true
		changes = append(changes, &change{id: id, req: tc})
	}
	if err := s.commit(r.Context(), changes); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// commit applies every change onto the tables' current metadata and swaps
// all pointers at once (one catalog transaction for several tables),
// re-applying onto fresh bases after a lost swap while the requirements
// still hold.
func (s *Server) commit(ctx context.Context, changes []*change) error {
	var err error
	for attempt := 0; attempt < s.opts.CommitAttempts; attempt++ {
		if err = ctx.Err(); err != nil {
			return err
		}
		err = s.tryCommit(ctx, changes)
		if err == nil || !retryable(err) {
			return err
		}
	}
	return fmt.Errorf("%w (after %d attempts)", err, s.opts.CommitAttempts)
}

func (s *Server) tryCommit(ctx context.Context, changes []*change) error {
	if err := s.readBases(ctx, changes); err != nil {
		return err
	}
	for _, c := range changes {
		if err := s.stage(ctx, c); err != nil {
			return err
		}
	}
	for _, c := range changes {
		if err := s.write(ctx, c); err != nil {
			s.discard(ctx, changes)
			return err
		}
	}
	err := s.swap(ctx, changes)
	if err == nil {
		for _, c := range changes {
			if c.loc != "" {
				s.cache.put(c.loc, c.meta)
				table.RemoveOldMetadata(context.WithoutCancel(ctx), s.env.IO, c.base, c.baseLoc, c.meta, c.loc)
			}
		}
		return nil
	}
	if !refused(err) {
		// The swap may have happened (a lost reply, a fault after
		// sending): the new files stay, and the client is told the
		// outcome is unknown, as the spec's 500 for commits says.
		return unknownOutcome(err)
	}
	s.discard(ctx, changes)
	return err
}

// refused reports whether a catalog's swap error says that nothing
// changed; only then may the files written for it be removed.
func refused(err error) bool {
	for _, k := range []error{iceberg.ErrCommitFailed, iceberg.ErrRequirementFailed, iceberg.ErrTableAlreadyExists,
		iceberg.ErrViewAlreadyExists, iceberg.ErrNoSuchTable, iceberg.ErrNoSuchView, iceberg.ErrNoSuchNamespace,
		catalog.ErrBusy, catalog.ErrReadOnly, catalog.ErrInvalidArgument, catalog.ErrInvalidIdentifier} {
		if errors.Is(err, k) {
			return !errors.Is(err, iceberg.ErrCommitStateUnknown)
		}
	}
	return false
}

// unknownOutcome marks err as a commit whose outcome is unknown.
func unknownOutcome(err error) error {
	if errors.Is(err, iceberg.ErrCommitStateUnknown) {
		return err
	}
	return fmt.Errorf("%w: %w", iceberg.ErrCommitStateUnknown, err)
}

// readBases reads the pointers of all changed tables in one consistent
// read; a missing table is a create when its change asserts one.
func (s *Server) readBases(ctx context.Context, changes []*change) error {
	if len(changes) == 1 {
		c := changes[0]
		rec, err := s.cat.LoadTable(ctx, c.id)
		switch {
		case err == nil:
			c.baseLoc = rec.MetadataLocation
		case errors.Is(err, iceberg.ErrNoSuchTable):
			c.baseLoc = ""
		default:
			return err
		}
		return nil
	}
	ids := make([]catalog.Identifier, len(changes))
	for i, c := range changes {
		ids[i] = c.id
		if creates(c.req) {
			return badRequest("table %s: creating tables inside a multi-table transaction is not supported", c.id)
		}
	}
	recs, err := s.cat.LoadTables(ctx, ids)
	if err != nil {
		return err
	}
	for i, c := range changes {
		c.baseLoc = recs[i].MetadataLocation
	}
	return nil
}

func (s *Server) swap(ctx context.Context, changes []*change) error {
	var commits []catalog.TableCommit
	for _, c := range changes {
		switch {
		case c.unchanged():
		case c.baseLoc == "":
			// Only single-table commits create (readBases refuses the rest).
			return s.cat.CreateTable(ctx, c.id, c.loc)
		default:
			commits = append(commits, catalog.TableCommit{Ident: c.id, Expected: c.baseLoc, New: c.loc})
		}
	}
	switch len(commits) {
	case 0:
		return nil
	case 1:
		return s.cat.CommitTable(ctx, commits[0].Ident, commits[0].Expected, commits[0].New)
	}
	return s.cat.CommitTables(ctx, commits)
}
