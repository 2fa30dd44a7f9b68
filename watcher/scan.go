package watcher

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/sourcegraph/conc/pool"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/synth"
)

// DefaultMaxFile is the default largest report or YAML file read.
const DefaultMaxFile = 16 << 20

// ScanOptions steer how a directory is read.
type ScanOptions struct {
	// Run selects a run (--run, FLUX_RUN_UUID); "" selects the newest.
	Run string
	// StrictRun leaves unscoped files out of a selected run.
	StrictRun bool
	// Agents says which agent files are agents (.fluxwatch.yaml agents:
	// include and ignore, --expect); the others are listed in Run.Ignored.
	// The zero value ignores parse.DefaultIgnore.
	Agents parse.AgentFilter
	// MaxLine is the longest bus line read (<= 0: bus.DefaultMaxLine).
	MaxLine int
	// MaxFile caps report and YAML files (<= 0: DefaultMaxFile).
	MaxFile int64
	// Jobs bounds the files parsed at once (<= 0: 8).
	Jobs int
	// NoBus lists the bus files in Run.Bus without reading them, for a caller
	// that tails the bus itself (the live watcher) and fills in the entries.
	// Run.Newest then leaves the bus files out too: the caller adds their
	// modification times.
	NoBus bool
	// RequireRun makes the one-shot Synthesize refuse (ErrNoRun) a directory
	// that holds nothing of a run (see isRun): for a run directory that was
	// not named but defaulted to the current directory.
	RequireRun bool
	// KeepGood, when positive, lets a file caught mid-write keep its last good
	// parse (SPEC §8): a report or .partial that turned empty, or a YAML file
	// that stopped parsing, is read as it last parsed, with a warning, until
	// it parses again or has stayed unchanged for KeepGood. Then its failure
	// shows, as in a one-shot scan. Zero: failures show at once.
	KeepGood time.Duration
	// Unreadable makes a file that cannot be opened or read (no permission,
	// an I/O error) a failed agent with a diagnostic, read again at every
	// Scan, instead of the error of the Scan: the watcher goes on with the
	// rest of the run. One-shot commands leave it false: an input they
	// cannot read is their error (exit 2, docs/ci.md).
	Unreadable bool
	// Sized, when set, is told the total size of the files a Scan lists,
	// before it reads them: one-shot commands set their memory budget by it
	// (SPEC §9).
	Sized func(bytes int64)
	// Root, when set, is the run directory already open, by a caller that
	// confined it (mcp, under its --root): Scan and Synthesize read through
	// it and never open the directory by its path again, which a symbolic
	// link swapped in meanwhile could send elsewhere. The dir they are given
	// then only names it. The caller closes it.
	Root *os.Root
}

// Scanner reads output directories, remembering each file's parse so that a
// later Scan of the same directory re-parses only changed files. A Scanner is
// not safe for concurrent use: one goroutine owns it.
type Scanner struct {
	opts  ScanOptions
	cache map[string]*parsed
	// readReport is parse.ReadReportContext; tests replace it to count calls.
	readReport func(context.Context, string) (*parse.Report, error)
	// expiry is the earliest time a kept good parse expires (zero: none).
	expiry time.Time
	// diags are the directory diagnostics of the last Scan; changed says
	// whether it found anything new.
	diags   []parse.Diagnostic
	changed bool
}

// NewScanner returns a Scanner with opts.
func NewScanner(opts ScanOptions) *Scanner {
	if opts.MaxLine <= 0 {
		opts.MaxLine = bus.DefaultMaxLine
	}
	if opts.MaxFile <= 0 {
		opts.MaxFile = DefaultMaxFile
	}
	if opts.Jobs <= 0 {
		opts.Jobs = 8
	}
	return &Scanner{opts: opts, cache: map[string]*parsed{}, readReport: parse.ReadReportContext}
}

// Scan reads dir once with a new Scanner.
func Scan(ctx context.Context, dir string, opts ScanOptions) (*synth.Run, error) {
	return NewScanner(opts).Scan(ctx, dir)
}

// file is one candidate file of the directory.
type file struct {
	rel  string   // slash-separated, relative to the directory
	open string   // where rel's symbolic links lead, in root ("": rel itself)
	path string   // the file's path, for messages (and the bus)
	root *os.Root // the run directory, to open rel in (nil: open path)
	name parse.Name
	info fs.FileInfo // of the file itself (after following an inside symlink)
}

