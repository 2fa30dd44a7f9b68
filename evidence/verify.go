package evidence

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/sourcegraph/conc/pool"
)

// DefaultMaxFile is the default size cap of a repository file: a larger file
// is skipped, never read.
const DefaultMaxFile = 4 << 20

// binarySniff is how much of a file is searched for a NUL byte (git's rule).
const binarySniff = 8000

// Options steer a Verifier.
type Options struct {
	// MaxFile caps the size of a file read (<= 0: DefaultMaxFile).
	MaxFile int64
	// Jobs bounds the files read at once (<= 0: 8).
	Jobs int
	// Tracked reports which of names (slash-separated paths in the
	// repository) a mismatch note may quote: the files git tracks (SPEC
	// §10: secrets stay out of reports). Nil: a Verifier from Open asks git
	// (git ls-files in the repository; outside a work tree nothing is
	// tracked), one from New quotes no file.
	Tracked func(names []string) map[string]bool
}

// EveryFileTracked is an Options.Tracked that counts every file as tracked,
// so that mismatch notes quote any file: for a fixture repository that is
// not a git work tree, whose every file the caller vouches for. Never for a
// repository under review (its untracked files may hold secrets).
func EveryFileTracked(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Verifier checks claims against the files of one repository.
type Verifier struct {
	fsys fs.FS  // when set, the files; else dir is opened as an os.Root per Check
	dir  string //
	opts Options
}

// New returns a Verifier reading the repository from fsys.
func New(fsys fs.FS, opts Options) *Verifier {
	return &Verifier{fsys: fsys, opts: opts.withDefaults()}
}

// Open returns a Verifier for the repository in dir, confined to it by
// [os.Root]. The error names dir when it is not a directory that can be read
// (and says what it is instead: "not a directory (a FIFO)").
func Open(dir string, opts Options) (*Verifier, error) {
	r, err := fsio.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("repository: %w", err)
	}
	r.Close()
	return &Verifier{dir: dir, opts: opts.withDefaults()}, nil
}

func (o Options) withDefaults() Options {
	if o.MaxFile <= 0 {
		o.MaxFile = DefaultMaxFile
	}
	o.MaxFile = min(o.MaxFile, math.MaxInt32-1) // the line index holds int32 offsets
	if o.Jobs <= 0 {
		o.Jobs = 8
	}
	return o
}

// Result is the outcome of one claim: a status of SPEC §5.7 (the
// parse.Evidence constants), where a moved excerpt really is, and why a claim failed or was
// skipped.
type Result struct {
	Status string
	Found  string
	Note   string
}

// Verify checks claims (it implements synth.Verifier): one result per claim,
// in order.
func (v *Verifier) Verify(claims []parse.EvidenceClaim) []parse.ClaimResult {
	pc := make([]parse.Claim, len(claims))
	for i, c := range claims {
		pc[i] = c.Claim
	}
	out := make([]parse.ClaimResult, len(claims))
	for i, r := range v.Check(pc) {
		out[i] = parse.ClaimResult{EvidenceClaim: claims[i], Status: r.Status, Found: r.Found, Note: r.Note}
	}
	return out
}

// Check returns one result per claim, in order. Each file is read at most once.
func (v *Verifier) Check(claims []parse.Claim) []Result {
	results := make([]Result, len(claims))
	byPath := map[string][]int{}
	for i, c := range claims {
		name, note := repoPath(c.Path)
		if note != "" {
			results[i] = Result{Status: parse.EvidenceMissingFile, Note: note}
			continue
		}
		byPath[name] = append(byPath[name], i)
	}
	if len(byPath) == 0 {
		return results
	}
	quotable := v.quotable(byPath, claims)
	fsys := v.fsys
	if fsys == nil {
		root, err := fsio.OpenRoot(v.dir)
		if err != nil {
			for _, idx := range byPath {
				for _, i := range idx {
					results[i] = Result{Status: parse.EvidenceSkipped, Note: "repository unreadable: " + errText(err)}
				}
			}
			return results
		}
		defer root.Close()
		fsys = rootFS{root}
	}
	p := pool.New().WithMaxGoroutines(v.opts.Jobs)
	for _, name := range slices.Sorted(maps.Keys(byPath)) {
		p.Go(func() {
			// Each goroutine writes only the slots of its own file's claims.
			v.checkFile(fsys, name, claims, byPath[name], results, quotable[name])
		})
	}
	p.Wait()
	return results
}

// checkFile reads the file name once and checks the claims idx on it; a
// mismatch note quotes the file only when quote is set.
func (v *Verifier) checkFile(fsys fs.FS, name string, claims []parse.Claim, idx []int, results []Result, quote bool) {
	t, res := v.read(fsys, name)
	if t != nil {
		t.quote = quote
	}
	for _, i := range idx {
		if t == nil {
			results[i] = res
			continue
		}
		results[i] = t.check(name, claims[i])
	}
}

