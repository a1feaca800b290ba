package parser

import "strings"

// QuoteIdent backquotes an identifier unless it is a plain word that is
// not a keyword, so printed SQL parses back to the same name.
func QuoteIdent(s string) string {
	if isPlainIdent(s) && !reservedWords[strings.ToUpper(s)] {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// QuoteName quotes and dot-joins a multi-part name.
func QuoteName(parts []string) string {
	q := make([]string, len(parts))
	for i, p := range parts {
		q[i] = QuoteIdent(p)
	}
	return strings.Join(q, ".")
}

// QuoteString prints s as a single-quoted SQL string literal.
func QuoteString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `''`, "\n", `\n`, "\r", `\r`, "\x00", `\0`)
	return "'" + r.Replace(s) + "'"
}

func isPlainIdent(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
			return false
		}
	}
	return true
}

// reservedWords are words quoted on output because the extension grammar
// or TiDB would read them as keywords in a name position.
var reservedWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`ADD ALL ALTER AND AS ASC BETWEEN BRANCH BY CALL CASE CASCADE
		COLUMN COLUMNS COMMENT CREATE CROSS DATABASE DATABASES DEFAULT DELETE DESC DESCRIBE DISTINCT DROP
		ELSE END EXISTS EXPLAIN FALSE FIELD FOR FROM FULL GROUP HAVING IF IN INNER INSERT INTERVAL INTO IS
		JOIN KEY LEFT LIKE LIMIT LOCATION MATCHED MERGE NAMESPACE NAMESPACES NATURAL NOT NULL OF ON OR ORDER
		ORDERED OUTER OVERWRITE PARTITION PARTITIONED PURGE RENAME REPLACE RETAIN RIGHT SCHEMA SCHEMAS
		SELECT SET SHOW SNAPSHOT TABLE TABLES TAG TBLPROPERTIES THEN TIMESTAMP TO TRUE TYPE UNION UNSET
		UPDATE USE USING VALUES VERSION WHEN WHERE WITH WRITE`) {
		reservedWords[w] = true
	}
}
