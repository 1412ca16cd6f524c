package exact

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
)

// ErrNotRegular is wrapped by the error returned for a program or formula
// that uses the position predicate Mid, whose languages need not be regular.
var ErrNotRegular = errors.New("not regular")

// errMid is the reason given for refusing Mid.
//
//lint:ignore ST1005 the message starts with the predicate's name, Mid
var errMid = fmt.Errorf("Mid is %w: {#a^m#b^m#} is definable with it", ErrNotRegular)

// ErrTransducer is returned for a B-RASP transducer: it maps words to words
// and has no language to turn into an automaton.
var ErrTransducer = errors.New("a transducer has no language (exact semantics needs an acceptor)")

// The limits of the construction, raisable with --limit NAME=N.
var (
	maxStates = budget.Define("exact-states", 100000, "states",
		"states of the left or right machine of the exact semantics (brasp/ltl/transformer → dfa), before minimisation")
	maxTableBytes = budget.Define("exact-bytes", 1<<26, "bytes",
		"bytes of the exact semantics' truth tables and attention summaries (left states × symbols × right states per table)")
	maxAtoms = budget.Define("exact-atoms", 8, "vectors",
		"vectors one attention operation's score and value read at i in the exact semantics (2^atoms summaries per state)")
	maxModulus = budget.Define("exact-modulus", 1<<12, "positions",
		"least common multiple of the MOD moduli, the exact semantics' position counter")
)

// Summary codes, one byte per (right or left state, i-atom assignment).
const (
	none     byte = 0 // no position selected (yet)
	valFalse byte = 1 // the selected position's value is 0
	valTrue  byte = 2 // ... is 1
)

func code(v bool) byte {
	if v {
		return valTrue
	}
	return valFalse
}

// bimachine holds the truth tables of the vectors computed so far. A vector's
// value at position i of w = w_1…w_n is table[cell(ℓ_i, w_i, r_i)], where ℓ_i
// is the state of the left machine after reading w_1…w_{i-1} from the left
// and r_i the state of the right machine after reading w_n…w_{i+1} from the
// right. Both machines are complete DFAs with start state 0.
type bimachine struct {
	sigma  int
	nL, nR int
	dL, dR [][]int
	tab    [][]bool // per table index; nil when not computed or dead
	bud    *budget.Budget
}

func (b *bimachine) cell(l, a, r int) int { return (l*b.sigma+a)*b.nR + r }

// evalFn evaluates an expression at a cell of the tables, with the (i)-atoms
// of a score or value given by the bits of alpha.
type evalFn func(t [][]bool, c int, alpha uint32) bool

// compileExpr turns e into a closure over table indices (vector indices are
// table indices). References at i inside a score or value (idx non-nil) read
// the bits of alpha; every other reference reads its table.
func compileExpr(e brasp.Expr, idx map[int]int) evalFn {
	switch e := e.(type) {
	case *brasp.Literal:
		v := e.Value
		return func([][]bool, int, uint32) bool { return v }
	case *brasp.Ref:
		k := e.Vec
		if e.Var == brasp.VarI && idx != nil {
			bit := uint32(1) << idx[k]
			return func(_ [][]bool, _ int, a uint32) bool { return a&bit != 0 }
		}
		return func(t [][]bool, c int, _ uint32) bool { return t[k][c] }
	case *brasp.UnaryExpr:
		f := compileExpr(e.X, idx)
		return func(t [][]bool, c int, a uint32) bool { return !f(t, c, a) }
	case *brasp.BinaryExpr:
		f, g := compileExpr(e.X, idx), compileExpr(e.Y, idx)
		if e.Op == brasp.AND {
			return func(t [][]bool, c int, a uint32) bool { return f(t, c, a) && g(t, c, a) }
		}
		return func(t [][]bool, c int, a uint32) bool { return f(t, c, a) || g(t, c, a) }
	}
	panic("exact: unknown expression type")
}

// attn is one directed attention operation: forward ones (masks j<i, j<=i)
// refine the left machine, backward ones (j>i, j>=i) the right machine.
type attn struct {
	out       int // table written
	forward   bool
	strict    bool
	rightmost bool
	s, v, d   evalFn
	atoms     []int
}

func (op *attn) alphaAt(t [][]bool, c int) uint32 {
	var a uint32
	for k, x := range op.atoms {
		if t[x][c] {
			a |= 1 << k
		}
	}
	return a
}

