package rest

import (
	"log/slog"

	"github.com/icesql/icesql/catalog"
)

func logWarn(msg string, id catalog.Identifier, err error) {
	slog.Warn("rest catalog: "+msg, "table", id.String(), "err", err)
}

func logDebug(msg string, id catalog.Identifier, kind string) {
	slog.Debug("rest catalog: "+msg, "table", id.String(), "kind", kind)
}
