package synth_test

// must returns a rendering, panicking (so failing the test) on its error:
// a renderer's error is an encoding failure no test input should cause.
func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
