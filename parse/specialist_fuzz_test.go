package parse

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/txtartest"
)

// addYAMLSeeds seeds f with the inputs of the golden cases named name.
func addYAMLSeeds(f *testing.F, name string) {
	for _, b := range txtartest.Files(f, "testdata/yaml/*.txtar", txtartest.Named(name)) {
		f.Add(b)
	}
	f.Add(billionLaughs(9))
	f.Add([]byte("a: &a [b, *a]\n"))
	f.Add([]byte("a: &a {<<: *a}\n"))
	f.Add([]byte{})
}

// FuzzReadSpecialist: no panic, positions inside the input, an error exactly
// when an error diagnostic is present, and read → encode → read → encode gives
// the same bytes.
func FuzzReadSpecialist(f *testing.F) {
	addYAMLSeeds(f, "specialist.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		s, diags, err := ReadSpecialist(data)
		if s == nil {
			t.Fatal("nil specialist")
		}
		checkDiagPositions(t, data, diags, err)
		if err != nil {
			return
		}
		enc, err := EncodeSpecialist(s)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		s2, _, err := ReadSpecialist(enc)
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, enc)
		}
		enc2, err := EncodeSpecialist(s2)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		if !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding not stable:\n%s\n---\n%s", enc, enc2)
		}
	})
}

// FuzzReadDesignManifest: no panic, positions inside the input.
func FuzzReadDesignManifest(f *testing.F) {
	addYAMLSeeds(f, "design.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		m, diags, err := ReadDesignManifest(data)
		if m == nil {
			t.Fatal("nil manifest")
		}
		checkDiagPositions(t, data, diags, err)
		if err != nil {
			return
		}
		enc, err := EncodeDesignManifest(m)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		m2, _, err := ReadDesignManifest(enc)
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, enc)
		}
		if len(m2.Designs) != len(m.Designs) {
			t.Fatalf("%d designs read back as %d", len(m.Designs), len(m2.Designs))
		}
	})
}

// FuzzReadFeatureManifest: no panic, positions inside the input, and a
// manifest read without error encodes and reads back to the same record.
func FuzzReadFeatureManifest(f *testing.F) {
	addYAMLSeeds(f, "feature.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		m, diags, err := ReadFeatureManifest(data)
		if m == nil {
			t.Fatal("nil manifest")
		}
		checkDiagPositions(t, data, diags, err)
		if err != nil {
			return
		}
		enc, err := EncodeFeatureManifest(m)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		m2, _, err := ReadFeatureManifest(enc)
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, enc)
		}
		b1, _ := json.Marshal(m)
		b2, _ := json.Marshal(m2)
		if !bytes.Equal(b1, b2) {
			t.Fatalf("read back differently:\n%s\n%s", b1, b2)
		}
	})
}
