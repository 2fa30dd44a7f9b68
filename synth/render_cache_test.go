package synth

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestEqualFindingSeesEveryField: two findings equalFinding calls equal
// render alike, whichever field of Finding differs (a field added to
// Finding and not compared fails here), and findings equal by value but
// made apart (no pointer shared) are equal.
func TestEqualFindingSeesEveryField(t *testing.T) {
	var enc jsonEncoder
	typ := reflect.TypeFor[Finding]()
	for i := range 400 {
		var a, b Finding
		fill(rand.New(rand.NewPCG(uint64(i), 1)), reflect.ValueOf(&a).Elem(), 0)
		fill(rand.New(rand.NewPCG(uint64(i), 1)), reflect.ValueOf(&b).Elem(), 0)
		if !equalFinding(&a, &b) {
			t.Fatalf("finding %d: two findings made alike are not equal", i)
		}
		ja := appendFinding(nil, &a, 2, &enc)
		for k := range typ.NumField() {
			if !typ.Field(k).IsExported() {
				continue
			}
			c := a
			r := rand.New(rand.NewPCG(uint64(i), uint64(k)+2))
			for try := 0; try < 8 && reflect.DeepEqual(c, a); try++ {
				fill(r, reflect.ValueOf(&c).Elem().Field(k), 1)
			}
			jc := appendFinding(nil, &c, 2, &enc)
			if equalFinding(&a, &c) && !bytes.Equal(ja, jc) {
				t.Fatalf("finding %d: %s differs, renders differently, and equalFinding calls the two equal:\n%s\n%s",
					i, typ.Field(k).Name, ja, jc)
			}
		}
	}
}

// TestRenderCache: a synthesis rendered through a cache writes what it
// writes without one, when its findings change, go or come back.
func TestRenderCache(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 2))
	c := &renderCache{}
	var fs []Finding
	for step := range 60 {
		switch {
		case len(fs) == 0 || r.IntN(3) == 0:
			var f Finding
			fill(r, reflect.ValueOf(&f).Elem(), 0)
			fs = append(fs, f)
		case r.IntN(2) == 0:
			fs = append(fs[:0:0], fs[1:]...) // one goes
		default:
			fs = append([]Finding(nil), fs...)
			k := r.IntN(len(fs))
			key := fs[k].Key
			fill(r, reflect.ValueOf(&fs[k]).Elem().FieldByName("Title"), 1)
			fs[k].Key = key // a finding changed under its key
		}
		s := Synthesis{Findings: fs}
		want := must(RenderJSON(&s))
		s.cache = c
		for range 2 {
			if got := must(RenderJSON(&s)); !bytes.Equal(got, want) {
				t.Fatalf("step %d: rendered through the cache:\n%s\nwant\n%s", step, got, want)
			}
		}
	}
}
