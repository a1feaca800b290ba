// Package driver is the database/sql driver for icesql: import it for its
// side effect and open a warehouse directory:
//
//	import _ "github.com/icesql/icesql/driver"
//	db, err := sql.Open("iceberg", "./lake")
//
// Result values are bool, int32, int64, float32, float64, string, []byte
// and time.Time (UTC); decimals, times and nested values come as text.
// UUID columns (DatabaseTypeName "UUID", scan type string) come as
// canonical lower-case text such as "123e4567-e89b-12d3-a456-426614174000";
// parameters for them take the same text. Iceberg's fixed[16] shares the
// uuid's in-memory form, so its results are typed and printed as UUID too.
package driver

import (
	"database/sql"
	"database/sql/driver"
)

// DriverName is the name the driver registers with database/sql.
const DriverName = "iceberg"

func init() { sql.Register(DriverName, &Driver{}) }

// Driver opens icesql connections. Open parses the DSN on every call;
// prefer sql.Open, which goes through OpenConnector and opens the
// warehouse once per *sql.DB.
type Driver struct{}

var (
	_ driver.Driver        = (*Driver)(nil)
	_ driver.DriverContext = (*Driver)(nil)
)

// Open opens a connection on its own engine (closed with the connection).
func (d *Driver) Open(dsn string) (driver.Conn, error) {
	c, err := d.OpenConnector(dsn)
	if err != nil {
		return nil, err
	}
	cn := c.(*connector)
	conn, err := cn.connect()
	if err != nil {
		cn.Close()
		return nil, err
	}
	conn.ownsConnector = cn
	return conn, nil
}

// OpenConnector parses the DSN; the warehouse is opened on first use.
func (d *Driver) OpenConnector(dsn string) (driver.Connector, error) {
	cfg, err := ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	return NewConnector(cfg)
}
