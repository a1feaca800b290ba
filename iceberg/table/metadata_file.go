package table

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/icesql/icesql/iceberg"
	"github.com/icesql/icesql/iceberg/fileio"
)

// writeMetadataFile writes metadata.json as <V>-<uuid>.metadata.json with
// V one more than the previous file's version.
func writeMetadataFile(ctx context.Context, env *Env, meta *iceberg.TableMetadata, previous string) (string, error) {
	version := 0
	if previous != "" {
		version = iceberg.ParseMetadataVersion(previous) + 1
		if version <= 0 {
			version = len(meta.MetadataLog())
		}
	}
	gz := strings.EqualFold(meta.Property(iceberg.PropMetadataCompression, iceberg.DefaultMetadataCompression), "gzip")
	name := iceberg.NewMetadataFileName(version)
	if gz {
		name = name[:len(name)-len(".metadata.json")] + ".gz.metadata.json"
	}
	loc := metadataDir(meta) + "/" + name
	out, err := env.createLazy(ctx, loc)
	if err != nil {
		return "", err
	}
	if err := iceberg.WriteMetadata(out, meta, gz); err != nil {
		out.Abort()
		return "", err
	}
	if err := out.Close(); err != nil {
		return "", fmt.Errorf("write %s: %w", path.Base(loc), err)
	}
	return loc, nil
}

// deleteOldMetadata removes metadata files that dropped out of the
// metadata log, when write.metadata.delete-after-commit.enabled is set. A
// catalog that writes metadata itself owns its files and removes them.
func deleteOldMetadata(ctx context.Context, base *Table, at *attempt) {
	if _, ok := base.env.Catalog.(MetadataCommitter); ok {
		return
	}
	RemoveOldMetadata(ctx, base.env.IO, base.meta, base.location, at.meta, at.location)
}

// RemoveOldMetadata removes, when the committed version (meta at location)
// has write.metadata.delete-after-commit.enabled, the metadata files its
// base logged (and the base itself) that it no longer logs.
func RemoveOldMetadata(ctx context.Context, io fileio.FileIO, base *iceberg.TableMetadata, baseLocation string,
	meta *iceberg.TableMetadata, location string) {
	if base == nil || !meta.PropertyBool(iceberg.PropMetadataDeleteAfterCommitEnabled, iceberg.DefaultMetadataDeleteAfterCommitEnabled) {
		return
	}
	kept := map[string]bool{location: true}
	for _, e := range meta.MetadataLog() {
		kept[e.MetadataFile] = true
	}
	for _, e := range base.MetadataLog() {
		if !kept[e.MetadataFile] {
			io.Remove(ctx, e.MetadataFile)
		}
	}
	if baseLocation != "" && !kept[baseLocation] {
		io.Remove(ctx, baseLocation)
	}
}

// WriteMetadata writes meta as the metadata.json that follows previous
// ("" for a new table) and makes it durable. It is for a catalog service
// that applies clients' updates itself and then swaps the pointer.
func WriteMetadata(ctx context.Context, env *Env, meta *iceberg.TableMetadata, previous string) (string, error) {
	loc, err := writeMetadataFile(ctx, env, meta, previous)
	if err != nil {
		return "", err
	}
	if err := env.syncFiles(ctx, []string{loc}); err != nil {
		env.IO.Remove(context.WithoutCancel(ctx), loc)
		return "", err
	}
	return loc, nil
}
