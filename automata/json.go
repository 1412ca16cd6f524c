package automata

import (
	"encoding/json"
	"fmt"

	"github.com/brasp-dev/brasp/alphabet"
)

// dfaJSON is the JSON form of a DFA:
//
//	{"alphabet": ["a","b"], "states": ["q0","q1"], "start": "q0",
//	 "accept": ["q1"], "transitions": {"q0": {"a": "q1", "b": "q0"}, ...}}
//
// The states list fixes the numbering; a missing transition goes to an
// implicit rejecting sink, as in the text format.
type dfaJSON struct {
	Alphabet    []string                     `json:"alphabet"`
	States      []string                     `json:"states"`
	Start       string                       `json:"start"`
	Accept      []string                     `json:"accept"`
	Transitions map[string]map[string]string `json:"transitions"`
}

// MarshalJSON encodes d in the JSON form documented on dfaJSON.
func (d *DFA) MarshalJSON() ([]byte, error) {
	j := dfaJSON{Alphabet: d.Alphabet, States: d.States, Start: d.States[d.Start], Accept: []string{},
		Transitions: make(map[string]map[string]string, len(d.States))}
	for q, row := range d.Delta {
		if d.Accept[q] {
			j.Accept = append(j.Accept, d.States[q])
		}
		m := make(map[string]string, len(row))
		for a, r := range row {
			m[d.Alphabet[a]] = d.States[r]
		}
		j.Transitions[d.States[q]] = m
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes the JSON form documented on dfaJSON, validating every
// name.
func (d *DFA) UnmarshalJSON(data []byte) error {
	var j dfaJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	alpha, err := alphabet.New(j.Alphabet...)
	if err != nil {
		return fmt.Errorf("alphabet: %v", err)
	}
	if len(alpha) == 0 {
		return fmt.Errorf("alphabet needs at least one symbol")
	}
	index := map[string]int{}
	for q, s := range j.States {
		if s == "" {
			return fmt.Errorf("state %d has an empty name", q)
		}
		if _, dup := index[s]; dup {
			return fmt.Errorf("duplicate state %s", alphabet.Quote(s))
		}
		index[s] = q
	}
	state := func(s, role string) (int, error) {
		q, ok := index[s]
		if !ok {
			return 0, fmt.Errorf("%s names unknown state %s", role, alphabet.Quote(s))
		}
		return q, nil
	}
	n := len(j.States)
	e := &DFA{Alphabet: alpha, States: j.States, Accept: make([]bool, n), Delta: make([][]int, n)}
	if e.Start, err = state(j.Start, "start"); err != nil {
		return err
	}
	for _, s := range j.Accept {
		q, err := state(s, "accept")
		if err != nil {
			return err
		}
		e.Accept[q] = true
	}
	for q := range e.Delta {
		e.Delta[q] = make([]int, len(alpha))
		for a := range e.Delta[q] {
			e.Delta[q][a] = -1
		}
	}
	symbol := alpha.Indexer()
	for from, m := range j.Transitions {
		q, err := state(from, "transition source")
		if err != nil {
			return err
		}
		for sym, to := range m {
			a := symbol(sym)
			if a < 0 {
				return fmt.Errorf("transition from %s: symbol %s is not in the alphabet", alphabet.Quote(from), alphabet.Quote(sym))
			}
			if e.Delta[q][a], err = state(to, "transition target"); err != nil {
				return err
			}
		}
	}
	completeWithSink(e)
	*d = *e
	return nil
}
