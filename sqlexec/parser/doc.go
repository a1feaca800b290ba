// Package parser turns SQL text into statements for the planner.
//
// Parse splits a script on semicolons (outside quotes, backquotes and
// comments) and parses each statement in one of two ways:
//
//   - Statements TiDB's MySQL parser understands (SELECT, INSERT INTO,
//     UPDATE, DELETE, BEGIN/COMMIT/ROLLBACK, LOAD DATA, SET, ...) become a
//     *TiDBStmt wrapping the ast.StmtNode.
//   - The Spark/Iceberg forms TiDB cannot parse (namespaces, CREATE TABLE
//     with Iceberg types and PARTITIONED BY, ALTER TABLE actions, MERGE
//     INTO, INSERT OVERWRITE, CALL, DESCRIBE, SHOW TBLPROPERTIES, EXPLAIN)
//     are parsed by a small recursive-descent layer into this package's
//     statement types. Their embedded expressions and queries are parsed by
//     TiDB from their sub-texts, so the planner binds one expression AST.
//
// Table references. Before TiDB sees a statement, table references it
// cannot parse (names of three or more parts such as ns.t.snapshots or
// catalog.ns.t, and Spark time travel: VERSION AS OF, TIMESTAMP AS OF,
// FOR SYSTEM_VERSION/SYSTEM_TIME AS OF) are replaced by placeholder names.
// The placeholder prefix is chosen per script so that it occurs nowhere in
// the script's text, and after parsing every placeholder must be found as
// a table name exactly once, else the statement is rejected. A rewritten
// table without an alias gets the last part of its written name as alias.
// Every *ast.TableName of a statement, rewritten or not, is then a key of
// the statement's TableRefs() map, whose *TableRef gives the Iceberg
// meaning: namespace, table, metadata table (.snapshots, `t$files`),
// branch or tag (.branch_x, .tag_x), VERSION AS OF and TIMESTAMP AS OF
// (including TiDB's own AS OF TIMESTAMP). The planner must resolve table
// names through this map, never through ast.TableName's strings.
//
// Time travel values are a literal, a typed literal (TIMESTAMP '...') or a
// function call or parenthesized expression; longer expressions must be
// parenthesized.
//
// String() of every statement prints canonical SQL that parses back to an
// equal statement; embedded expressions and queries print as written.
// Errors are *ParseError values (line, column, near text) wrapping
// ErrSyntax.
package parser
