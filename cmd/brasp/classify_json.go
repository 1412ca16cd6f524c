package main

import (
	"encoding/json"
	"io"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
)

// classifyJSON is `brasp classify --json`: each answer with its witness
// as words (lists of symbols) a program can run, and the minimal DFA.
type classifyJSON struct {
	StarFree         bool                 `json:"star_free"`
	NotStarFreeBy    *countingWitnessJSON `json:"star_free_witness,omitempty"`
	StutterInvariant bool                 `json:"stutter_invariant"`
	NotStutterBy     *stutterWitnessJSON  `json:"stutter_witness,omitempty"`
	// AC0 is "yes", "no" or "unknown" (a limit stopped the question;
	// AC0Unknown says which).
	AC0            string               `json:"ac0"`
	AC0Unknown     string               `json:"ac0_unknown,omitempty"`
	NotAC0By       *countingWitnessJSON `json:"ac0_witness,omitempty"`
	StabilityIndex int                  `json:"stability_index,omitempty"`
	DFAStates      int                  `json:"dfa_states"`
	DFA            string               `json:"dfa"`
	Variants       []variantJSON        `json:"transformers"`
}

// countingWitnessJSON: u·w^n·v is accepted periodically in n, with
// AtZero and AtOne the words for n = Period and n = Period+1.
type countingWitnessJSON struct {
	Prefix         []string `json:"u"`
	Word           []string `json:"w"`
	Suffix         []string `json:"v"`
	Period         int      `json:"period"`
	AcceptedAtZero bool     `json:"accepted_at_zero"`
	AtZero         []string `json:"at_zero"`
	AtOne          []string `json:"at_one"`
	Description    string   `json:"description"`
}

// stutterWitnessJSON: exactly one of u·a·v and u·a·a·v is accepted.
type stutterWitnessJSON struct {
	Prefix      []string `json:"u"`
	Symbol      string   `json:"a"`
	Suffix      []string `json:"v"`
	Accepted    []string `json:"accepted"`
	Rejected    []string `json:"rejected"`
	Description string   `json:"description"`
}

type variantJSON struct {
	Name string `json:"name"`
	// Recognises is "yes", "no" or "unknown" (then Unknown says why).
	Recognises string `json:"recognises"`
	Reason     string `json:"reason"`
	Unknown    string `json:"unknown,omitempty"`
}

// symbols spells a word over alpha as its list of symbols.
func symbols(alpha alphabet.Alphabet, w []int) []string {
	out := make([]string, len(w))
	for i, s := range w {
		out[i] = alpha[s]
	}
	return out
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

func countingJSON(alpha alphabet.Alphabet, w *automata.CountingWitness) *countingWitnessJSON {
	if w == nil {
		return nil
	}
	at0, at1 := w.Words()
	return &countingWitnessJSON{
		Prefix: symbols(alpha, w.Prefix), Word: symbols(alpha, w.Word), Suffix: symbols(alpha, w.Suffix),
		Period: w.Period, AcceptedAtZero: w.AcceptedAtZero,
		AtZero: symbols(alpha, at0), AtOne: symbols(alpha, at1),
		Description: w.Describe(alpha),
	}
}

// writeClassifyJSON writes c as one indented JSON object.
func writeClassifyJSON(out io.Writer, c *automata.Classification) error {
	alpha := c.Minimal.Alphabet
	r := classifyJSON{
		StarFree:         c.StarFree,
		NotStarFreeBy:    countingJSON(alpha, c.NotStarFreeBy),
		StutterInvariant: c.StutterInvariant,
		AC0:              yesNo(c.AC0),
		NotAC0By:         countingJSON(alpha, c.NotAC0By),
		StabilityIndex:   c.StabilityIndex,
		DFAStates:        c.Minimal.NumStates(),
		DFA:              automata.Format(c.Minimal),
	}
	if w := c.NotStutterBy; w != nil {
		acc, rej := w.Words()
		r.NotStutterBy = &stutterWitnessJSON{
			Prefix: symbols(alpha, w.Prefix), Symbol: alpha[w.Symbol], Suffix: symbols(alpha, w.Suffix),
			Accepted: symbols(alpha, acc), Rejected: symbols(alpha, rej), Description: w.Describe(alpha),
		}
	}
	if c.AC0Undecided != nil {
		r.AC0, r.AC0Unknown = "unknown", c.AC0Undecided.Error()
	}
	for _, v := range c.TransformerVariants() {
		j := variantJSON{Name: v.Name, Recognises: yesNo(v.Recognises), Reason: v.Reason}
		if v.Unknown != "" {
			j.Recognises, j.Unknown = "unknown", v.Unknown
		}
		r.Variants = append(r.Variants, j)
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
