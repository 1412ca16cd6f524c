package transformer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/brasp-dev/brasp/budget"
)

type jsonTerm struct {
	Kind      string          `json:"kind"`
	Frequency json.RawMessage `json:"frequency,omitempty"`
	R         *int            `json:"r,omitempty"`
	M         *int            `json:"m,omitempty"`
	Negated   bool            `json:"negated,omitempty"`
	Prefix    jsonNumbers     `json:"prefix,omitempty"`
	Period    jsonNumbers     `json:"period,omitempty"`
	Coord     *int            `json:"coord"`
	Scale     json.RawMessage `json:"scale,omitempty"`
}

// jsonSinusoidal is the short form of a rational sinusoidal
// embedding: frequency k writes sin to coords[2k] and cos to coords[2k+1].
type jsonSinusoidal struct {
	Kind        string      `json:"kind"`
	Frequencies jsonNumbers `json:"frequencies"`
	Coords      []int       `json:"coords"`
}

func positionFromJSON(bud *budget.Budget, raw json.RawMessage) ([]PositionTerm, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] == '{' {
		var js jsonSinusoidal
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&js); err != nil {
			return nil, fmt.Errorf("position: %v", err)
		}
		if js.Kind != "sinusoidal" {
			return nil, fmt.Errorf("position.kind: %q, want \"sinusoidal\" (or give a list of terms)", js.Kind)
		}
		var terms []PositionTerm
		freqs, err := js.Frequencies.list(bud, "position.frequencies")
		if err != nil {
			return nil, err
		}
		if len(js.Coords) != 2*len(freqs) {
			return nil, fmt.Errorf("position.coords: %d coordinates for %d frequencies, want 2 per frequency", len(js.Coords), len(freqs))
		}
		for k, f := range freqs {
			terms = append(terms,
				PositionTerm{Kind: PosSin, Frequency: f, Coord: js.Coords[2*k], Scale: newRat(1, 1)},
				PositionTerm{Kind: PosCos, Frequency: f, Coord: js.Coords[2*k+1], Scale: newRat(1, 1)})
		}
		return terms, nil
	}
	var jts []jsonTerm
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&jts); err != nil {
		return nil, fmt.Errorf("position: %v", err)
	}
	var terms []PositionTerm
	for k, jt := range jts {
		p := fmt.Sprintf("position[%d]", k)
		kind, ok := parsePositionKind(jt.Kind)
		if !ok {
			return nil, fmt.Errorf("%s.kind: %q is not one of %s", p, jt.Kind, strings.Join(positionKindNames[:], ", "))
		}
		t := PositionTerm{Kind: kind, Negated: jt.Negated, Scale: newRat(1, 1)}
		if jt.Coord == nil {
			return nil, fmt.Errorf("%s.coord: missing", p)
		}
		t.Coord = *jt.Coord
		if len(jt.Scale) > 0 {
			s, err := ratFromJSON(jt.Scale, p+".scale")
			if err != nil {
				return nil, err
			}
			t.Scale = s
		}
		switch kind {
		case PosSin, PosCos:
			f, err := ratFromJSON(jt.Frequency, p+".frequency")
			if err != nil {
				return nil, err
			}
			t.Frequency = f
		case PosMod:
			if jt.R == nil || jt.M == nil {
				return nil, fmt.Errorf("%s: a mod term needs r and m", p)
			}
			t.R, t.M = *jt.R, *jt.M
		case PosTable:
			if !jt.Period.set {
				return nil, fmt.Errorf("%s.period: missing (a table term needs \"period\", and may have \"prefix\")", p)
			}
			if err := jt.Prefix.parse(bud); err != nil {
				return nil, err
			}
			if err := jt.Period.parse(bud); err != nil {
				return nil, err
			}
			if len(jt.Prefix.nums) > MaxPositionPeriod || len(jt.Period.nums) > MaxPositionPeriod {
				return nil, fmt.Errorf("%s: the table has a prefix of %d and a period of %d entries, above MaxPositionPeriod = %d", p, len(jt.Prefix.nums), len(jt.Period.nums), MaxPositionPeriod)
			}
			var err error
			if t.Prefix, err = jt.Prefix.list(bud, p+".prefix"); err != nil {
				return nil, err
			}
			if t.Period, err = jt.Period.list(bud, p+".period"); err != nil {
				return nil, err
			}
		}
		if kind != PosTable && (jt.Prefix.set || jt.Period.set) {
			return nil, fmt.Errorf("%s: only table terms have a prefix and a period", p)
		}
		if kind != PosSin && kind != PosCos && len(jt.Frequency) > 0 {
			return nil, fmt.Errorf("%s.frequency: only sin and cos terms have one", p)
		}
		if kind != PosMod && (jt.R != nil || jt.M != nil) {
			return nil, fmt.Errorf("%s: only mod terms have r and m", p)
		}
		if err := t.check(MaxWidth); err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		terms = append(terms, t)
	}
	return terms, nil
}

func positionJSON(terms []PositionTerm) string {
	if len(terms) == 0 {
		return "null"
	}
	parts := make([]string, len(terms))
	for k, t := range terms {
		s := fmt.Sprintf("{\"kind\": %q", t.Kind.String())
		switch t.Kind {
		case PosSin, PosCos:
			s += ", \"frequency\": " + numJSON(t.Frequency)
		case PosMod:
			s += fmt.Sprintf(", \"r\": %d, \"m\": %d", t.R, t.M)
		case PosTable:
			if len(t.Prefix) > 0 {
				s += ", \"prefix\": " + vecJSON(t.Prefix)
			}
			s += ", \"period\": " + vecJSON(t.Period)
		}
		if t.Negated {
			s += ", \"negated\": true"
		}
		s += fmt.Sprintf(", \"coord\": %d, \"scale\": %s}", t.Coord, numJSON(t.Scale))
		parts[k] = s
	}
	return "[\n    " + strings.Join(parts, ",\n    ") + "\n  ]"
}
