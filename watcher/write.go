package watcher

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes data to path atomically (SPEC §6): into a temporary file
// in the same directory, synced, then renamed over path, so a reader sees the
// old content or the new, never a mix. When path already holds exactly data it
// is left alone (not even its modification time changes) and changed is
// false. Errors name the file.
func WriteFile(path string, data []byte, perm fs.FileMode) (changed bool, err error) {
	if same, err := holds(path, data); err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	} else if same {
		return false, nil
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	// Make the rename itself durable; a directory that cannot be synced
	// (some filesystems refuse) does not undo a completed write.
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return true, nil
}

// holds reports whether the file at path holds exactly data (false when it
// does not exist), reading it piece by piece: a large report is not held
// twice in memory to be compared.
func holds(path string, data []byte) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() || info.Size() != int64(len(data)) {
		return false, err
	}
	buf := make([]byte, min(len(data), 256<<10)+1)
	for {
		n, err := io.ReadFull(f, buf)
		if n > len(data) || !bytes.Equal(buf[:n], data[:n]) {
			return false, nil
		}
		data = data[n:]
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return len(data) == 0, nil
		case err != nil:
			return false, err
		}
	}
}
