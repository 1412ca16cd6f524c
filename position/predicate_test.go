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
