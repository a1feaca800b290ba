package shell

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/icesql/icesql/cmd/icesql/internal/format"
)

// include runs `\i file`: the file's statements and meta-commands, up to
// the first failure, as -f runs them.
func (s *Shell) include(ctx context.Context, path string) error {
	if path == "" {
		return fmt.Errorf("%w: \\i file", ErrUsage)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return s.RunScript(ctx, string(b), path)
}

// editor is $VISUAL, else $EDITOR, else vi, as psql picks it.
func editor() string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if e := strings.TrimSpace(os.Getenv(v)); e != "" {
			return e
		}
	}
	return "vi"
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// edit runs `\e [file]`: the editor on file, or on a temporary file
// holding the last statement; what is saved then runs.
func (s *Shell) edit(ctx context.Context, path string) error {
	if path == "" {
		f, err := os.CreateTemp("", "icesql-*.sql")
		if err != nil {
			return err
		}
		defer os.Remove(f.Name())
		if s.lastStatement != "" {
			fmt.Fprintln(f, s.lastStatement+";")
		}
		if err := f.Close(); err != nil {
			return err
		}
		path = f.Name()
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", editor()+" "+shellQuote(path))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("editor %s: %w", editor(), err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text := string(b)
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if s.Terminal {
		fmt.Fprint(s.Out, text)
		if !strings.HasSuffix(text, "\n") {
			fmt.Fprintln(s.Out)
		}
	}
	return s.RunScript(ctx, text, path)
}

// shellCommand runs `\! [command]`: the command through sh, or $SHELL.
func (s *Shell) shellCommand(ctx context.Context, command string) error {
	var cmd *exec.Cmd
	if command == "" {
		sh := os.Getenv("SHELL")
		if sh == "" {
			sh = "/bin/sh"
		}
		cmd = exec.CommandContext(ctx, sh)
	} else {
		cmd = exec.CommandContext(ctx, "sh", "-c", command)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, s.Out, s.Err
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); ok {
			return fmt.Errorf("\\!: %w", err)
		}
		return err
	}
	return nil
}

// conninfo prints what \conninfo prints: where the shell is connected.
func (s *Shell) conninfo() error {
	ns := s.namespace
	if ns == "" {
		ns = s.Info.Namespace
	}
	info := s.Info
	if info.Warehouse == "" {
		fmt.Fprintln(s.Out, "You are connected through database/sql (no DSN known).")
		return nil
	}
	fmt.Fprintf(s.Out, "You are connected to warehouse %q with catalog %s (%s), namespace %q, mode %s.\n",
		info.Warehouse, info.Catalog, info.CatalogName, ns, info.Mode)
	return nil
}

// ConnInfo describes the connection for \conninfo.
type ConnInfo struct {
	Warehouse   string
	Catalog     string // the catalog's location: a file, or a URI with its password hidden
	CatalogName string
	Namespace   string // the DSN's namespace
	Mode        string
}

// pset runs `\pset [option [value]]` for format, null and pager; a
// format name alone sets the format, as \format does.
func (s *Shell) pset(args string) error {
	name, value, _ := strings.Cut(args, " ")
	name, value = strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(value)
	switch name {
	case "":
		fmt.Fprintf(s.Out, "format is %s\nnull is %q\npager is %s\n", s.Format, s.nullShown(), s.pagerMode())
		return nil
	case "format":
		if value == "" {
			fmt.Fprintf(s.Out, "Output format is %s.\n", s.Format)
			return nil
		}
		return s.formatCommand(value)
	case "null":
		if value != "" {
			s.NullDisplay, s.nullSet = unquote(value), true
		}
		if s.Terminal || value == "" {
			fmt.Fprintf(s.Out, "Null display is %q.\n", s.nullShown())
		}
		return nil
	case "pager":
		switch strings.ToLower(value) {
		case "":
			if s.PagerMode == PagerOff {
				s.PagerMode = PagerOn
			} else {
				s.PagerMode = PagerOff
			}
		case "on":
			s.PagerMode = PagerOn
		case "off":
			s.PagerMode = PagerOff
		case "always":
			s.PagerMode = PagerAlways
		default:
			return fmt.Errorf("%w: \\pset pager on|off|always", ErrUsage)
		}
		if s.Terminal {
			fmt.Fprintf(s.Out, "Pager usage is %s.\n", s.pagerMode())
		}
		return nil
	}
	if _, err := format.Parse(name); err == nil && value == "" {
		return s.formatCommand(name)
	}
	return fmt.Errorf("%w: \\pset %s: known options are format, null and pager", ErrUsage, name)
}

// Pager modes of \pset pager.
const (
	PagerOn     = 0 // results taller than the screen are paged
	PagerOff    = 1
	PagerAlways = 2
)

func (s *Shell) pagerMode() string {
	switch s.PagerMode {
	case PagerOff:
		return "off"
	case PagerAlways:
		return "always"
	}
	return "on"
}

// nullShown is how aligned, expanded and Markdown output show NULL.
func (s *Shell) nullShown() string {
	if s.nullSet {
		return s.NullDisplay
	}
	return "NULL"
}

// showNulls puts the \pset null text in place of NULLs for the formats
// that print NULL as a word (CSV, TSV and JSON have their own NULL).
func (s *Shell) showNulls(row []any) []any {
	if !s.nullSet {
		return row
	}
	switch s.Format {
	case format.Aligned, format.Expanded, format.Markdown:
	default:
		return row
	}
	for i, v := range row {
		if v == nil {
			row[i] = s.NullDisplay
		}
	}
	return row
}
