package position

import "testing"

func TestPeriodic(t *testing.T) {
	cases := []struct {
		name string
		want string // positions 1..10
	}{
		{"PERIODIC_01", "0101010101"},
		{"PERIODIC_1_0", "1000000000"},
		{"PERIODIC_0110_1", "0110111111"},
		{"PERIODIC_11_001", "1100100100"},
		{"PERIODIC_1", "1111111111"},
	}
	for _, c := range cases {
		p, ok, msg := ParsePeriodic(c.name)
		if !ok || msg != "" {
			t.Fatalf("%s: %v %s", c.name, ok, msg)
		}
		if p.Name() != c.name {
			t.Errorf("%s prints as %s", c.name, p.Name())
		}
		for i := 1; i <= 10; i++ {
			if got := p.Holds(i); got != (c.want[i-1] == '1') {
				t.Errorf("%s at %d: %v", c.name, i, got)
			}
		}
	}
	for _, bad := range []string{"PERIODIC_", "PERIODIC_1_", "PERIODIC_012", "PERIODIC_1_2", "PERIODIC_1_0_1"} {
		if _, ok, msg := ParsePeriodic(bad); !ok || msg == "" {
			t.Errorf("%s: accepted", bad)
		}
	}
	if _, ok, _ := ParsePeriodic("MOD_0_2"); ok {
		t.Error("MOD_0_2 taken for a table")
	}
}

// TestPeriodicNormal: the normal form defines the same predicate, is its
// own normal form, and is the shortest table that does: no table with a
// shorter prefix or period (all of them enumerated, up to the lengths
// tried) agrees with it on positions 1..40.
func TestPeriodicNormal(t *testing.T) {
	const positions = 40
	holdsAll := func(p Periodic) string {
		b := make([]byte, positions)
		for i := range b {
			b[i] = '0'
			if p.Holds(i + 1) {
				b[i] = '1'
			}
		}
		return string(b)
	}
	var tables []Periodic
	for pre := 0; pre <= 3; pre++ {
		for per := 1; per <= 4; per++ {
			for bits := 0; bits < 1<<(pre+per); bits++ {
				s := make([]byte, pre+per)
				for k := range s {
					s[k] = byte('0' + bits>>k&1)
				}
				tables = append(tables, Periodic{Prefix: string(s[:pre]), Period: string(s[pre:])})
			}
		}
	}
	for _, p := range tables {
		n := p.Normal()
		if holdsAll(n) != holdsAll(p) {
			t.Fatalf("%s: normal form %s differs", p.Name(), n.Name())
		}
		if n.Normal() != n {
			t.Fatalf("%s: normal form %s is not its own", p.Name(), n.Name())
		}
		for _, q := range tables {
			if holdsAll(q) == holdsAll(p) && (len(q.Prefix) < len(n.Prefix) || len(q.Period) < len(n.Period)) {
				t.Fatalf("%s: %s is shorter than the normal form %s", p.Name(), q.Name(), n.Name())
			}
		}
	}
	if got := (Periodic{Prefix: "0101", Period: "0101"}).Normal(); got != (Periodic{Period: "01"}) {
		t.Errorf("0101_0101 normalises to %s", got.Name())
	}
}