// parsed is the parse of one file, valid while its size, modification time
// and identity stay the same (and its modification time is not so recent
// that a change could have kept it: see racy).
type parsed struct {
	info       fs.FileInfo
	readAt     time.Time // when the file was read
	sum        [sha256.Size]byte
	failed     string    // why this content does not parse ("": it does)
	good       *parsed   // when failed, the last good parse of the file
	failedAt   time.Time // when failed, when this content was first read
	report     *parse.Report
	text       []byte
	entries    []bus.Entry
	diags      []parse.Diagnostic // about the file: positioned, Path = rel
	specialist *parse.Specialist
	design     *parse.DesignManifest
	manifest   *parse.RunManifest
	err        error // a read error or the context's: fails the scan
	gone       bool  // vanished between listing and reading, or is no longer a regular file
	why        error // when gone, why
	unreadable bool  // it could not be opened or read: read again at every Scan
}

func (p *parsed) fresh(info fs.FileInfo) bool {
	return p.unchanged(info) && !p.racy()
}

// unchanged reports whether the file p was read from still has the size,
// modification time and identity of info. Unlike fresh it trusts a recent
// modification time: p was read moments ago, within the same Scan.
func (p *parsed) unchanged(info fs.FileInfo) bool {
	return p != nil && !p.unreadable && info != nil && p.info != nil && p.info.Size() == info.Size() &&
		p.info.ModTime().Equal(info.ModTime()) && os.SameFile(p.info, info)
}

// same reports whether q is p read again with nothing changed.
func (p *parsed) same(q *parsed) bool {
	return p != nil && q != nil && !p.gone && !q.gone && p.sum == q.sum && p.failed == q.failed &&
		p.info.Size() == q.info.Size() && p.info.ModTime().Equal(q.info.ModTime()) && os.SameFile(p.info, q.info)
}

// racyWindow bounds the granularity of file modification times: a file
// modified less than this before it was read could change again without its
// modification time changing (the "racy git" problem), so its cached parse
// is not trusted by size and time alone.
const racyWindow = 2 * time.Second

// racy reports whether the file was read so soon after its last
// modification that a later change could have kept its size and time. The
// file is then read again and its content compared.
func (p *parsed) racy() bool {
	return p.readAt.IsZero() || !p.info.ModTime().Before(p.readAt.Add(-racyWindow))
}

// Expiry returns when the earliest last good parse kept by the previous Scan
// (see ScanOptions.KeepGood) expires: a Scan at or after that time shows the
// file's failure. The zero time means none is kept.
func (s *Scanner) Expiry() time.Time { return s.expiry }

// Scan reads dir (SPEC §1) into a Run. The error is non-nil when dir cannot be
// read as a directory or a file in it cannot be read (unless
// ScanOptions.Unreadable); it names the path.
func (s *Scanner) Scan(ctx context.Context, dir string) (*synth.Run, error) {
	root, done, err := openRun(dir, s.opts.Root)
	if err != nil {
		return nil, err
	}
	defer done()
	var run *synth.Run
	var files []file
	var results []*parsed
	var read map[string]*parsed // this Scan's parses, by rel, for the next listing
	for listing := 1; ; listing++ {
		run = &synth.Run{Input: dir}
		files, err = list(root, dir, run, s.opts.Agents)
		if err != nil {
			return nil, err
		}
		if s.opts.Sized != nil && listing == 1 {
			var n int64
			for _, f := range files {
				if f.info != nil {
					n += f.info.Size()
				}
			}
			s.opts.Sized(n)
		}
		if results, err = s.readAll(ctx, files, read); err != nil {
			return nil, err
		}
		if listing == maxListings || !slices.ContainsFunc(results, func(p *parsed) bool { return p.gone }) ||
			slices.ContainsFunc(results, func(p *parsed) bool { return p.err != nil }) {
			break
		}
		// A file vanished between the listing and its reading: most often a
		// .partial renamed to its .md, the completion signal. List again, so
		// that the agent is not left out of this Run; the files read stay
		// read.
		read = map[string]*parsed{}
		for i, f := range files {
			if !results[i].gone && results[i].err == nil {
				read[f.rel] = results[i]
			}
		}
	}
	seen := map[string]bool{}
	changed := false
	for i, f := range files {
		seen[f.rel] = true
		if results[i].err != nil {
			return nil, results[i].err
		}
		if c := s.cache[f.rel]; c != results[i] && !c.same(results[i]) {
			changed = true
		}
		if !results[i].gone {
			s.cache[f.rel] = results[i]
		}
	}
	for rel := range s.cache {
		if !seen[rel] {
			delete(s.cache, rel)
			changed = true
		}
	}
	expiry := s.expiry
	s.assemble(run, files, s.effective(files, results))
	if !slices.Equal(run.Diagnostics, s.diags) || !s.expiry.Equal(expiry) {
		changed = true
	}
	s.diags, s.changed = run.Diagnostics, changed
	return run, nil
}

