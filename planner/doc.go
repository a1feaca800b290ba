// Package planner turns parsed SQL (TiDB AST) into bound expressions and
// logical plans, optimizes them with an ordered list of passes, and builds
// physical operators from package exec. It reads tables through the Catalog
// and Table interfaces, so it knows nothing of Iceberg.
package planner
