// Package schematest compiles the JSON Schemas that fluxwatch's tests check
// their output against (findings.json, SARIF 2.1.0) and validates documents
// with them: one way to load a schema instead of one per test file.
//
// Only _test.go files import it. It must never be imported by production
// code, nor know which schema belongs to which output: the caller passes the
// schema document.
package schematest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Compile compiles the JSON Schema document doc under name (such as
// "findings.schema.json"), failing the test when it is not a valid schema.
func Compile(t testing.TB, name string, doc []byte) *jsonschema.Schema {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("schema %s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, v); err != nil {
		t.Fatalf("schema %s: %v", name, err)
	}
	sch, err := c.Compile(name)
	if err != nil {
		t.Fatalf("compile schema %s: %v", name, err)
	}
	return sch
}

// CompileFile reads the JSON Schema document at path (such as
// "../synth/testdata/sarif-schema-2.1.0.json") and compiles it under its
// base name, failing the test when it cannot be read or is not a valid
// schema.
func CompileFile(t testing.TB, path string) *jsonschema.Schema {
	t.Helper()
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("schema: %v", err)
	}
	return Compile(t, filepath.Base(path), doc)
}

// Validate reports whether data is JSON that sch accepts: nil, or an error
// saying that it is no JSON or where it breaks the schema.
func Validate(sch *jsonschema.Schema, data []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return sch.Validate(v)
}
