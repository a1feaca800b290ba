package shell

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// fileWord finds the file name being typed in a \copy line: the word
// after FROM or TO, or any quoted word. quote is the opening quote, or 0.
func fileWord(line string, pos int) (start int, quote byte, ok bool) {
	head := strings.TrimLeft(line[:pos], " \t")
	if len(head) < 6 || !strings.EqualFold(head[:6], `\copy `) {
		return 0, 0, false
	}
	start = pos
	for start > 0 && !strings.ContainsRune(" \t'\"", rune(line[start-1])) {
		start--
	}
	wordStart := start
	if start > 0 && (line[start-1] == '\'' || line[start-1] == '"') {
		quote = line[start-1]
		wordStart--
	}
	before := strings.Fields(line[:wordStart])
	if quote != 0 {
		return start, quote, true
	}
	if len(before) > 0 {
		switch strings.ToUpper(before[len(before)-1]) {
		case "FROM", "TO":
			return start, 0, true
		}
	}
	return 0, 0, false
}

// fileCandidates lists the files and directories (these ending in /)
// whose path starts with word, as the user would type them. Hidden
// entries show only once the name being typed starts with a dot.
func fileCandidates(word string) []string {
	dir, base := filepath.Split(word)
	list := dir
	if list == "" {
		list = "."
	} else if rest, ok := strings.CutPrefix(list, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			list = filepath.Join(home, rest)
		}
	}
	entries, err := os.ReadDir(list)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		c := dir + name
		if isDir(e, filepath.Join(list, name)) {
			c += "/"
		}
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// isDir follows a symbolic link, so a linked directory completes as one.
func isDir(e os.DirEntry, path string) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&os.ModeSymlink == 0 {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
