package bus

import "github.com/fluxwatch/fluxwatch/internal/inert"

// AppendLine appends the canonical line of e (SPEC §3), newline included, to
// dst and returns the extended slice. The line is byte for byte what
// encoding/json writes for a Entry without HTML escaping (the fuzz test
// FuzzAppendLine holds it to that), with nil file refs written as []; it is
// made by hand because a reader that prints many entries spends most of its
// time here otherwise.
func AppendLine(dst []byte, e Entry) []byte {
	dst = append(dst, `{"severity":`...)
	dst = inert.AppendJSONString(dst, e.Severity, false)
	dst = append(dst, `,"agent":`...)
	dst = inert.AppendJSONString(dst, e.Agent, false)
	if e.Category != "" {
		dst = append(dst, `,"category":`...)
		dst = inert.AppendJSONString(dst, e.Category, false)
	}
	dst = append(dst, `,"summary":`...)
	dst = inert.AppendJSONString(dst, e.Summary, false)
	dst = append(dst, `,"file_refs":[`...)
	for i, r := range e.FileRefs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = inert.AppendJSONString(dst, r, false)
	}
	dst = append(dst, ']')
	for _, f := range [...]struct{ key, val string }{
		{`,"timestamp":`, e.Timestamp},
		{`,"id":`, e.ID},
		{`,"priority":`, string(e.Priority)},
		{`,"kind":`, e.Kind},
		{`,"model":`, e.Model},
		{`,"run_id":`, e.RunID},
	} {
		if f.val != "" {
			dst = append(dst, f.key...)
			dst = inert.AppendJSONString(dst, f.val, false)
		}
	}
	return append(dst, '}', '\n')
}