// step is one operation of the compiled program: an attention operation or a
// position-wise computation of table out.
type step struct {
	att *attn
	out int
	pw  evalFn
	// uses lists the tables the step reads.
	uses []int
}

// ProgramDFA returns the minimal DFA of the language of the B-RASP acceptor
// p (a language of non-empty words: the DFA rejects ε), within the budget
// (the limits exact-states, exact-bytes, exact-atoms, exact-modulus and the
// budget's work and context).
func ProgramDFA(bud *budget.Budget, p *brasp.Program) (*automata.DFA, error) {
	if p.IsTransducer() {
		return nil, ErrTransducer
	}
	// Constants folded, dead operations and predicates dropped: Mid is
	// refused only when the output depends on it.
	p = brasp.Simplify(p)
	// Eventually periodic table predicates are definable with MOD and
	// attention (brasp.LowerPeriodic).
	p, err := brasp.LowerPeriodic(p)
	if err != nil {
		return nil, err
	}
	for _, v := range p.Vectors {
		if v.Kind == brasp.PredicateVector && v.Pred.Kind == brasp.Mid {
			return nil, fmt.Errorf("vector %s: %w", v.Name, errMid)
		}
	}
	b, steps, err := newBimachine(bud, p)
	if err != nil {
		return nil, err
	}
	// Liveness: the last step reading each table; the output lives to the end.
	lastUse := make([]int, len(b.tab))
	for k := range lastUse {
		lastUse[k] = -1
	}
	for t, st := range steps {
		for _, k := range st.uses {
			lastUse[k] = t
		}
	}
	out := p.Output.Accept
	lastUse[out] = len(steps)
	live := func(after int) []int {
		var ks []int
		for k, t := range lastUse {
			if t > after && b.tab[k] != nil {
				ks = append(ks, k)
			}
		}
		return ks
	}
	for k := range b.tab {
		if lastUse[k] < 0 {
			b.tab[k] = nil
		}
	}
	if err := b.minimize(live(-1)); err != nil {
		return nil, err
	}
	dropped := false // tables freed since the last minimisation
	for t, st := range steps {
		if st.att != nil && dropped {
			// Attention multiplies the machine it starts from: start it
			// from the smallest one the live tables allow.
			if err := b.minimize(live(t - 1)); err != nil {
				return nil, err
			}
		}
		switch {
		case st.att == nil:
			tab := make([]bool, b.nL*b.sigma*b.nR)
			if err := bud.Step(int64(len(tab))); err != nil {
				return nil, err
			}
			for c := range tab {
				tab[c] = st.pw(b.tab, c, 0)
			}
			b.tab[st.out] = tab
		case st.att.forward:
			if err := b.forward(st.att); err != nil {
				return nil, err
			}
		default:
			if err := b.backward(st.att); err != nil {
				return nil, err
			}
		}
		for k, u := range lastUse {
			if u == t && b.tab[k] != nil {
				b.tab[k] = nil
				dropped = true
			}
		}
		// Only attention grows the machines; a position-wise step adds a
		// table of the same size, so minimising after it rarely pays for
		// the partition refinement over every live table (a Krohn–Rhodes
		// program of 1,561 vectors went from 17.5 s to under 1 s).
		if st.att == nil {
			continue
		}
		if err := b.minimize(live(t)); err != nil {
			return nil, err
		}
		dropped = false
	}
	return b.dfa(p, out), nil
}

