package rest

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/icesql/icesql/catalog"
	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/table"
	"github.com/icesql/icesql/internal/restapi"
)

// change turns a pointer swap into the REST form: the updates from the
// expected metadata to the next, with the requirements they need.
func (c *Catalog) change(ctx context.Context, tc catalog.TableCommit) (restapi.CommitTableRequest, []int64, error) {
	if tc.Expected == "" || tc.New == "" {
		return restapi.CommitTableRequest{}, nil, fmt.Errorf("%w: commit of %s: empty metadata location", catalog.ErrInvalidArgument, tc.Ident)
	}
	base, err := c.readMetadata(ctx, tc.Expected)
	if err != nil {
		return restapi.CommitTableRequest{}, nil, err
	}
	next, err := c.readMetadata(ctx, tc.New)
	if err != nil {
		return restapi.CommitTableRequest{}, nil, err
	}
	if next.TableUUID() != base.TableUUID() {
		return restapi.CommitTableRequest{}, nil, fmt.Errorf("%w: %s is not a version of table %s", catalog.ErrInvalidArgument, tc.New, tc.Ident)
	}
	updates := iceberg.DiffMetadata(base, next)
	return restapi.CommitTableRequest{
		Identifier:   &restapi.TableIdentifier{Namespace: tc.Ident.Namespace, Name: tc.Ident.Name},
		Requirements: iceberg.RequirementsFor(base, updates),
		Updates:      updates,
	}, addedSnapshots(updates), nil
}

// addedSnapshots are the ids of the snapshots updates add: what shows
// that a commit landed when its reply was lost.
func addedSnapshots(updates []iceberg.Update) []int64 {
	var ids []int64
	for _, u := range updates {
		if a, ok := u.(iceberg.AddSnapshotUpdate); ok {
			ids = append(ids, a.Snapshot.SnapshotID)
		}
	}
	return ids
}

// CommitTable sends the difference between the expected and the next
// metadata file as a commit of requirements and updates. The server
// writes its own metadata.json; next stays unreferenced.
func (c *Catalog) CommitTable(ctx context.Context, id catalog.Identifier, expected, next string) error {
	if err := c.writable(); err != nil {
		return err
	}
	req, added, err := c.change(ctx, catalog.TableCommit{Ident: id, Expected: expected, New: next})
	if err != nil {
		return err
	}
	// The response's metadata is not needed: the engine reads the table
	// back through the pointer.
	err = c.call(ctx, http.MethodPost, c.tableURL(id), nil, req, nil, iceberg.ErrNoSuchTable)
	return c.commitOutcome(ctx, err, map[string][]int64{id.String(): added}, []catalog.Identifier{id})
}

// CommitTables commits several tables atomically through POST
// /v1/transactions/commit; servers that do not list it are refused
// before anything is sent.
func (c *Catalog) CommitTables(ctx context.Context, commits []catalog.TableCommit) error {
	if err := c.writable(); err != nil {
		return err
	}
	if len(commits) == 1 {
		return c.CommitTable(ctx, commits[0].Ident, commits[0].Expected, commits[0].New)
	}
	if !c.Supports(restapi.EndpointCommitTransaction) {
		return ErrTransactionsUnsupported
	}
	var req restapi.CommitTransactionRequest
	added := map[string][]int64{}
	var ids []catalog.Identifier
	for _, tc := range commits {
		if _, dup := added[tc.Ident.String()]; dup {
			return fmt.Errorf("%w: table %s twice in one commit", catalog.ErrInvalidArgument, tc.Ident)
		}
		ch, a, err := c.change(ctx, tc)
		if err != nil {
			return err
		}
		req.TableChanges = append(req.TableChanges, ch)
		added[tc.Ident.String()] = a
		ids = append(ids, tc.Ident)
	}
	err := c.call(ctx, http.MethodPost, c.route("/transactions/commit"), nil, req, nil, iceberg.ErrNoSuchTable)
	return c.commitOutcome(ctx, err, added, ids)
}

// commitOutcome maps a commit's error: 409 is ErrCommitFailed; a 5xx, a
// timeout or a lost connection after sending is ErrCommitStateUnknown,
// unless reading the tables back shows the commit's snapshots, so it
// landed. (Their absence proves nothing: the request may still be in
// flight.)
func (c *Catalog) commitOutcome(ctx context.Context, err error, added map[string][]int64, ids []catalog.Identifier) error {
	if err == nil {
		return nil
	}
	var se *ServerError
	var send *SendError
	switch {
	case errors.As(err, &se) && (se.Status == http.StatusConflict || se.Status == http.StatusNotFound):
		// A table that is gone is a lost commit too (the pointer moved
		// away), as catalog.Tables' CommitTable says; it still matches
		// iceberg.ErrNoSuchTable.
		return fmt.Errorf("%w: %w", iceberg.ErrCommitFailed, err)
	case errors.As(err, &se) && se.Status < 500:
		return err
	case errors.As(err, &se), errors.As(err, &send):
		if c.landed(context.WithoutCancel(ctx), added, ids) {
			return nil
		}
		return fmt.Errorf("%w: %w", iceberg.ErrCommitStateUnknown, err)
	}
	return err
}

// landed reports whether every table of a commit now has the snapshots
// the commit added (a commit without snapshots cannot be recognised).
func (c *Catalog) landed(ctx context.Context, added map[string][]int64, ids []catalog.Identifier) bool {
	for _, id := range ids {
		snaps := added[id.String()]
		if len(snaps) == 0 {
			return false
		}
		rec, err := c.LoadTable(ctx, id)
		if err != nil {
			return false
		}
		meta, err := table.ReadMetadata(ctx, c.io, rec.MetadataLocation)
		if err != nil {
			return false
		}
		for _, s := range snaps {
			if _, ok := meta.SnapshotByID(s); !ok {
				return false
			}
		}
	}
	return true
}

// readMetadata parses a metadata file, keeping the last few: a commit's
// next file is usually the base of the same writer's following commit.
func (c *Catalog) readMetadata(ctx context.Context, location string) (*iceberg.TableMetadata, error) {
	c.mu.Lock()
	m, ok := c.parsed[location]
	c.mu.Unlock()
	if ok {
		return m, nil
	}
	m, err := table.ReadMetadata(ctx, c.io, location)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.parsed) >= 8 {
		clear(c.parsed)
	}
	c.parsed[location] = m
	c.mu.Unlock()
	return m, nil
}