// maxListings bounds the listings of one Scan: a file that vanished
// between the listing and its reading makes the directory listed again.
const maxListings = 3

// readAll reads and parses files, reusing a cached parse that is fresh, or
// one read earlier in this Scan (read) of a file that has not changed
// since.
func (s *Scanner) readAll(ctx context.Context, files []file, read map[string]*parsed) ([]*parsed, error) {
	results := make([]*parsed, len(files))
	p := pool.New().WithMaxGoroutines(s.opts.Jobs)
	for i, f := range files {
		if r := read[f.rel]; r != nil && r.unchanged(f.info) {
			results[i] = r
			continue
		}
		c := s.cache[f.rel]
		if c.fresh(f.info) {
			results[i] = c
			continue
		}
		p.Go(func() {
			if ctx.Err() == nil { // once cancelled, the files still queued are not read
				results[i] = s.reparse(ctx, f, c)
			}
		})
	}
	p.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return results, nil
}

// Changed reports whether the last Scan found anything different from the
// Scan before it: a file added, removed, or read again, a directory
// diagnostic, a last good parse kept or let go. After the first Scan it is
// true.
func (s *Scanner) Changed() bool { return s.changed }

// reparse reads f again. Content equal to the cached parse's keeps that
// parse (only the file information is renewed); content that does not parse
// remembers the last good parse.
func (s *Scanner) reparse(ctx context.Context, f file, old *parsed) *parsed {
	if old != nil && (old.gone || old.err != nil) {
		old = nil
	}
	p := s.parse(ctx, f, old)
	if p.gone || p.err != nil || old == nil || p.sum == old.sum {
		return p // new, unreadable, or the same content: old kept as it was
	}
	if p.failed != "" {
		p.good, p.failedAt = old, p.readAt
		if old.failed != "" {
			p.good = old.good
		}
	}
	return p
}

// effective returns, for each file, the parse to use: its own, or while the
// file is failing within ScanOptions.KeepGood, its last good parse with a
// warning. It sets s.expiry.
func (s *Scanner) effective(files []file, results []*parsed) []*parsed {
	s.expiry = time.Time{}
	if s.opts.KeepGood <= 0 {
		return results
	}
	now := time.Now()
	out, cloned := results, false
	for i, p := range results {
		if p.gone || p.failed == "" || p.good == nil {
			continue
		}
		until := p.failedAt.Add(s.opts.KeepGood)
		if !now.Before(until) {
			continue
		}
		if s.expiry.IsZero() || until.Before(s.expiry) {
			s.expiry = until
		}
		if !cloned {
			out, cloned = slices.Clone(results), true
		}
		kept := *p.good
		kept.diags = append(slices.Clip(kept.diags), diag(files[i].rel, parse.LevelWarning,
			p.failed+": showing its last good parse until it parses again"))
		out[i] = &kept
	}
	return out
}

func diag(path string, level parse.Level, msg string) parse.Diagnostic {
	return parse.Diagnostic{Path: path, Level: level, Message: msg}
}

