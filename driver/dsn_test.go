package driver

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseDSN(t *testing.T) {
	tests := []struct {
		dsn  string
		want Config
	}{
		{"./lake", Config{Warehouse: "lake", CatalogFile: filepath.Join("lake", "catalog.db"), Catalog: "default", Namespace: "default", Mode: ModeReadWrite}},
		{"/data/lake?namespace=sales&mode=ro", Config{Warehouse: "/data/lake", CatalogFile: "/data/lake/catalog.db", Catalog: "default", Namespace: "sales", Mode: ModeReadOnly}},
		{"file:///data/lake?catalog_file=/c/cat.db&catalog=prod", Config{Warehouse: "/data/lake", CatalogFile: "/c/cat.db", Catalog: "prod", Namespace: "default", Mode: ModeReadWrite}},
		{"file:./rel", Config{Warehouse: "rel", CatalogFile: filepath.Join("rel", "catalog.db"), Catalog: "default", Namespace: "default", Mode: ModeReadWrite}},
		{"file://localhost/x/y/", Config{Warehouse: "/x/y", CatalogFile: "/x/y/catalog.db", Catalog: "default", Namespace: "default", Mode: ModeReadWrite}},
		{"/w?memory_limit=256MiB&spill_dir=/tmp/spill/", Config{Warehouse: "/w", CatalogFile: "/w/catalog.db", Catalog: "default", Namespace: "default", Mode: ModeReadWrite, MemoryLimit: 256 << 20, SpillDir: "/tmp/spill"}},
		{"/w?allow_external_locations=true", Config{Warehouse: "/w", CatalogFile: "/w/catalog.db", Catalog: "default", Namespace: "default", Mode: ModeReadWrite, AllowExternalLocations: true}},
		{"/w?allow_external_locations=false", Config{Warehouse: "/w", CatalogFile: "/w/catalog.db", Catalog: "default", Namespace: "default", Mode: ModeReadWrite}},
		{"/w?catalog_uri=/c/cat.db", Config{Warehouse: "/w", CatalogFile: "/c/cat.db", Catalog: "default", Namespace: "default", Mode: ModeReadWrite}},
		{"/w?catalog_uri=sqlite:/c/cat.db", Config{Warehouse: "/w", CatalogFile: "/c/cat.db", Catalog: "default", Namespace: "default", Mode: ModeReadWrite}},
		{"/w?verify_page_checksums=false", Config{Warehouse: "/w", CatalogFile: "/w/catalog.db", Catalog: "default", Namespace: "default", Mode: ModeReadWrite, SkipPageChecksums: true}},
		{"/w?verify_page_checksums=true", Config{Warehouse: "/w", CatalogFile: "/w/catalog.db", Catalog: "default", Namespace: "default", Mode: ModeReadWrite}},
		{"/w?data_file_cache=16MiB", Config{Warehouse: "/w", CatalogFile: "/w/catalog.db", Catalog: "default", Namespace: "default", Mode: ModeReadWrite, DataFileCache: 16 << 20}},
		{"/w?data_file_cache=0", Config{Warehouse: "/w", CatalogFile: "/w/catalog.db", Catalog: "default", Namespace: "default", Mode: ModeReadWrite, DataFileCache: -1}},
		{"/w?memory_limit=1000", Config{Warehouse: "/w", CatalogFile: "/w/catalog.db", Catalog: "default", Namespace: "default", Mode: ModeReadWrite, MemoryLimit: 1000}},
	}
	for _, tt := range tests {
		t.Run(tt.dsn, func(t *testing.T) {
			got, err := ParseDSN(tt.dsn)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Fatalf("got %+v\nwant %+v", *got, tt.want)
			}
			again, err := ParseDSN(got.FormatDSN())
			if err != nil {
				t.Fatalf("reparse %q: %v", got.FormatDSN(), err)
			}
			if !reflect.DeepEqual(again, got) {
				t.Fatalf("round trip through %q: got %+v want %+v", got.FormatDSN(), *again, *got)
			}
		})
	}
}

