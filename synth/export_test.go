package synth

// IndentJSON is indentJSON, for the tests of package synth_test.
var IndentJSON = indentJSON