// parse reads and parses one file. When old (the file's cached parse, or
// nil) was read from the same content, it is kept: only the file information
// is renewed.
func (s *Scanner) parse(ctx context.Context, f file, old *parsed) *parsed {
	p := &parsed{info: f.info, readAt: time.Now()}
	if f.name.Kind == parse.KindBus {
		if s.opts.NoBus {
			return p
		}
		return s.parseBus(f)
	}
	data, info, err := read(f, s.opts.MaxFile)
	if info != nil {
		p.info = info // as opened, also when it could not be read whole
	}
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fsio.ErrNotRegular):
		// The next Scan lists it again and says what it is now.
		p.gone, p.why = true, named(f.path, err)
		return p
	case errors.Is(err, fsio.ErrTooLarge):
		p.diags = append(p.diags, diag(f.rel, parse.LevelError, fmt.Sprintf("file larger than %d bytes: not read", s.opts.MaxFile)))
		return p
	case err != nil && !s.opts.Unreadable:
		p.err = fmt.Errorf("read %s: %w", f.path, fsio.Cause(err))
		return p
	case err != nil:
		// An agent that failed, as one too large is; while it stays
		// unreadable its last good parse is kept for KeepGood.
		p.unreadable, p.failed = true, "cannot be read ("+fsio.Cause(err).Error()+")"
		p.diags = append(p.diags, diag(f.rel, parse.LevelError, p.failed))
		return p
	}
	p.sum = sha256.Sum256(data)
	if old != nil && old.sum == p.sum && f.name.Kind != parse.KindAbort {
		kept := *old
		kept.info, kept.readAt = p.info, p.readAt
		return &kept
	}
	switch f.name.Kind {
	case parse.KindReport, parse.KindPartial:
		if len(data) == 0 {
			p.failed = "empty"
		}
		p.report, err = s.readReport(ctx, unsafeString(data))
		if err != nil {
			p.report, p.err = nil, err // the scan ends: nothing is kept
			return p
		}
		if p.report != nil && p.report.RunUUID == "" {
			p.report.RunUUID = runComment(data)
		}
		if f.name.Kind == parse.KindReport {
			p.text = data
		}
	case parse.KindSpecialist:
		p.specialist = readYAML(p, f.rel, data, parse.ReadSpecialist)
	case parse.KindDesign:
		p.design = readYAML(p, f.rel, data, parse.ReadDesignManifest)
	case parse.KindManifest:
		m, diags, err := parse.ReadRunManifest(data)
		p.diags = parse.WithPath(diags, f.rel)
		if err != nil {
			p.failed = "does not parse (" + err.Error() + ")"
		}
		p.manifest = m
	}
	return p
}

// readYAML reads a specialist or design YAML file with read into p: its
// diagnostics, and on an error no value and the failure.
func readYAML[T any](p *parsed, rel string, data []byte, read func([]byte) (*T, []parse.Diagnostic, error)) *T {
	v, diags, err := read(data)
	p.diags = withError(parse.WithPath(diags, rel), rel, err)
	if err != nil {
		p.failed = "does not parse (" + err.Error() + ")"
		return nil
	}
	return v
}

// withError adds err to the diagnostics of a YAML file unless they already
// hold an error (the readers report a syntax error both ways).
func withError(ds []parse.Diagnostic, rel string, err error) []parse.Diagnostic {
	if err == nil {
		return ds
	}
	for _, d := range ds {
		if d.Level == parse.LevelError {
			return ds
		}
	}
	return append(ds, diag(rel, parse.LevelError, err.Error()))
}

// runComment returns X when the first non-empty line of data is
// "<!-- run-uuid: X -->" (SPEC §1), else "".
func runComment(data []byte) string {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		rest, ok := bytes.CutPrefix(line, []byte("<!--"))
		if !ok {
			return ""
		}
		rest, ok = bytes.CutSuffix(rest, []byte("-->"))
		if !ok {
			return ""
		}
		key, val, ok := bytes.Cut(bytes.TrimSpace(rest), []byte(":"))
		if !ok || string(bytes.TrimSpace(key)) != "run-uuid" {
			return ""
		}
		return string(bytes.TrimSpace(val))
	}
	return ""
}

// parseBus reads a bus file whole (bus.ReadFile): a bus that is not a
// regular file is refused there, at once, and reported here.
func (s *Scanner) parseBus(f file) *parsed {
	p := &parsed{info: f.info}
	entries, diags, err := bus.ReadFile(f.path, s.opts.MaxLine)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.gone = true
	case err != nil:
		p.err = fmt.Errorf("read bus: %w", err)
	default:
		p.entries, p.diags = entries, parse.WithPath(diags, f.rel)
	}
	return p
}

// kindRank orders the files of one agent: the lowest rank wins.
func kindRank(k parse.Kind) int {
	switch k {
	case parse.KindReport:
		return 0
	case parse.KindAbort:
		return 1
	}
	return 2
}

