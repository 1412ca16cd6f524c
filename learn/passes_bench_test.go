package learn

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// ratioLanguage is a language over a and b that is not regular, of the
// kind a softmax transformer without positions learns when trained on
// (ab)+ (averages over the prefix): the words ending in b whose a's and
// b's differ by at most n/balance and that hold at least n·num/den
// factors ab. Its states are pairs of counts, so a learner keeps finding
// new ones until a limit stops it.
func ratioLanguage(balance, num, den int) func(w []int) bool {
	return func(w []int) bool {
		na, nb, ab := 0, 0, 0
		for i, a := range w {
			if a == 0 {
				na++
				continue
			}
			nb++
			if i > 0 && w[i-1] == 0 {
				ab++
			}
		}
		n := len(w)
		return n > 0 && w[n-1] == 1 && balance*max(na-nb, nb-na) <= n && den*ab >= num*n
	}
}

// BenchmarkLearnPasses learns languages that are not regular from a
// teacher answering per prefix (brasp learn --command --prefixes against
// a causal model), tested by the default conformance suite with 2,000
// random words a round, until the run stops at 15,000 words
// (learn-queries): what brasp learn does to a trained model that is not
// regular. It reports the words per batch (a batch is one forward pass
// of the model) and the words per state found.
func BenchmarkLearnPasses(b *testing.B) {
	for i, lang := range []func([]int) bool{
		ratioLanguage(10, 2, 5), ratioLanguage(8, 1, 3), ratioLanguage(6, 1, 4), ratioLanguage(12, 3, 7),
	} {
		b.Run(fmt.Sprintf("ratio%d", i+1), func(b *testing.B) {
			var st Stats
			for b.Loop() {
				teacher := &funcTeacher{accept: lang, prefix: true}
				bud := budget.New(b.Context(), budget.Settings{maxQueries.Name: 15000})
				cache := NewCache(bud, teacher, alphabet.Alphabet{"a", "b"}, &Stats{})
				res, err := LearnWith(bud, cache, NewConformance(cache, 4, 0, 2000, 50, 0), nil)
				if !errors.Is(err, budget.ErrLimit) {
					b.Fatalf("want the learn-queries limit, got %v", err)
				}
				st = res.Stats
			}
			b.ReportMetric(float64(st.MembershipQueries)/float64(st.Batches), "words/pass")
			b.ReportMetric(float64(st.MembershipQueries)/float64(st.StatesFound), "words/state")
			b.ReportMetric(float64(st.StatesFound), "states")
			b.ReportMetric(float64(st.EquivalenceRounds), "rounds")
		})
	}
}

// TestBatchesShared: learning a language that is not regular from prefix
// answers (what brasp learn asks of a trained model) sends its words in
// batches shared by the searches, splits and sifts of many
// counterexamples and of successive rounds: at least 7 words a batch at
// no more than 11.5 words per state found (one phase at a time asked 4.2
// words a batch, 10.6 a state).
func TestBatchesShared(t *testing.T) {
	teacher := &funcTeacher{accept: ratioLanguage(8, 1, 3), prefix: true}
	bud := budget.New(t.Context(), budget.Settings{maxQueries.Name: 8000})
	cache := NewCache(bud, teacher, alphabet.Alphabet{"a", "b"}, &Stats{})
	res, err := LearnWith(bud, cache, NewConformance(cache, 4, 0, 2000, 50, 0), nil)
	if !errors.Is(err, budget.ErrLimit) {
		t.Fatalf("want the learn-queries limit, got %v", err)
	}
	st := res.Stats
	perBatch, perState := float64(st.MembershipQueries)/float64(st.Batches), float64(st.MembershipQueries)/float64(st.StatesFound)
	t.Logf("%d words in %d batches (%.1f a batch), %d states found (%.2f words a state), %d rounds",
		st.MembershipQueries, st.Batches, perBatch, st.StatesFound, perState, st.EquivalenceRounds)
	if perBatch < 7 || perState > 11.5 {
		t.Errorf("%.1f words a batch, %.2f a state: want at least 7 and at most 11.5", perBatch, perState)
	}
}

// BenchmarkLearnBlackBoxLarge: random minimal DFAs of 300 to 1,200 states
// over 4 letters learned by black box (the default conformance suite) from
// prefix answers, as brasp learn --prefixes learns a teacher of that size:
// the words asked, words per pass and whether the result is exact (the
// pipeline's look-ups among the words answered start at PullFrom states,
// so these are the regular targets whose words they change).
func BenchmarkLearnBlackBoxLarge(b *testing.B) {
	for _, n := range []int{300, 600, 1200} {
		for seed := range uint64(3) {
			b.Run(fmt.Sprintf("states=%d/seed=%d", n, seed), func(b *testing.B) {
				d := randomMinimal(rand.New(rand.NewPCG(seed, uint64(n))), n, 4)
				var st Stats
				exact := 0.0
				for b.Loop() {
					res, _ := learnBlackBox(b, d, true)
					st = res.Stats
					if automata.Equivalent(res.DFA, d, automata.SigmaPlus) {
						exact = 1
					}
				}
				b.ReportMetric(float64(st.MembershipQueries), "words")
				b.ReportMetric(float64(st.MembershipQueries)/float64(st.Batches), "words/pass")
				b.ReportMetric(exact, "exact")
			})
		}
	}
}
