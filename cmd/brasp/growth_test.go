package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The randomized growth search: families of inputs that grow (nested
// temporal operators, chains of conjunctions over many propositions, long
// regular expressions, deep B-RASP programs, deep and wide models, large
// automata), each run through every command in a capped child process
// (runHostile). Every run must end with an answer or a clean error (a
// named limit, a refusal): never a runtime error, a panic, an
// out-of-memory death or a run past its time.
//
// By default one round tries one small size of each family, from a fixed
// seed; BRASP_GROWTH=N tries N rounds from a random seed (logged), each
// family at a size drawn anew up to its largest, BRASP_GROWTH_SEED=S
// replays a seed, and BRASP_GROWTH_DIR=D keeps the inputs in D.

// growthFamily makes one input of a family at size n.
type growthFamily struct {
	name  string
	ext   string
	word  string // what run reads
	sizes []int  // the sizes a round draws from, smallest first
	gen   func(rng *rand.Rand, n int) string
}

// growthCommands are the commands every input goes through; F is the
// file, W the word.
var growthCommands = []string{
	"run F W",
	"convert F --to brasp",
	"convert F --to ltl",
	"convert F --to dfa",
	"convert F --to transformer -o F.out.json",
	"equiv F F",
	"classify F",
	"depth F",
	"count F --lengths 1:6",
	"sample F --lengths 1:6 --count 3",
}

// growthTimeout is what one run may take: the limits must name themselves
// well before it.
const growthTimeout = 90 * time.Second

func pick[T any](rng *rand.Rand, xs ...T) T { return xs[rng.IntN(len(xs))] }

// randomLTL is a formula over {a, b} of nesting depth n (the second
// operand of a binary operator is shallow, so the size grows with n).
func randomLTL(rng *rand.Rand, n int) string {
	if n == 0 {
		return pick(rng, "a", "b", "1")
	}
	switch rng.IntN(4) {
	case 0:
		return pick(rng, "!", "X ", "N ", "Y ", "Z ", "F ", "G ", "O ", "H ") + "(" + randomLTL(rng, n-1) + ")"
	case 1:
		return "(" + randomLTL(rng, n-1) + ") " + pick(rng, "S", "U", "since", "until") + " (" + randomLTL(rng, rng.IntN(min(n, 3))) + ")"
	default:
		return "(" + randomLTL(rng, n-1) + ") " + pick(rng, "&", "|") + " (" + randomLTL(rng, rng.IntN(min(n, 3))) + ")"
	}
}

// randomLTLf is a conjunction (or disjunction) of n temporal terms over
// n/2+1 propositions.
func randomLTLf(rng *rand.Rand, n int) string {
	props := n/2 + 1
	p := func() string { return "p" + strconv.Itoa(rng.IntN(props)) }
	terms := make([]string, n)
	for k := range terms {
		switch rng.IntN(5) {
		case 0:
			terms[k] = "F " + p()
		case 1:
			terms[k] = "G (" + p() + " -> X " + p() + ")"
		case 2:
			terms[k] = "(" + p() + " U " + p() + ")"
		case 3:
			terms[k] = "F (" + p() + " & X[!] " + p() + ")"
		default:
			terms[k] = "G F " + p()
		}
	}
	return strings.Join(terms, pick(rng, " & ", " & ", " | ")) + "\n"
}

// randomRegex is a regular expression over {a, b} of about n symbols: a
// concatenation of pieces, some starred, some alternations.
func randomRegex(rng *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString("alphabet a b\n")
	for k := 0; k < n; {
		switch rng.IntN(6) {
		case 0:
			m := 1 + rng.IntN(4)
			b.WriteString("(")
			for i := range m {
				if i > 0 {
					b.WriteString("|")
				}
				b.WriteString(pick(rng, "a", "b", "ab", "ba", "."))
			}
			b.WriteString(")")
			k += m
		case 1:
			b.WriteString(pick(rng, "a*", "b*", "(ab)*", ".*"))
			k++
		default:
			b.WriteString(pick(rng, "a", "b"))
			k++
		}
		b.WriteString(" ")
	}
	return b.String() + "\n"
}

// randomAlternation is an alternation of n random words over {a, b}.
func randomAlternation(rng *rand.Rand, n int) string {
	words := make([]string, n)
	for k := range words {
		w := make([]byte, 1+rng.IntN(8))
		for i := range w {
			w[i] = "ab"[rng.IntN(2)]
		}
		words[k] = string(w)
	}
	return "alphabet a b\n(" + strings.Join(words, "|") + ")*\n"
}

// randomProgram is a B-RASP program over {a, b} of n operations, each
// attending to earlier vectors.
func randomProgram(rng *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString("Q_a(i)\nQ_b(i)\n")
	names := []string{"Q_a", "Q_b"}
	v := func() string { return names[rng.IntN(len(names))] }
	for k := range n {
		name := "P" + strconv.Itoa(k)
		mask := pick(rng, "j<i", "j>i", "1")
		fmt.Fprintf(&b, "%s(i) := %s [%s, %s(j) %s %s(j)] %s(j) %s %s(i) : %s(i)\n",
			name, pick(rng, "leftmost", "rightmost"), mask, v(), pick(rng, "&", "|"), v(), v(), pick(rng, "&", "|"), v(), v())
		names = append(names, name)
	}
	fmt.Fprintf(&b, "Y(i) := %s(i)\n", names[len(names)-1])
	return b.String()
}

// randomModel is a JSON model over {a, b} of the given width and depth:
// each layer one head with a few random entries in {-1, 0, 1} per row
// (dense when wide), and an output weight.
func randomModel(rng *rand.Rand, width, layers int) string {
	num := func() string { return pick(rng, "0", "0", "0", "1", "-1", "0.5") }
	vec := func(d int) string {
		xs := make([]string, d)
		for i := range xs {
			xs[i] = num()
		}
		return "[" + strings.Join(xs, ",") + "]"
	}
	matrix := func(d int) string {
		rows := make([]string, d)
		for i := range rows {
			rows[i] = vec(d)
		}
		return "[" + strings.Join(rows, ",") + "]"
	}
	labels := make([]string, width)
	for i := range labels {
		labels[i] = `"c` + strconv.Itoa(i) + `"`
	}
	var b strings.Builder
	fmt.Fprintf(&b, `{"format":"brasp-transformer/1","alphabet":["a","b"],"width":%d,"labels":[%s],"embedding":{"a":%s,"b":%s},"position":null,"layers":[`,
		width, strings.Join(labels, ","), vec(width), vec(width))
	for l := range layers {
		if l > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"attention":[{"mask":"%s","tiebreak":"%s","score":%s,"value":%s}]}`,
			pick(rng, "future", "past", "none"), pick(rng, "leftmost", "rightmost"), matrix(width), matrix(width))
	}
	fmt.Fprintf(&b, `],"output":{"weight":%s,"bias":-0.5}}`, vec(width))
	return b.String()
}

// randomDFA is a DFA over {a, b} of n states with random moves.
func randomDFA(rng *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString("alphabet a b\nstart 0\naccept")
	for q := range n {
		if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, " %d", q)
		}
	}
	b.WriteString(" 0\n")
	for q := range n {
		fmt.Fprintf(&b, "%d a %d\n%d b %d\n", q, rng.IntN(n), q, rng.IntN(n))
	}
	return b.String()
}

func growthFamilies() []growthFamily {
	return []growthFamily{
		{"ltl-nested", ".ltl", "abab", []int{2, 4, 8, 12, 16, 24, 32}, func(rng *rand.Rand, n int) string {
			return "alphabet a b\n" + randomLTL(rng, n) + "\n"
		}},
		{"ltlf-chain", ".ltlf", "p0;p1,p2;", []int{2, 4, 8, 12, 16, 24, 40}, randomLTLf},
		{"re-concat", ".re", "abab", []int{4, 16, 64, 256, 1024, 4096}, randomRegex},
		{"re-alternation", ".re", "abab", []int{4, 16, 64, 256, 1024}, randomAlternation},
		{"brasp-deep", ".brasp", "abab", []int{2, 4, 8, 16, 32, 64, 128}, randomProgram},
		{"model-deep", ".json", "abab", []int{1, 2, 4, 8, 16, 32}, func(rng *rand.Rand, n int) string {
			return randomModel(rng, 4, n)
		}},
		{"model-wide", ".json", "abab", []int{4, 16, 64, 256, 1024}, func(rng *rand.Rand, n int) string {
			return randomModel(rng, n, 1)
		}},
		{"dfa-random", ".dfa", "abab", []int{4, 16, 64, 256, 1024, 4096}, randomDFA},
	}
}

// TestHostileGrowth runs the growth search (see above) and logs how many
// runs it made and the slowest and largest of them.
func TestHostileGrowth(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process per input and command")
	}
	rounds := 1
	if s := os.Getenv("BRASP_GROWTH"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("BRASP_GROWTH=%q: want a number of rounds", s)
		}
		rounds = n
	}
	seed := uint64(1) // the default round is the same on every run
	if rounds > 1 {
		seed = uint64(time.Now().UnixNano())
	}
	if s := os.Getenv("BRASP_GROWTH_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("BRASP_GROWTH_SEED=%d, %d rounds", seed, rounds)
	rng := rand.New(rand.NewPCG(seed, 24))
	dir := os.Getenv("BRASP_GROWTH_DIR") // to keep the inputs
	if dir == "" {
		dir = t.TempDir()
	}
	type job struct{ file, word, cmd string }
	var jobs []job
	for r := range rounds {
		for _, f := range growthFamilies() {
			// The default round draws from the two smallest sizes; a long
			// search, from all of them.
			sizes := f.sizes
			if rounds == 1 {
				sizes = sizes[:2]
			}
			n := sizes[rng.IntN(len(sizes))]
			name := fmt.Sprintf("%s-%d-%d%s", f.name, r, n, f.ext)
			if err := os.WriteFile(filepath.Join(dir, name), []byte(f.gen(rng, n)), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, c := range growthCommands {
				jobs = append(jobs, job{name, f.word, c})
			}
		}
	}
	var mu sync.Mutex
	var slowest, largest hostileResult
	var slowestArgs, largestArgs string
	outcomes := map[string]int{}
	work := make(chan job)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				args := strings.Fields(strings.ReplaceAll(strings.ReplaceAll(j.cmd, "F", j.file), "W", j.word))
				r := runHostile(t, dir, growthTimeout, args...)
				line := "brasp " + strings.Join(args, " ")
				mu.Lock()
				if r.elapsed > slowest.elapsed {
					slowest, slowestArgs = r, line
				}
				if r.maxRSS > largest.maxRSS {
					largest, largestArgs = r, line
				}
				outcome := "answer"
				if r.code != 0 {
					outcome = "error"
					if strings.Contains(r.stderr, "exceeds the limit") {
						outcome = "named limit"
					}
				}
				outcomes[outcome]++
				mu.Unlock()
				switch {
				case runtimeDump.MatchString(r.stderr):
					t.Errorf("%s: a runtime dump or internal error:\n%s", line, firstLines(r.stderr, 20))
				case r.code < 0 || r.code > 2:
					t.Errorf("%s: exit %d:\n%s", line, r.code, firstLines(r.stderr, 12))
				case r.code != 0 && strings.TrimSpace(r.stderr) == "":
					t.Errorf("%s: exit %d without a message", line, r.code)
				}
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
	t.Logf("%d runs of %d inputs: %v", len(jobs), len(jobs)/len(growthCommands), outcomes)
	t.Logf("slowest: %s: %v, %d MB", slowestArgs, slowest.elapsed.Round(time.Millisecond), slowest.maxRSS>>10)
	if f := strings.Fields(slowestArgs); len(f) > 2 {
		if data, err := os.ReadFile(filepath.Join(dir, f[2])); err == nil && len(data) < 2000 {
			t.Logf("%s:\n%s", f[2], data)
		}
	}
	t.Logf("largest: %s: %d MB max RSS, %v", largestArgs, largest.maxRSS>>10, largest.elapsed.Round(time.Millisecond))
}