// assemble turns parsed files into a Run: run selection and foreign files,
// one file per agent, the bus in reading order, specialists and design.
func (s *Scanner) assemble(run *synth.Run, files []file, results []*parsed) {
	type cand struct {
		f file
		p *parsed
	}
	var agents []cand
	newestOf := map[string]time.Time{}
	for i, f := range files {
		p := results[i]
		if p.gone {
			continue
		}
		switch f.name.Kind {
		case parse.KindReport, parse.KindPartial, parse.KindAbort:
			agents = append(agents, cand{f, p})
			if f.name.Run != "" {
				// The newest run by its reports' finish times: declared,
				// else the files' (synth.FinishTime).
				r := strings.ToLower(f.name.Run)
				if t := finishTime(f, p); t.After(newestOf[r]) {
					newestOf[r] = t
				}
			}
		}
	}

	selected := s.opts.Run
	if selected == "" && len(newestOf) > 0 {
		runs := make([]string, 0, len(newestOf))
		for r := range newestOf {
			runs = append(runs, r)
		}
		slices.SortFunc(runs, func(a, b string) int {
			return cmp.Or(newestOf[b].Compare(newestOf[a]), cmp.Compare(b, a))
		})
		selected = runs[0]
		// Keep the run as its files spell it.
		for _, c := range agents {
			if strings.EqualFold(c.f.name.Run, selected) {
				selected = c.f.name.Run
				break
			}
		}
	}
	run.ID = selected
	run.Runs = slices.Sorted(maps.Keys(newestOf))
	if s.opts.Run == "" && len(run.Runs) > 1 {
		// Picked by file times, which any writer of the directory sets:
		// said, and a gate refuses it (SPEC §10).
		run.Diagnostics = append(run.Diagnostics, diag("", parse.LevelWarning, severalRuns(run.Runs, selected)))
	}
	if s.opts.Run != "" && len(newestOf) > 0 && newestOf[strings.ToLower(selected)].IsZero() {
		// Files of other runs, none of this one: say so, or the verdict
		// silently comes from the unscoped files alone.
		run.Diagnostics = append(run.Diagnostics, diag("", parse.LevelWarning,
			fmt.Sprintf("no report names the selected run %s (the directory holds files of %s): only unscoped files are read",
				selected, synth.Plural(len(newestOf), "other run"))))
	}

	newest := time.Time{}
	touch := func(t time.Time) {
		if t.After(newest) {
			newest = t
		}
	}
	chosen := map[string]cand{}
	for _, c := range agents {
		a := synth.Agent{Name: c.f.name.Agent, File: c.f.rel, Run: c.f.name.Run, ModTime: c.p.info.ModTime(), Report: c.p.report}
		if why := foreignReason(c.f, c.p, selected, s.opts.StrictRun); why != "" {
			a.Status = parse.StatusForeign
			a.Diagnostics = []parse.Diagnostic{{Level: parse.LevelInfo, Message: why}}
			run.Agents = append(run.Agents, a)
			continue
		}
		old, ok := chosen[a.Name]
		if !ok || better(c.f, c.p, old.f, old.p) {
			if ok {
				run.Diagnostics = append(run.Diagnostics, diag(old.f.rel, parse.LevelInfo, "superseded by "+c.f.rel))
			}
			chosen[a.Name] = c
		} else {
			run.Diagnostics = append(run.Diagnostics, diag(c.f.rel, parse.LevelInfo, "superseded by "+old.f.rel))
		}
	}
	for _, c := range chosen {
		touch(c.p.info.ModTime())
		run.Agents = append(run.Agents, agentOf(c.f, c.p))
	}
	slices.SortFunc(run.Agents, func(a, b synth.Agent) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.File, b.File))
	})

	for _, name := range parse.BusNames {
		for i, f := range files {
			if f.rel != name || results[i].gone {
				continue
			}
			if !s.opts.NoBus {
				touch(results[i].info.ModTime())
			}
			run.Bus = append(run.Bus, synth.BusFile{Name: name, Entries: results[i].entries, Diagnostics: results[i].diags})
		}
	}
	for i, f := range files {
		p := results[i]
		if p.gone {
			continue
		}
		switch f.name.Kind {
		case parse.KindSpecialist:
			touch(p.info.ModTime())
			run.Specialists = append(run.Specialists, synth.SpecialistFile{Name: f.name.Agent, File: f.rel,
				Specialist: p.specialist, Diagnostics: p.diags})
		case parse.KindDesign:
			touch(p.info.ModTime())
			run.Design = &synth.DesignFile{File: f.rel, Manifest: p.design, Diagnostics: p.diags}
		case parse.KindManifest:
			touch(p.info.ModTime())
			run.Manifest = p.manifest
			run.Diagnostics = append(run.Diagnostics, p.diags...)
		}
	}
	run.Newest = newest
	slices.SortStableFunc(run.Diagnostics, func(a, b parse.Diagnostic) int { return cmp.Compare(a.Path, b.Path) })
}