// newBimachine sets up the initial machines (the left one counts positions
// modulo the MOD moduli and knows the first position, the right one knows
// the last) and the tables of the symbols and predicates, and compiles the
// operations into steps. An unmasked operation becomes three directed ones
// and a position-wise choice: rightmost over all j is the rightmost j >= i
// if there is one, else the rightmost j < i; leftmost symmetrically.
func newBimachine(bud *budget.Budget, p *brasp.Program) (*bimachine, []step, error) {
	sigma := len(p.Alphabet)
	modL := 1
	for _, v := range p.Vectors {
		if v.Kind == brasp.PredicateVector && v.Pred.Kind == brasp.Mod {
			l := lcm(modL, v.Pred.M)
			if err := bud.Check(maxModulus, int64(l), "the least common multiple of the MOD moduli"); err != nil {
				return nil, nil, err
			}
			modL = l
		}
	}
	b := &bimachine{sigma: sigma, nL: modL + 1, nR: 2, bud: bud}
	// Left state 0: nothing read; state t ≥ 1: t ≡ positions read (mod modL).
	for l := 0; l <= modL; l++ {
		row := make([]int, sigma)
		for a := range row {
			row[a] = l%modL + 1
		}
		b.dL = append(b.dL, row)
	}
	// Right state 0: nothing read (the last position); 1: otherwise.
	for range 2 {
		row := make([]int, sigma)
		for a := range row {
			row[a] = 1
		}
		b.dR = append(b.dR, row)
	}
	ntab := len(p.Vectors)
	var steps []step
	hidden := func() int { ntab++; return ntab - 1 }
	refs := func(es ...brasp.Expr) []int {
		var ks []int
		for _, e := range es {
			for _, r := range brasp.Refs(e) {
				ks = append(ks, r.Vec)
			}
		}
		return ks
	}
	for k, v := range p.Vectors {
		switch v.Kind {
		case brasp.PositionwiseVector:
			steps = append(steps, step{out: k, pw: compileExpr(v.Expr, nil), uses: refs(v.Expr)})
		case brasp.AttentionVector:
			a := v.Att
			var atoms []int
			idx := map[int]int{}
			for _, r := range brasp.Refs(a.Score) {
				if _, ok := idx[r.Vec]; r.Var == brasp.VarI && !ok {
					idx[r.Vec] = len(atoms)
					atoms = append(atoms, r.Vec)
				}
			}
			for _, r := range brasp.Refs(a.Value) {
				if _, ok := idx[r.Vec]; r.Var == brasp.VarI && !ok {
					idx[r.Vec] = len(atoms)
					atoms = append(atoms, r.Vec)
				}
			}
			if err := bud.Check(maxAtoms, int64(len(atoms)), fmt.Sprintf("attention operation %s, whose score and value read %d vectors at i,", v.Name, len(atoms))); err != nil {
				return nil, nil, err
			}
			s, val, d := compileExpr(a.Score, idx), compileExpr(a.Value, idx), compileExpr(a.Default, nil)
			uses := refs(a.Score, a.Value, a.Default)
			rm := a.Tiebreak == position.Rightmost
			mk := func(out int, forward, strict bool, value, def evalFn) step {
				return step{out: out, uses: uses, att: &attn{out: out, forward: forward, strict: strict, rightmost: rm, s: s, v: value, d: def, atoms: atoms}}
			}
			switch a.Mask {
			case position.MaskFuture, position.MaskFutureOrSelf:
				steps = append(steps, mk(k, true, a.Mask == position.MaskFuture, val, d))
			case position.MaskPast, position.MaskPastOrSelf:
				steps = append(steps, mk(k, false, a.Mask == position.MaskPast, val, d))
			default:
				// near: the side the tie-break prefers, including i itself.
				one := func([][]bool, int, uint32) bool { return true }
				zero := func([][]bool, int, uint32) bool { return false }
				found, near, far := hidden(), hidden(), hidden()
				// rightmost: near = j >= i (backward, non-strict), far = j < i;
				// leftmost: near = j <= i (forward, non-strict), far = j > i.
				steps = append(steps, mk(found, !rm, false, one, zero), mk(near, !rm, false, val, zero), mk(far, rm, true, val, d))
				steps = append(steps, step{out: k, uses: []int{found, near, far}, pw: func(t [][]bool, c int, _ uint32) bool {
					if t[found][c] {
						return t[near][c]
					}
					return t[far][c]
				}})
			}
		}
	}
	b.tab = make([][]bool, ntab)
	for k, v := range p.Vectors {
		if !v.IsInitial() {
			continue
		}
		tab := make([]bool, b.nL*sigma*b.nR)
		for l := 0; l < b.nL; l++ {
			for a := 0; a < sigma; a++ {
				for r := 0; r < b.nR; r++ {
					var x bool
					switch {
					case v.Kind == brasp.SymbolVector:
						x = a == v.Symbol
					case v.Pred.Kind == brasp.First:
						x = l == 0
					case v.Pred.Kind == brasp.Last:
						x = r == 0
					default: // Mod: position l+1 (l ≡ positions read)
						x = (l+1)%v.Pred.M == v.Pred.R
					}
					tab[b.cell(l, a, r)] = x
				}
			}
		}
		b.tab[k] = tab
	}
	return b, steps, nil
}

