package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icesql/icesql/internal/restapi"
	"github.com/icesql/icesql/server/rest"
)

func TestCheckServeAddr(t *testing.T) {
	for _, c := range []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:8181", "", true},
		{"[::1]:8181", "", true},
		{"localhost:8181", "", true},
		{"0.0.0.0:8181", "", false},
		{":8181", "", false},
		{"192.168.1.5:8181", "", false},
		{"0.0.0.0:8181", "t", true},
		{"nonsense", "", false},
	} {
		t.Run(c.addr+"/"+c.token, func(t *testing.T) {
			if err := checkServeAddr(c.addr, c.token); (err == nil) != c.ok {
				t.Fatalf("err = %v, want ok=%v", err, c.ok)
			}
		})
	}
	if code := runServe([]string{"-addr", "0.0.0.0:0", t.TempDir()}, io.Discard, io.Discard); code != 2 {
		t.Fatalf("non-loopback without a token: exit %d, want 2", code)
	}
}

// TestServe runs the server on a free loopback port over a warehouse that
// icesql wrote, lists its table over HTTP, and stops it by cancelling (as
// SIGINT does).
func TestServe(t *testing.T) {
	wh := filepath.Join(t.TempDir(), "lake")
	db, err := sql.Open("iceberg", wh)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE events (id BIGINT)"); err != nil {
		t.Fatal(err)
	}
	db.Close()

	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, wh, "127.0.0.1:0", rest.Options{Token: "tok"}, false, pw)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSpace(line[strings.Index(line, "http://"):])
	go io.Copy(io.Discard, pr)

	req, _ := http.NewRequest("GET", url+"/v1/namespaces/default/tables", nil)
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var list restapi.ListTablesResponse
	err = json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if err != nil || len(list.Identifiers) != 1 || list.Identifiers[0].Name != "events" {
		t.Fatalf("tables: %+v %v", list, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("shutdown: %v", err)
	}
}