// foreignReason says why an agent file is not part of the selected run, or
// returns "".
func foreignReason(f file, p *parsed, selected string, strict bool) string {
	if f.name.Run != "" && selected != "" && !strings.EqualFold(f.name.Run, selected) {
		return fmt.Sprintf("belongs to run %s, not the selected run %s", f.name.Run, selected)
	}
	if f.name.Run == "" && strict && selected != "" {
		return "unscoped file left out by --strict-run"
	}
	if p.report != nil && p.report.RunUUID != "" {
		id := p.report.RunUUID
		if f.name.Run != "" && !strings.EqualFold(id, f.name.Run) {
			return fmt.Sprintf("its run-uuid comment names run %s, its file name run %s", id, f.name.Run)
		}
		if selected != "" && !strings.EqualFold(id, selected) {
			return fmt.Sprintf("its run-uuid comment names run %s, not the selected run %s", id, selected)
		}
	}
	return ""
}

// better reports whether file a should stand for its agent rather than b.
func better(a file, pa *parsed, b file, pb *parsed) bool {
	if ra, rb := kindRank(a.name.Kind), kindRank(b.name.Kind); ra != rb {
		return ra < rb
	}
	if (a.name.Run != "") != (b.name.Run != "") {
		return a.name.Run != ""
	}
	if c := finishTime(a, pa).Compare(finishTime(b, pb)); c != 0 {
		return c > 0
	}
	return a.rel < b.rel
}

// finishTime is when the agent file f (parsed as p) finished: its
// declared finished: for a report, else its modification time (a .partial
// is still being written).
func finishTime(f file, p *parsed) time.Time {
	var mod time.Time
	if p.info != nil {
		mod = p.info.ModTime()
	}
	if f.name.Kind != parse.KindReport {
		return mod
	}
	t, _, _ := synth.FinishTime(p.report, mod)
	return t
}

// agentOf makes the Agent of a chosen file with its status (SPEC §2.5).
func agentOf(f file, p *parsed) synth.Agent {
	a := synth.Agent{Name: f.name.Agent, File: f.rel, Run: f.name.Run, Report: p.report}
	if p.info != nil { // nil for a named file that could not be opened
		a.ModTime = p.info.ModTime()
	}
	for _, d := range p.diags {
		d.Path = ""
		a.Diagnostics = append(a.Diagnostics, d)
	}
	switch f.name.Kind {
	case parse.KindPartial:
		a.Status = parse.StatusPartial
	case parse.KindAbort:
		a.Status = parse.StatusError
		a.Report = nil
		a.Diagnostics = append(a.Diagnostics, parse.Diagnostic{Level: parse.LevelError, Message: "agent aborted"})
	default:
		switch {
		case p.report == nil:
			a.Status = parse.StatusError
		case p.info != nil && p.info.Size() == 0 && p.report.Status != parse.StatusError:
			a.Status = parse.StatusError
			a.Diagnostics = append(a.Diagnostics, parse.Diagnostic{Level: parse.LevelError, Message: "empty report"})
		default:
			a.Status = p.report.Status
			a.Text = p.text // the parser reports a missing sentinel itself
		}
	}
	return a
}

// unsafeString returns data as a string without copying it. The report's
// findings are parts of the string, and the bytes stay the agent's Text:
// one copy of a report in memory instead of two (SPEC §9 bounds a 16 MiB
// report's memory). Sound because data is the scanner's own buffer, read
// for this file and never written again.
func unsafeString(data []byte) string {
	return unsafe.String(unsafe.SliceData(data), len(data))
}
