package plan

import "fmt"

// Error types: the "type" of the command line's error envelope.
const (
	ErrInvalidSpecialist = "invalid_specialist" // a specialist name that is empty or could escape a directory
	ErrInvalidNumber     = "invalid_number"     // an approach number that is not a positive integer
	ErrInvalidVariant    = "invalid_variant"    // a variant that is not one letter A-Z, or no letter left
	ErrInvalidJSON       = "invalid_json"       // --approaches that is not a valid JSON array of approaches
	ErrStandaloneExists  = "standalone_exists"  // a variant added where a standalone approach exists
	ErrVariantsExist     = "variants_exist"     // a standalone approach added where variants exist
	ErrNotFound          = "not_found"          // no such specialist file, approach or feature directory
	ErrMalformedYAML     = "malformed_yaml"     // a file that does not read as SPEC §4.1 says; never overwritten
	ErrNoPlanRoot        = "no_plan_root"       // no --plan-dir, no $FLUXWATCH_PLAN_DIR and no git branch
	ErrInvalidArguments  = "invalid_arguments"  // a usage error of the command line
	ErrUnsafePath        = "unsafe_path"        // a symbolic link that leads outside the plan root
	ErrAmbiguous         = "ambiguous"          // several feature directories match a task about equally
	ErrIO                = "io_error"           // the file system failed
)

// Error is an error of the plan store or of discovery.
type Error struct {
	Type       string // one of the Err* constants
	Message    string
	Suggestion string // what to do about it; may be empty
	Err        error  // the underlying error, if any
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// Input reports whether the error is the caller's (bad arguments or bad
// files) rather than the system's.
func (e *Error) Input() bool { return e.Type != ErrIO }

func newError(typ, suggestion, format string, a ...any) *Error {
	return &Error{Type: typ, Message: fmt.Sprintf(format, a...), Suggestion: suggestion}
}

func ioError(err error, format string, a ...any) *Error {
	return &Error{Type: ErrIO, Message: fmt.Sprintf(format, a...) + ": " + err.Error(), Err: err}
}