func lcm(a, b int) int {
	g, h := a, b
	for h != 0 {
		g, h = h, g%h
	}
	return a / g * b
}

// forward adds a forward attention operation. The new left machine's state
// before position i is (ℓ_i, φ) where φ[ρ][α] summarises the positions
// j < i (the value at the selected one, or none) assuming the right
// machine's state at position i-1 is ρ; reading w_i = a, the summary for
// right state r at position i is φ[δR(r, a)] updated with position i.
func (b *bimachine) forward(op *attn) error {
	na := 1 << len(op.atoms)
	w := b.nR * na
	index := map[string]int{}
	var phis [][]byte
	var proj []int
	var delta [][]int
	var val [][]bool // per new state: sigma*nR values
	intern := func(l int, phi []byte) (int, error) {
		key := string(phi) + strconv.Itoa(l)
		if id, ok := index[key]; ok {
			return id, nil
		}
		if err := b.bud.Check(maxStates, int64(len(phis)+1), "the left machine"); err != nil {
			return 0, err
		}
		// The summary is held twice (the list and the index's key), and
		// the new machine's table needs σ×b.nR cells per state.
		if err := b.bud.Check(maxTableBytes, int64(len(phis)+1)*int64(max(2*w, b.sigma*b.nR)), "the left machine (its summaries and tables)"); err != nil {
			return 0, err
		}
		if err := b.bud.Step(int64(w)); err != nil {
			return 0, err
		}
		index[key] = len(phis)
		phis = append(phis, phi)
		proj = append(proj, l)
		return len(phis) - 1, nil
	}
	if _, err := intern(0, make([]byte, w)); err != nil {
		return err
	}
	for i := 0; i < len(phis); i++ {
		l, phi := proj[i], phis[i]
		row := make([]int, b.sigma)
		vals := make([]bool, b.sigma*b.nR)
		for a := 0; a < b.sigma; a++ {
			next := make([]byte, w)
			for r := 0; r < b.nR; r++ {
				c := b.cell(l, a, r)
				rho := b.dR[r][a]
				for al := 0; al < na; al++ {
					old := phi[rho*na+al]
					nv := old
					if (op.rightmost || old == none) && op.s(b.tab, c, uint32(al)) {
						nv = code(op.v(b.tab, c, uint32(al)))
					}
					next[r*na+al] = nv
				}
				al := int(op.alphaAt(b.tab, c))
				sel := next[r*na+al]
				if op.strict {
					sel = phi[rho*na+al]
				}
				if sel == none {
					vals[a*b.nR+r] = op.d(b.tab, c, 0)
				} else {
					vals[a*b.nR+r] = sel == valTrue
				}
			}
			j, err := intern(b.dL[l][a], next)
			if err != nil {
				return err
			}
			row[a] = j
		}
		delta = append(delta, row)
		val = append(val, vals)
	}
	n := len(phis)
	if err := b.checkTables(n, b.nR); err != nil {
		return err
	}
	for k, t := range b.tab {
		if t == nil {
			continue
		}
		nt := make([]bool, n*b.sigma*b.nR)
		for i := range n {
			copy(nt[i*b.sigma*b.nR:(i+1)*b.sigma*b.nR], t[proj[i]*b.sigma*b.nR:(proj[i]+1)*b.sigma*b.nR])
		}
		b.tab[k] = nt
	}
	nt := make([]bool, 0, n*b.sigma*b.nR)
	for _, v := range val {
		nt = append(nt, v...)
	}
	b.tab[op.out] = nt
	b.nL, b.dL = n, delta
	return nil
}

// checkTables checks that the live tables and a new one fit within
// exact-bytes for machines of nL left and nR right states.
func (b *bimachine) checkTables(nL, nR int) error {
	need := int64(b.liveTables()+1) * int64(nL) * int64(b.sigma) * int64(nR)
	return b.bud.Check(maxTableBytes, need, fmt.Sprintf("the truth tables (%d of %d left states × %d symbols × %d right states)", b.liveTables()+1, nL, b.sigma, nR))
}

// liveTables is the number of tables currently kept.
func (b *bimachine) liveTables() int {
	n := 0
	for _, t := range b.tab {
		if t != nil {
			n++
		}
	}
	return n
}

