package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// session is the shell running on a pseudo-terminal.
type session struct {
	t    *testing.T
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	mark int // expect looks at output after this offset
	done chan struct{}
}

func startPTY(t *testing.T, history string, args ...string) *session {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "ICESQL_HISTORY="+history, "PAGER=", "TERM=dumb")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, cmd: cmd, tty: tty, done: make(chan struct{})}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			s.mu.Lock()
			s.out.Write(buf[:n])
			s.mu.Unlock()
			if err != nil {
				close(s.done)
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		tty.Close()
	})
	return s
}

func (s *session) send(text string) {
	s.t.Helper()
	if _, err := s.tty.Write([]byte(text)); err != nil {
		s.t.Fatal(err)
	}
}

// hungAfter is how long expect and exit wait before calling the shell
// hung: minutes, so a loaded machine is slow, never red.
const hungAfter = 3 * time.Minute

// expect waits for want in the output since the last match.
func (s *session) expect(want string) {
	s.t.Helper()
	deadline := time.Now().Add(hungAfter)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		got := s.out.String()[s.mark:]
		if i := strings.Index(got, want); i >= 0 {
			s.mark += i + len(want)
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.t.Fatalf("no %q in output:\n%s", want, s.out.String()[s.mark:])
}

func TestInteractive(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the shell on a pseudo-terminal")
	}
	wh := filepath.Join(t.TempDir(), "wh")
	// A table whose self-join runs for seconds, to interrupt.
	var csv strings.Builder
	csv.WriteString("n\n")
	for i := range 6000 {
		csv.WriteString(strconv.Itoa(i) + "\n")
	}
	csvPath := filepath.Join(t.TempDir(), "big.csv")
	os.WriteFile(csvPath, []byte(csv.String()), 0o644)
	if out, errOut, code := runShell(t, "", "-c", "CREATE TABLE big (n BIGINT); \\copy big FROM '"+csvPath+"'", wh); code != 0 {
		t.Fatalf("setup: %s %s", out, errOut)
	}
	s := startPTY(t, filepath.Join(t.TempDir(), "hist"), wh)
	s.expect("icesql> ")
	s.send("CREATE TABLE nums (n BIGINT);\r")
	s.expect("OK")
	s.expect("icesql> ")
	s.send("INSERT INTO nums VALUES (1), (2), (3);\r")
	s.expect("OK, 3 rows affected")

	t.Run("multi-line statement", func(t *testing.T) {
		s.send("SELECT sum(n) AS total\r")
		s.expect("-> ")
		s.send("FROM nums;\r")
		s.expect("total")
		s.expect("6")
		s.expect("(1 row)")
	})
	t.Run("expanded and timing", func(t *testing.T) {
		s.send("\\x\r")
		s.expect("Output format is expanded.")
		s.send("\\timing on\r")
		s.send("SELECT n FROM nums WHERE n = 2;\r")
		s.expect("-[ RECORD 1 ]")
		s.expect("Time: ")
		s.send("\\x\r\\timing off\r")
		s.expect("Output format is aligned.")
		s.expect("Timing is off.")
	})
	t.Run("tab completion", func(t *testing.T) {
		s.send("sel\t")
		s.expect("select ")
		s.send("* FROM nu\t")
		s.expect("nums ")
		s.send(";\r")
		s.expect("(3 rows)")
		// A second Tab lists the candidates.
		s.send("\\d\t\t")
		s.expect("\\dn")
		s.expect("\\dt")
		s.send("\x03")
		s.expect("^C")
		// File names in \copy.
		s.send("\\copy nums FROM '" + filepath.Dir(csvPath) + "/bi\t")
		s.expect("big.csv' ")
		s.send("\x03")
		s.expect("^C")
	})
	t.Run("error keeps the shell", func(t *testing.T) {
		s.send("SELECT nope FROM nums;\r")
		s.expect("ERROR:")
		s.expect("icesql> ")
	})
	t.Run("Ctrl-C at the prompt drops the statement", func(t *testing.T) {
		s.send("SELECT\r")
		s.expect("-> ")
		s.send("\x03")
		s.expect("^C")
		s.send("SELECT 7 AS seven;\r")
		s.expect("seven")
	})
	t.Run("Ctrl-C cancels a long query", func(t *testing.T) {
		s.send("SELECT count(*) FROM big a, big b WHERE a.n + b.n = -1;\r")
		// The shell notes a statement still running; by then it has
		// started, so Ctrl-C cancels it rather than the input line.
		s.expect("running…")
		s.send("\x03")
		s.expect("canceled")
		s.expect("icesql> ")
		s.send("SELECT 8 AS eight;\r")
		s.expect("eight")
	})
	t.Run("Ctrl-D exits", func(t *testing.T) {
		// Only once the line editor reads again: a ^D typed while the
		// terminal is still in cooked mode (the result being printed) is
		// the line discipline's end-of-file, lost when raw mode returns.
		s.expect("icesql> ")
		s.send("\x04")
		select {
		case <-s.done:
		case <-time.After(hungAfter):
			t.Fatal("shell did not exit on Ctrl-D")
		}
		if err := s.cmd.Wait(); err != nil {
			t.Fatalf("exit: %v", err)
		}
	})
}

func TestInteractiveHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the shell on a pseudo-terminal")
	}
	wh := filepath.Join(t.TempDir(), "wh")
	hist := filepath.Join(t.TempDir(), "history")
	s := startPTY(t, hist, wh)
	s.expect("icesql> ")
	// Typed over two lines, kept as one entry.
	s.send("SELECT 41\r")
	s.expect("-> ")
	s.send("AS answer;\r")
	s.expect("answer")
	s.send("\\q\r")
	<-s.done
	b, err := os.ReadFile(hist)
	if err != nil || !strings.Contains(string(b), "SELECT 41 AS answer;") {
		t.Fatalf("history file %q, %v", b, err)
	}
	// A new session recalls the statement with the up arrow.
	s = startPTY(t, hist, wh)
	s.expect("icesql> ")
	s.send("\x1b[A\x1b[A\r")
	s.expect("answer")
	s.expect("41")
	s.expect("icesql> ")
	// Ctrl-R searches the history backwards; Enter runs the match
	// without the search prompt.
	s.send("SELECT 5 AS five;\r")
	s.expect("(1 row)")
	s.expect("icesql> ")
	s.send("\x1241 AS")
	s.expect("(reverse-i-search)`41 AS': SELECT 41 AS answer;")
	s.send("\r")
	s.expect("41")
	s.expect("(1 row)")
	s.send("\\q\r")
	<-s.done
	b, _ = os.ReadFile(hist)
	if strings.Contains(string(b), "reverse-i-search") {
		t.Fatalf("history file keeps the search prompt:\n%s", b)
	}
}
