// Drives iceberg-js, a non-Go Iceberg REST client, against the icesql REST
// server at the URL given as the only argument, and prints one JSON report
// of what it saw; interop/js_test.go checks it against what icesql wrote.
// Any client error ends the run with exit code 1 and the error on stderr.
import { IcebergRestCatalog, IcebergError } from 'iceberg-js'

const baseUrl = process.argv[2]
if (!baseUrl) {
  console.error('usage: node check.mjs http://127.0.0.1:PORT')
  process.exit(2)
}
const catalog = new IcebergRestCatalog({ baseUrl, auth: { type: 'none' } })

// Every page of a listing, one item a page, so pagination is exercised.
async function all(list, key) {
  const out = []
  let pageToken
  for (let i = 0; i < 1000; i++) {
    const page = await list({ pageSize: 1, pageToken })
    out.push(...page[key])
    if (!page.nextPageToken) return out
    pageToken = page.nextPageToken
  }
  throw new Error('listing does not end')
}

const report = {}
try {
  const config = await catalog.loadConfig()
  report.endpoints = config.endpoints ?? []
  const top = await all((o) => catalog.listNamespaces(o), 'namespaces')
  report.namespaces = top.map((n) => n.namespace.join('.'))
  report.children = {}
  report.tables = {}
  for (const ns of top) {
    const kids = await all((o) => catalog.listNamespaces({ ...o, parent: ns }), 'namespaces')
    report.children[ns.namespace.join('.')] = kids.map((n) => n.namespace.join('.'))
    for (const n of [ns, ...kids]) {
      const ids = await all((o) => catalog.listTables(n, o), 'identifiers')
      report.tables[n.namespace.join('.')] = ids.map((t) => [...t.namespace, t.name].join('.'))
    }
  }
  report.namespaceProperties = (await catalog.loadNamespaceMetadata({ namespace: ['db'] })).properties
  report.namespaceExists = await catalog.namespaceExists({ namespace: ['db'] })
  report.missingNamespaceExists = await catalog.namespaceExists({ namespace: ['no_such_namespace'] })

  const events = { namespace: ['db'], name: 'events' }
  const meta = await catalog.loadTable(events)
  report.events = {
    formatVersion: meta['format-version'],
    tableUUID: meta['table-uuid'],
    location: meta.location,
    currentSnapshotId: meta['current-snapshot-id'],
    snapshots: (meta.snapshots ?? []).length,
    schemaFields: meta.schemas.find((s) => s['schema-id'] === meta['current-schema-id']).fields.map((f) => `${f.id}:${f.name}:${f.type}`),
    partitionFields: (meta['partition-specs'] ?? []).find((s) => s['spec-id'] === meta['default-spec-id']).fields.map((f) => f.transform),
    properties: meta.properties ?? {},
  }
  const refs = await catalog.loadTableResult(events, { snapshots: 'refs' })
  report.eventsMetadataLocation = refs['metadata-location']
  report.eventsRefsSnapshots = (refs.metadata.snapshots ?? []).length
  report.tableExists = await catalog.tableExists(events)
  report.missingTableExists = await catalog.tableExists({ namespace: ['db'], name: 'no_such_table' })
  try {
    await catalog.loadTable({ namespace: ['db'], name: 'no_such_table' })
    report.missingTableError = 'none'
  } catch (e) {
    report.missingTableError = e instanceof IcebergError ? `${e.status} ${e.icebergType ?? ''}`.trim() : String(e)
  }

  // Writes through the JS client: a namespace, a table, a property commit.
  await catalog.createNamespace({ namespace: ['js'] }, { properties: { owner: 'iceberg-js' } })
  const created = await catalog.createTable({ namespace: ['js'] }, {
    name: 'made_by_js',
    schema: { type: 'struct', 'schema-id': 0, fields: [
      { id: 1, name: 'id', type: 'long', required: true },
      { id: 2, name: 'note', type: 'string', required: false }] },
    'partition-spec': { 'spec-id': 0, fields: [] },
    'write-order': { 'order-id': 0, fields: [] },
    properties: { 'created-by': 'iceberg-js' },
  })
  report.createdFormatVersion = created['format-version']
  const commit = await catalog.updateTable({ namespace: ['js'], name: 'made_by_js' }, {
    requirements: [{ type: 'assert-table-uuid', uuid: created['table-uuid'] }],
    updates: [{ action: 'set-properties', updates: { 'committed-by': 'iceberg-js' } }],
  })
  report.commitMetadataLocation = commit['metadata-location']
  report.committedProperties = commit.metadata.properties
  try {
    await catalog.updateTable({ namespace: ['js'], name: 'made_by_js' }, {
      requirements: [{ type: 'assert-table-uuid', uuid: '00000000-0000-0000-0000-000000000000' }],
      updates: [{ action: 'set-properties', updates: { never: 'x' } }],
    })
    report.staleCommitError = 'none'
  } catch (e) {
    report.staleCommitError = e instanceof IcebergError ? String(e.status) : String(e)
  }
  await catalog.createTable({ namespace: ['js'] }, {
    name: 'dropped',
    schema: { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', type: 'long', required: false }] },
  })
  await catalog.dropTable({ namespace: ['js'], name: 'dropped' }, { purge: true })
  report.droppedExists = await catalog.tableExists({ namespace: ['js'], name: 'dropped' })
} catch (e) {
  console.error(e instanceof IcebergError ? `iceberg-js: ${e.status} ${e.message}` : e)
  process.exit(1)
}
console.log(JSON.stringify(report))
