package compile

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
)

const modProgram = `Q_a(i)
Q_b(i)
MOD_1_3(i)
MOD_0_2(i)
first(i)
last(i)
A(i) := rightmost [j<i, MOD_1_3(j) | first(j)] Q_a(j) : MOD_0_2(i)
Y(i) := (A(i) & !MOD_1_3(i)) | (last(i) & MOD_0_2(i) & Q_b(i))
`

func mustParse(t testing.TB, src string) *brasp.Program {
	t.Helper()
	p, err := brasp.Parse("test.brasp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSinusoidalProgram checks a program with MOD, first and last compiled
// with rational sinusoidal embeddings, under all four constructions.
func TestSinusoidalProgram(t *testing.T) {
	p := mustParse(t, modProgram)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, o := range Variants {
		m, err := Compile(nil, p, o)
		if err != nil {
			t.Fatal(err)
		}
		checkAgreement(t, "mod "+o.String(), p, m, 7, 30, rng)
	}
}

// TestRandomModPrograms compiles random programs over first, last and MOD
// predicates of moduli up to 12.
func TestRandomModPrograms(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20 {
		var b strings.Builder
		b.WriteString("Q_a(i)\nQ_b(i)\nfirst(i)\nlast(i)\n")
		m := 2 + rng.IntN(11)
		r := rng.IntN(m)
		mod := "MOD_" + itoa(r) + "_" + itoa(m)
		b.WriteString(mod + "(i)\n")
		b.WriteString("A(i) := leftmost [i<=j, " + mod + "(j)] Q_b(j) : first(i)\n")
		b.WriteString("Y(i) := rightmost [j<=i, A(j) | " + mod + "(i)] Q_a(j) | last(j) : " + mod + "(i)\n")
		p := mustParse(t, b.String())
		for _, o := range Variants {
			mdl, err := Compile(nil, p, o)
			if err != nil {
				t.Fatal(err)
			}
			checkAgreement(t, mod+" "+o.String(), p, mdl, 4, 10, rng)
		}
	}
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// TestMidProgram compiles the paper's Mid example (§5.3): #a^m#b^m# with a
// position predicate that depends on the word length (x stands for #).
func TestMidProgram(t *testing.T) {
	p := mustParse(t, `Q_a(i)
Q_b(i)
Q_x(i)
Mid(i)
first(i)
B(i) := rightmost [j<i, !Q_b(j)] Q_x(j) & Mid(j) : 0
A(i) := rightmost [j<i, !Q_a(j)] Q_x(j) & first(j) : 0
MA(i) := Mid(i) & Q_x(i) & A(i)
SeenMA(i) := rightmost [j<i, MA(j)] 1 : 0
Y(i) := Q_x(i) & B(i) & SeenMA(i)
`)
	rng := rand.New(rand.NewPCG(13, 14))
	for _, o := range Variants {
		m, err := Compile(nil, p, o)
		if err != nil {
			t.Fatal(err)
		}
		checkAgreement(t, "mid "+o.String(), p, m, 5, 20, rng)
	}
}

// longPeriod is a modulus whose neighbouring residues' sinusoids 12 bits
// cannot tell apart.
const longPeriod = "Q_a(i)\nMOD_1_1048576(i)\nY(i) := MOD_1_1048576(i) & Q_a(i)\n"

// TestLongPeriodRefused: such a modulus is refused, naming the residue,
// and a period that 12 bits separate compiles (TestRandomModPrograms
// checks the models of periods up to 12 against their programs).
func TestLongPeriodRefused(t *testing.T) {
	_, err := Compile(nil, mustParse(t, longPeriod), Options{})
	if err == nil || !strings.Contains(err.Error(), "the sinusoid of period 1048576 does not separate residue 1 at 12-bit precision") {
		t.Fatalf("got %v, want the refusal", err)
	}
	if _, err := Compile(nil, mustParse(t, "Q_a(i)\nMOD_5_64(i)\nY(i) := MOD_5_64(i)\n"), Options{}); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkLongPeriodRefused times that refusal: the residues nearest r
// are tried first, so it comes at the first one rather than after all m.
func BenchmarkLongPeriodRefused(b *testing.B) {
	p, err := brasp.Parse("long.brasp", []byte(longPeriod))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Compile(nil, p, Options{}); err == nil {
			b.Fatal("compiled")
		}
	}
}