// backward adds a backward attention operation, symmetrically: the new right
// machine's state at position i is (r_i, ψ) where ψ[λ][α] summarises the
// positions j > i assuming the left machine's state at position i+1 is λ.
func (b *bimachine) backward(op *attn) error {
	na := 1 << len(op.atoms)
	w := b.nL * na
	index := map[string]int{}
	var psis [][]byte
	var proj []int
	var delta [][]int
	var val [][]bool // per new state: nL*sigma values
	intern := func(r int, psi []byte) (int, error) {
		key := string(psi) + strconv.Itoa(r)
		if id, ok := index[key]; ok {
			return id, nil
		}
		if err := b.bud.Check(maxStates, int64(len(psis)+1), "the right machine"); err != nil {
			return 0, err
		}
		// The summary is held twice (the list and the index's key), and
		// the new machine's table needs σ×b.nL cells per state.
		if err := b.bud.Check(maxTableBytes, int64(len(psis)+1)*int64(max(2*w, b.sigma*b.nL)), "the right machine (its summaries and tables)"); err != nil {
			return 0, err
		}
		if err := b.bud.Step(int64(w)); err != nil {
			return 0, err
		}
		index[key] = len(psis)
		psis = append(psis, psi)
		proj = append(proj, r)
		return len(psis) - 1, nil
	}
	if _, err := intern(0, make([]byte, w)); err != nil {
		return err
	}
	for i := 0; i < len(psis); i++ {
		r, psi := proj[i], psis[i]
		row := make([]int, b.sigma)
		vals := make([]bool, b.nL*b.sigma)
		for a := 0; a < b.sigma; a++ {
			next := make([]byte, w)
			for l := 0; l < b.nL; l++ {
				c := b.cell(l, a, r)
				lam := b.dL[l][a]
				for al := 0; al < na; al++ {
					old := psi[lam*na+al]
					nv := old
					if (!op.rightmost || old == none) && op.s(b.tab, c, uint32(al)) {
						nv = code(op.v(b.tab, c, uint32(al)))
					}
					next[l*na+al] = nv
				}
				al := int(op.alphaAt(b.tab, c))
				sel := next[l*na+al]
				if op.strict {
					sel = psi[lam*na+al]
				}
				if sel == none {
					vals[l*b.sigma+a] = op.d(b.tab, c, 0)
				} else {
					vals[l*b.sigma+a] = sel == valTrue
				}
			}
			j, err := intern(b.dR[r][a], next)
			if err != nil {
				return err
			}
			row[a] = j
		}
		delta = append(delta, row)
		val = append(val, vals)
	}
	n := len(psis)
	if err := b.checkTables(b.nL, n); err != nil {
		return err
	}
	for k, t := range b.tab {
		if t == nil {
			continue
		}
		nt := make([]bool, b.nL*b.sigma*n)
		for la := 0; la < b.nL*b.sigma; la++ {
			for i := range n {
				nt[la*n+i] = t[la*b.nR+proj[i]]
			}
		}
		b.tab[k] = nt
	}
	nt := make([]bool, b.nL*b.sigma*n)
	for i, v := range val {
		for la, x := range v {
			nt[la*n+i] = x
		}
	}
	b.tab[op.out] = nt
	b.nR, b.dR = n, delta
	return nil
}

