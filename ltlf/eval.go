package ltlf

// Eval reports whether the trace satisfies the formula at its first step
// (the LTLf convention). It is the brute-force evaluator the automaton
// constructions are checked against: a truth table of every subformula at
// every step, O(size × length). The empty trace satisfies no formula, or,
// under the empty-trace semantics (EmptyTrace), those EvalEmpty says.
func (f *Formula) Eval(t Trace) bool {
	if len(t) == 0 {
		return f.EmptyTrace && f.EvalEmpty()
	}
	return f.EvalAll(t)[f.Root][0]
}

// EvalAll returns the truth value of every node at every step of a
// non-empty trace: EvalAll(t)[node][step].
func (f *Formula) EvalAll(t Trace) [][]bool {
	n := len(t)
	if n == 0 {
		panic("ltlf: Eval on an empty trace")
	}
	v := make([][]bool, len(f.Nodes))
	for i, nd := range f.Nodes {
		out := make([]bool, n)
		v[i] = out
		switch nd.Op {
		case True:
			for k := range out {
				out[k] = true
			}
		case False:
		case Prop:
			for k := range out {
				out[k] = t[k].Has(int(nd.A))
			}
		case Not:
			for k := range out {
				out[k] = !v[nd.A][k]
			}
		case And, Or, Implies, Equiv, Xor:
			a, b := v[nd.A], v[nd.B]
			for k := range out {
				switch nd.Op {
				case And:
					out[k] = a[k] && b[k]
				case Or:
					out[k] = a[k] || b[k]
				case Implies:
					out[k] = !a[k] || b[k]
				case Equiv:
					out[k] = a[k] == b[k]
				case Xor:
					out[k] = a[k] != b[k]
				}
			}
		case Next, WeakNext:
			a := v[nd.A]
			copy(out, a[1:])
			out[n-1] = nd.Op == WeakNext
		case Yesterday, WeakYesterday:
			a := v[nd.A]
			copy(out[1:], a)
			out[0] = nd.Op == WeakYesterday
		case Finally, Globally, Until, Release, WeakUntil, StrongRelease:
			a := v[nd.A]
			b := a
			if nd.Op.Arity() == 2 {
				b = v[nd.B]
			}
			// later: the value at the step after k (past the end: the
			// value of the operator on the empty suffix).
			later := nd.Op == Globally || nd.Op == Release || nd.Op == WeakUntil
			for k := n - 1; k >= 0; k-- {
				cur := recur(nd.Op, a[k], b[k], later)
				out[k] = cur
				later = cur
			}
		case Once, Historically, Since:
			a := v[nd.A]
			b := a
			if nd.Op == Since {
				b = v[nd.B]
			}
			earlier := nd.Op == Historically
			for k := range n {
				cur := recur(nd.Op, a[k], b[k], earlier)
				out[k] = cur
				earlier = cur
			}
		default:
			panic("ltlf: unknown operator " + nd.Op.String())
		}
	}
	return v
}

// recur is the value at one step of the temporal operator op (a future
// operator of Finally … StrongRelease, or a past one of Once, Historically,
// Since) from its operands' values x and y there (y = x for a unary one)
// and its own value next at the neighbouring step it reads: the next step
// for a future operator, the previous one for a past operator.
func recur(op Op, x, y, next bool) bool {
	switch op {
	case Finally, Once:
		return x || next
	case Globally, Historically:
		return x && next
	case Until, WeakUntil, Since:
		return y || x && next
	case Release, StrongRelease:
		return y && (x || next)
	}
	panic("ltlf: not a temporal operator with a recurrence: " + op.String())
}
