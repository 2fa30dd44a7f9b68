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

// fuzzYAMLRoundTrip fuzzes read, seeded with the golden inputs named seeds:
// no panic, a record even on error, positions inside the input, an error
// exactly when an error diagnostic is present, and a record read without
// error encodes and reads back without error; same checks what the round
// trip keeps of first (enc is its encoding).
func fuzzYAMLRoundTrip[T any](f *testing.F, seeds string, read func([]byte) (*T, []Diagnostic, error),
	encode func(*T) ([]byte, error), same func(t *testing.T, first, again *T, enc []byte)) {
	addYAMLSeeds(f, seeds)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, diags, err := read(data)
		if r == nil {
			t.Fatal("nil record")
		}
		checkDiagPositions(t, data, diags, err)
		if err != nil {
			return
		}
		enc, err := encode(r)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		r2, _, err := read(enc)
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, enc)
		}
		same(t, r, r2, enc)
	})
}

// FuzzReadSpecialist: as fuzzYAMLRoundTrip, and read → encode → read →
// encode gives the same bytes.
func FuzzReadSpecialist(f *testing.F) {
	fuzzYAMLRoundTrip(f, "specialist.yaml", ReadSpecialist, EncodeSpecialist, func(t *testing.T, _, s2 *Specialist, enc []byte) {
		enc2, err := EncodeSpecialist(s2)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		if !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding not stable:\n%s\n---\n%s", enc, enc2)
		}
	})
}

// FuzzReadDesignManifest: as fuzzYAMLRoundTrip, and the designs read back
// are as many.
func FuzzReadDesignManifest(f *testing.F) {
	fuzzYAMLRoundTrip(f, "design.yaml", ReadDesignManifest, EncodeDesignManifest, func(t *testing.T, m, m2 *DesignManifest, _ []byte) {
		if len(m2.Designs) != len(m.Designs) {
			t.Fatalf("%d designs read back as %d", len(m.Designs), len(m2.Designs))
		}
	})
}

// FuzzReadFeatureManifest: as fuzzYAMLRoundTrip, and the manifest reads back
// to the same record.
func FuzzReadFeatureManifest(f *testing.F) {
	fuzzYAMLRoundTrip(f, "feature.yaml", ReadFeatureManifest, EncodeFeatureManifest, func(t *testing.T, m, m2 *FeatureManifest, _ []byte) {
		b1, _ := json.Marshal(m)
		b2, _ := json.Marshal(m2)
		if !bytes.Equal(b1, b2) {
			t.Fatalf("read back differently:\n%s\n%s", b1, b2)
		}
	})
}
