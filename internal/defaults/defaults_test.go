package defaults

import (
	"testing"
	"time"
)

func TestPositive(t *testing.T) {
	for _, c := range []struct{ v, want int }{{0, 7}, {-3, 7}, {1, 1}, {9, 9}} {
		v := c.v
		Positive(&v, 7)
		if v != c.want {
			t.Errorf("Positive(%d, 7) = %d, want %d", c.v, v, c.want)
		}
	}
	d := time.Duration(0)
	Positive(&d, time.Second)
	if d != time.Second {
		t.Errorf("Positive(0s, 1s) = %v", d)
	}
}