// quotable returns which of the files of byPath a mismatch note may quote
// (Options.Tracked): only those with a claim that has an excerpt can have
// a mismatch, so git is asked about those alone, and not at all when there
// are none.
func (v *Verifier) quotable(byPath map[string][]int, claims []parse.Claim) map[string]bool {
	var names []string
	for _, name := range slices.Sorted(maps.Keys(byPath)) {
		if slices.ContainsFunc(byPath[name], func(i int) bool { return claims[i].Excerpt != "" }) {
			names = append(names, name)
		}
	}
	switch {
	case len(names) == 0:
		return nil
	case v.opts.Tracked != nil:
		return v.opts.Tracked(names)
	case v.fsys != nil:
		return nil // an fs.FS has no git to ask
	}
	return gitTracked(v.dir, names)
}

// read opens and reads one file. A nil text comes with the result every claim
// on the file gets.
func (v *Verifier) read(fsys fs.FS, name string) (*text, Result) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, openFailure(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, Result{Status: parse.EvidenceSkipped, Note: "cannot stat: " + errText(err)}
	}
	switch {
	case st.IsDir():
		return nil, Result{Status: parse.EvidenceMissingFile, Note: "a directory, not a file"}
	case !st.Mode().IsRegular():
		return nil, Result{Status: parse.EvidenceSkipped, Note: "not a regular file: not read"}
	case st.Size() > v.opts.MaxFile:
		return nil, Result{Status: parse.EvidenceSkipped, Note: "larger than " + sizeText(v.opts.MaxFile) + ": not read"}
	}
	// Read what the size says, and one byte more to notice growth.
	data := make([]byte, 0, st.Size()+1)
	data, err = readAll(io.LimitReader(f, v.opts.MaxFile+1), data)
	switch {
	case err != nil:
		return nil, Result{Status: parse.EvidenceSkipped, Note: "cannot read: " + errText(err)}
	case int64(len(data)) > v.opts.MaxFile:
		return nil, Result{Status: parse.EvidenceSkipped, Note: "larger than " + sizeText(v.opts.MaxFile) + ": not read"}
	case bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0:
		return nil, Result{Status: parse.EvidenceSkipped, Note: "binary file: not read"}
	}
	return newText(data), Result{}
}

// repoPath turns a cited path into a name inside the repository, or says why
// it is none: an absolute path or one that climbs out with "..".
func repoPath(p string) (name, note string) {
	switch {
	case p == "" || strings.IndexByte(p, 0) >= 0:
		return "", "not a file path"
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || (len(p) >= 2 && p[1] == ':' && isLetter(p[0])):
		return "", "absolute path: not read"
	}
	name = path.Clean(p)
	switch {
	case name == ".." || strings.HasPrefix(name, "../"):
		return "", "path leaves the repository: not read"
	case name == "." || !fs.ValidPath(name):
		return "", "not a file path"
	}
	return name, ""
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// openFailure maps an error opening a file to its result.
func openFailure(err error) Result {
	var errno syscall.Errno
	inner := err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		inner = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return Result{Status: parse.EvidenceMissingFile, Note: "no such file"}
	case inner.Error() == "path escapes from parent":
		// os.Root's refusal of a symlink out of the directory (or an
		// absolute one); the target is never opened.
		return Result{Status: parse.EvidenceMissingFile, Note: "symlink leads out of the repository: not followed"}
	case errors.Is(err, syscall.ELOOP):
		return Result{Status: parse.EvidenceMissingFile, Note: "symlink loop"}
	case errors.Is(err, fs.ErrPermission):
		return Result{Status: parse.EvidenceSkipped, Note: "not readable: permission denied"}
	case errors.As(err, &errno):
		return Result{Status: parse.EvidenceSkipped, Note: "cannot open: " + errno.Error()}
	}
	return Result{Status: parse.EvidenceSkipped, Note: "cannot open: " + errText(err)}
}

// errText is err without the path an fs.PathError repeats.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// rootFS is an fs.FS over an os.Root that opens files non-blocking, so that
// a FIFO in the repository cannot hang the check (the mode is checked after
// opening; reading a regular file is unaffected).
type rootFS struct{ r *os.Root }

func (f rootFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	return f.r.OpenFile(name, openFlags, 0)
}

// lineRef formats "path:a" or "path:a-b".
func lineRef(p string, a, b int) string {
	if b > a {
		return p + ":" + strconv.Itoa(a) + "-" + strconv.Itoa(b)
	}
	return p + ":" + strconv.Itoa(a)
}

func linesText(a, b int) string {
	if b > a {
		return "lines " + strconv.Itoa(a) + "-" + strconv.Itoa(b)
	}
	return "line " + strconv.Itoa(a)
}

// readAll reads r to its end into buf, growing it only when needed.
func readAll(r io.Reader, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