// minimize merges left states that no live table and no future step can
// tell apart (same rows of every live table, equivalent successors), and
// likewise right states, by Moore's partition refinement. This is the
// "minimise after every step" that keeps the machines small.
func (b *bimachine) minimize(live []int) error {
	// Left: the signature of ℓ is its rows.
	rowLen := b.sigma * b.nR
	classL, nl, err := refine(b.bud, b.nL, b.sigma, b.dL, func(l int, buf []byte) []byte {
		for _, k := range live {
			for _, x := range b.tab[k][l*rowLen : (l+1)*rowLen] {
				buf = append(buf, boolByte(x))
			}
		}
		return buf
	})
	if err != nil {
		return err
	}
	if nl < b.nL {
		rep := representatives(classL, nl)
		for _, k := range live {
			t := b.tab[k]
			nt := make([]bool, nl*rowLen)
			for c, l := range rep {
				copy(nt[c*rowLen:(c+1)*rowLen], t[l*rowLen:(l+1)*rowLen])
			}
			b.tab[k] = nt
		}
		b.dL = quotient(b.dL, classL, rep)
		b.nL = nl
	}
	classR, nr, err := refine(b.bud, b.nR, b.sigma, b.dR, func(r int, buf []byte) []byte {
		for _, k := range live {
			t := b.tab[k]
			for la := 0; la < b.nL*b.sigma; la++ {
				buf = append(buf, boolByte(t[la*b.nR+r]))
			}
		}
		return buf
	})
	if err != nil {
		return err
	}
	if nr < b.nR {
		rep := representatives(classR, nr)
		for _, k := range live {
			t := b.tab[k]
			nt := make([]bool, b.nL*b.sigma*nr)
			for la := 0; la < b.nL*b.sigma; la++ {
				for c, r := range rep {
					nt[la*nr+c] = t[la*b.nR+r]
				}
			}
			b.tab[k] = nt
		}
		b.dR = quotient(b.dR, classR, rep)
		b.nR = nr
	}
	return nil
}

func boolByte(x bool) byte {
	if x {
		return 1
	}
	return 0
}

// refine is Moore's algorithm: classes of states with equal signatures,
// refined by the classes of successors until stable. Class 0 contains state
// 0, and classes are numbered by first member.
func refine(bud *budget.Budget, n, sigma int, delta [][]int, sig func(q int, buf []byte) []byte) ([]int, int, error) {
	class := make([]int, n)
	ids := map[string]int{}
	var buf []byte
	for q := range n {
		buf = sig(q, buf[:0])
		id, ok := ids[string(buf)]
		if !ok {
			id = len(ids)
			ids[string(buf)] = id
		}
		class[q] = id
	}
	count := len(ids)
	for {
		// Each round reads every transition; there are at most n rounds.
		if err := bud.Step(int64(n * (sigma + 1))); err != nil {
			return nil, 0, err
		}
		ids := map[string]int{}
		next := make([]int, n)
		for q := range n {
			buf = buf[:0]
			buf = appendInt(buf, class[q])
			for a := range sigma {
				buf = appendInt(buf, class[delta[q][a]])
			}
			id, ok := ids[string(buf)]
			if !ok {
				id = len(ids)
				ids[string(buf)] = id
			}
			next[q] = id
		}
		class = next
		if len(ids) == count {
			return class, count, nil
		}
		count = len(ids)
	}
}

func appendInt(buf []byte, x int) []byte {
	return append(buf, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
}

func representatives(class []int, n int) []int {
	rep := make([]int, n)
	for i := range rep {
		rep[i] = -1
	}
	for q, c := range class {
		if rep[c] < 0 {
			rep[c] = q
		}
	}
	return rep
}

func quotient(delta [][]int, class, rep []int) [][]int {
	out := make([][]int, len(rep))
	for c, q := range rep {
		row := make([]int, len(delta[q]))
		for a, r := range delta[q] {
			row[a] = class[r]
		}
		out[c] = row
	}
	return out
}

// dfa reads off the language: w is accepted iff the output table holds at
// (ℓ_n, w_n, r = 0). The DFA's state after a non-empty prefix is the left
// state after it together with the output at its last position.
func (b *bimachine) dfa(p *brasp.Program, out int) *automata.DFA {
	t := b.tab[out]
	// States: 0 = start (ε, rejecting); 1 + 2ℓ + bit.
	n := 1 + 2*b.nL
	d := automata.NewDFA(p.Alphabet, n)
	for a := 0; a < b.sigma; a++ {
		d.Delta[0][a] = 1 + 2*b.dL[0][a] + int(boolByte(t[b.cell(0, a, 0)]))
	}
	for l := 0; l < b.nL; l++ {
		for bit := 0; bit < 2; bit++ {
			q := 1 + 2*l + bit
			d.Accept[q] = bit == 1
			for a := 0; a < b.sigma; a++ {
				d.Delta[q][a] = 1 + 2*b.dL[l][a] + int(boolByte(t[b.cell(l, a, 0)]))
			}
		}
	}
	return renamed(automata.Minimize(d))
}

// renamed names the states q0, q1, ... in order.
func renamed(d *automata.DFA) *automata.DFA {
	for q := range d.States {
		d.States[q] = "q" + strconv.Itoa(q)
	}
	return d
}
