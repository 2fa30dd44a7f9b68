package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/synth"
)

// rootDir is the directory every output_dir must lie under, opened as an
// os.Root: the kernel resolves each path inside it, so a symbolic link (or
// "..") cannot lead out, and nothing is checked first and opened later.
type rootDir struct {
	root      *os.Root
	abs, real string // the root as given (made absolute) and with its symlinks resolved
	// escapes is os.Root's error for a path that leads out of the root (os
	// does not export it): found by asking for "..".
	escapes error
}

func openRoot(root string) (*rootDir, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("--root %s: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("--root %s: %w", root, fsio.Cause(err))
	}
	r, err := fsio.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("--root %s: %w", root, fsio.Cause(err))
	}
	_, err = r.Stat("..")
	return &rootDir{root: r, abs: abs, real: real, escapes: fsio.Cause(err)}, nil
}

// dir opens output_dir (absolute, or relative to the root) as an os.Root of
// its own, refusing it — with an error naming it — when it leads out of the
// root, is missing or is not a directory. The caller closes it.
func (m *rootDir) dir(outputDir string) (*os.Root, error) {
	if strings.TrimSpace(outputDir) == "" {
		return nil, errors.New("output_dir is required")
	}
	rel := filepath.Clean(outputDir)
	if filepath.IsAbs(rel) {
		rel = "" // outside unless under the root as given or as resolved
		for _, base := range []string{m.real, m.abs} {
			if r, err := filepath.Rel(base, filepath.Clean(outputDir)); err == nil && (r == "." || filepath.IsLocal(r)) {
				rel = r
				break
			}
		}
	}
	outside := fmt.Errorf("output_dir %s is outside the server's root %s", outputDir, m.real)
	if rel == "" || (rel != "." && !filepath.IsLocal(rel)) {
		return nil, outside
	}
	d, err := fsio.OpenRootIn(m.root, rel) // filepath.Clean(d.Name()) is filepath.Join(m.real, rel)
	switch {
	case errors.Is(err, m.escapes):
		return nil, outside
	case err != nil:
		return nil, fmt.Errorf("output_dir %s: %v", outputDir, fsio.Cause(err))
	}
	return d, nil
}

// baseline reads the baseline argument of get_synthesis: an earlier
// findings.json, or a run directory (its findings.json, else its synthesis
// by synthesize, of the newest run), which must lie under the root like
// output_dir.
func (m *rootDir) baseline(ctx context.Context, path string, cfg Config, synthesize synthesizeFunc) (*synth.Baseline, error) {
	if d, err := m.dir(path); err == nil {
		defer d.Close()
		f, _, err := fsio.OpenIn(d, "findings.json")
		if err == nil {
			defer f.Close()
			return readBaselineFile(path, f)
		}
		cfg.Run = ""
		s, err := synthesize(ctx, d, filepath.Clean(d.Name()), cfg, synth.Options{}, nil)
		if err != nil {
			return nil, fmt.Errorf("baseline %s: %v", path, err)
		}
		return synth.BaselineOf(path, s)
	}
	parent, err := m.dir(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("baseline %s: %v", path, err)
	}
	defer parent.Close()
	f, _, err := fsio.OpenIn(parent, filepath.Base(path))
	if err != nil {
		return nil, fmt.Errorf("baseline %s: %v", path, fsio.Cause(err))
	}
	defer f.Close()
	return readBaselineFile(path, f)
}

func readBaselineFile(path string, r io.Reader) (*synth.Baseline, error) {
	data, err := fsio.ReadAll(r, 0, synth.MaxBaseline)
	if errors.Is(err, fsio.ErrTooLarge) {
		return nil, fmt.Errorf("baseline %s: larger than %d bytes", path, synth.MaxBaseline)
	}
	if err != nil {
		return nil, fmt.Errorf("baseline %s: %v", path, fsio.Cause(err))
	}
	return synth.DecodeBaseline(path, data)
}