func TestParseDSNErrors(t *testing.T) {
	for _, dsn := range []string{
		"", "  ", "s3://bucket/lake", "file://remote/x", "./lake?mode=rx", "./lake?nope=1",
		"./lake?namespace=", "./lake?mode=ro&mode=rw", "./lake?%zz", "?mode=ro",
		"./lake?catalog_uri=ftp://h/x", "./lake?catalog_uri=/a.db&catalog_file=/b.db", "./lake?catalog_uri=sqlite:",
		"./lake?memory_limit=lots", "./lake?memory_limit=-5", "./lake?memory_limit=99999999999TiB",
		"./lake?allow_external_locations=yes please", "./lake?verify_page_checksums=off please",
		"./lake?data_file_cache=-1", "./lake?data_file_cache=big",
	} {
		t.Run(dsn, func(t *testing.T) {
			_, err := ParseDSN(dsn)
			var de *DSNError
			if !errors.Is(err, ErrBadDSN) || !errors.As(err, &de) {
				t.Fatalf("ParseDSN(%q) = %v, want a *DSNError", dsn, err)
			}
		})
	}
}

func TestFormatDSNOddPaths(t *testing.T) {
	for _, wh := range []string{"/a?b/lake", "rel/with space", "/p%41th", "file:x", "/a://b"} {
		t.Run(wh, func(t *testing.T) {
			cfg := &Config{Warehouse: wh}
			cfg.normalize()
			got, err := ParseDSN(cfg.FormatDSN())
			if err != nil {
				t.Fatalf("ParseDSN(%q): %v", cfg.FormatDSN(), err)
			}
			if !reflect.DeepEqual(got, cfg) {
				t.Fatalf("via %q got %+v want %+v", cfg.FormatDSN(), got, cfg)
			}
		})
	}
}

func FuzzParseDSN(f *testing.F) {
	for _, s := range []string{"./lake", "/x?mode=ro", "file:///x?namespace=a.b&catalog=c", "file:a%20b", "?", "file:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dsn string) {
		cfg, err := ParseDSN(dsn)
		if err != nil {
			return
		}
		again, err := ParseDSN(cfg.FormatDSN())
		if err != nil {
			t.Fatalf("ParseDSN(%q) ok but its FormatDSN %q fails: %v", dsn, cfg.FormatDSN(), err)
		}
		if !reflect.DeepEqual(again, cfg) {
			t.Fatalf("round trip of %q via %q: %+v != %+v", dsn, cfg.FormatDSN(), again, cfg)
		}
	})
}

// TestRESTCatalogDSN: the REST catalog's client properties pass through
// the DSN with Iceberg's names, round-trip, never print, and are refused
// for catalogs that are not REST.
func TestRESTCatalogDSN(t *testing.T) {
	const dsn = "s3://b/lake?catalog_uri=http%3A%2F%2F127.0.0.1%3A8181&credential=id%3ATOPSECRET&oauth2-server-uri=http%3A%2F%2Fauth%2Ftoken&scope=catalog+extra&token=BEARERSECRET"
	cfg, err := ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"credential": "id:TOPSECRET", "oauth2-server-uri": "http://auth/token", "scope": "catalog extra", "token": "BEARERSECRET"}
	for k, v := range want {
		if cfg.CatalogProperties[k] != v {
			t.Errorf("%s = %q, want %q", k, cfg.CatalogProperties[k], v)
		}
	}
	again, err := ParseDSN(cfg.FormatDSN())
	if err != nil || again.FormatDSN() != cfg.FormatDSN() || again.CatalogProperties["token"] != "BEARERSECRET" {
		t.Fatalf("round trip: %v %+v", err, again)
	}
	if r := cfg.RedactedDSN(); strings.Contains(r, "TOPSECRET") || strings.Contains(r, "BEARERSECRET") {
		t.Fatalf("RedactedDSN shows a secret: %s", r)
	}
	for _, bad := range []string{
		"./lake?token=BEARERSECRET",
		"./lake?catalog_uri=postgres%3A%2F%2Fh%2Fdb&credential=a%3ATOPSECRET",
		"./lake?catalog_uri=http%3A%2F%2Fh&token=",
	} {
		_, err := ParseDSN(bad)
		if !errors.Is(err, ErrBadDSN) {
			t.Errorf("%s: %v, want ErrBadDSN", bad, err)
		}
		if err != nil && (strings.Contains(err.Error(), "TOPSECRET") || strings.Contains(err.Error(), "BEARERSECRET")) {
			t.Errorf("error shows the secret: %v", err)
		}
	}
}
