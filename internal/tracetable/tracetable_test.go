package tracetable

import "testing"

func TestTable(t *testing.T) {
	tb := New([]string{"a", `"#"`, "b"})
	tb.Bits("Q_a", 3, func(i int) bool { return i != 1 })
	tb.Row("output", []string{"x", "-", "*"})
	tb.Bits("long_label_here", 3, func(i int) bool { return i == 1 })
	tb.Row("alone", nil)
	got := tb.String()
	want := "" +
		"input           a \"#\" b\n" +
		"Q_a             1   0 1\n" +
		"output          x   - *\n" +
		"long_label_here 0   1 0\n" +
		"alone\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := New(nil).String(); got != "input\n" {
		t.Errorf("empty word: %q", got)
	}
}
