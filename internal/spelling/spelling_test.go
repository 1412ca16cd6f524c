package spelling

import "testing"

func TestMatch(t *testing.T) {
	tab := New(map[string]int{"<": 1, "<->": 2, "<=": 3, "-": 4, "->": 5})
	for _, c := range []struct {
		src  string
		kind int
		n    int
		ok   bool
	}{
		{"<->a", 2, 3, true}, {"<-a", 1, 1, true}, {"<=", 3, 2, true}, {"<", 1, 1, true},
		{"->", 5, 2, true}, {"-", 4, 1, true}, {"a<", 0, 0, false}, {"", 0, 0, false}, {"=", 0, 0, false},
	} {
		kind, n, ok := tab.Match([]byte(c.src))
		if kind != c.kind || n != c.n || ok != c.ok {
			t.Errorf("Match(%q) = %d, %d, %v; want %d, %d, %v", c.src, kind, n, ok, c.kind, c.n, c.ok)
		}
	}
}
