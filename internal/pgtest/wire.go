package pgtest

import (
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
)

// Wire relays connections to the cluster on a loopback port of its own
// and counts the clients' round trips as the server sees them: every
// Sync (end of an extended-protocol exchange) and every simple Query is
// one. Nothing is changed on the way; the server is the real one.
type Wire struct {
	mu         sync.Mutex
	roundTrips int64
	statements []string
	prepared   map[string]string // statement name -> text
}

// CountRoundTrips returns uri pointed at a relay of the same database,
// and the relay, closed when the test ends.
func CountRoundTrips(t testing.TB, uri string) (string, *Wire) {
	t.Helper()
	u, err := url.Parse(uri)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	w := &Wire{prepared: map[string]string{}}
	target := u.Host
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go w.relay(c, target)
		}
	}()
	u.Host = l.Addr().String()
	return u.String(), w
}

// RoundTrips is the number of round trips so far.
func (w *Wire) RoundTrips() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.roundTrips
}

// Statements are the texts of the statements executed so far (simple
// queries and bound prepared statements), for messages.
func (w *Wire) Statements() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.statements...)
}

func (w *Wire) relay(client net.Conn, target string) {
	defer client.Close()
	server, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer server.Close()
	go func() {
		io.Copy(client, server)
		client.Close()
	}()
	w.frontend(client, server)
}

// Protocol codes of untyped startup-phase messages that the server
// answers with one byte, after which the real startup message follows.
const (
	sslRequest    = 80877103
	gssencRequest = 80877104
)

// frontend copies the client's messages to the server, counting them.
func (w *Wire) frontend(client io.Reader, server io.Writer) {
	var head [5]byte
	for { // startup phase: length, code, body
		if _, err := io.ReadFull(client, head[:4]); err != nil {
			return
		}
		n := binary.BigEndian.Uint32(head[:4])
		if n < 8 || n > 1<<20 {
			return
		}
		body := make([]byte, n-4)
		if _, err := io.ReadFull(client, body); err != nil {
			return
		}
		if _, err := server.Write(append(head[:4:4], body...)); err != nil {
			return
		}
		code := binary.BigEndian.Uint32(body[:4])
		if code != sslRequest && code != gssencRequest {
			break
		}
	}
	for { // typed messages: type, length, body
		if _, err := io.ReadFull(client, head[:]); err != nil {
			return
		}
		n := binary.BigEndian.Uint32(head[1:])
		if n < 4 {
			return
		}
		body := make([]byte, n-4)
		if _, err := io.ReadFull(client, body); err != nil {
			return
		}
		w.observe(head[0], body)
		if _, err := server.Write(append(head[:5:5], body...)); err != nil {
			return
		}
	}
}

func (w *Wire) observe(typ byte, body []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch typ {
	case 'S': // Sync
		w.roundTrips++
	case 'Q': // simple Query
		w.roundTrips++
		w.statements = append(w.statements, cstring(body))
	case 'P': // Parse: statement name, then its text
		if name, rest, ok := bytes.Cut(body, []byte{0}); ok {
			w.prepared[string(name)] = cstring(rest)
		}
	case 'B': // Bind: portal name, then statement name
		if _, rest, ok := bytes.Cut(body, []byte{0}); ok {
			w.statements = append(w.statements, w.prepared[cstring(rest)])
		}
	}
}

func cstring(b []byte) string {
	s, _, _ := bytes.Cut(b, []byte{0})
	return string(s)
}
