package ltlf

// top parses a formula by its dialect's binary operators, loosest first:
// Spot's precedence (also Syft's) or LTLf2DFA's (also PPLTL's), one
// function per level below.
func (p *parser) top() int32 {
	if p.dialect == LTLf2DFA || p.dialect == PPLTL {
		return p.l2dEquiv()
	}
	return p.spotImplies()
}

// Spot: -> and <-> are right-associative at the loosest level.
func (p *parser) spotImplies() int32 {
	l := p.spotOr()
	switch p.peek().kind {
	case tImplies:
		p.next()
		return p.f.Mk(Implies, l, p.spotImplies())
	case tEquiv:
		p.next()
		return p.f.Mk(Equiv, l, p.spotImplies())
	}
	return l
}

func (p *parser) spotOr() int32 {
	l := p.spotXor()
	for p.peek().kind == tOr {
		p.next()
		l = p.f.Mk(Or, l, p.spotXor())
	}
	return l
}

func (p *parser) spotXor() int32 {
	l := p.spotAnd()
	for {
		if _, ok := p.isIdent("xor"); !ok && p.peek().kind != tXor {
			return l
		}
		p.next()
		l = p.f.Mk(Xor, l, p.spotAnd())
	}
}

func (p *parser) spotAnd() int32 {
	l := p.spotBinary()
	for p.peek().kind == tAnd {
		p.next()
		l = p.f.Mk(And, l, p.spotBinary())
	}
	return l
}

var binaryOps = map[string]Op{"U": Until, "R": Release, "V": Release, "W": WeakUntil, "M": StrongRelease, "S": Since}

// spotBinary: U R V W M S, right-associative, one level.
func (p *parser) spotBinary() int32 {
	l := p.unary()
	if s, ok := p.isIdent("U", "R", "V", "W", "M", "S"); ok {
		p.next()
		return p.f.Mk(binaryOps[s], l, p.spotBinary())
	}
	return l
}

// LTLf2DFA: n-ary <-> meaning all operands are equal.
func (p *parser) l2dEquiv() int32 {
	fs := []int32{p.l2dImplies()}
	for p.peek().kind == tEquiv {
		p.next()
		fs = append(fs, p.l2dImplies())
	}
	if len(fs) == 1 {
		return fs[0]
	}
	r := p.f.Mk(Equiv, fs[0], fs[1])
	for k := 2; k < len(fs); k++ {
		r = p.f.Mk(And, r, p.f.Mk(Equiv, fs[k-1], fs[k]))
	}
	return r
}

func (p *parser) l2dImplies() int32 {
	l := p.l2dOr()
	for p.peek().kind == tImplies {
		p.next()
		l = p.f.Mk(Implies, l, p.l2dOr())
	}
	return l
}

func (p *parser) l2dOr() int32 {
	l := p.l2dAnd()
	for p.peek().kind == tOr {
		p.next()
		l = p.f.Mk(Or, l, p.l2dAnd())
	}
	return l
}

func (p *parser) l2dAnd() int32 {
	l := p.l2dUntil()
	for p.peek().kind == tAnd {
		p.next()
		l = p.f.Mk(And, l, p.l2dUntil())
	}
	return l
}

func (p *parser) l2dUntil() int32 {
	l := p.l2dRelease()
	if s, ok := p.isIdent("U", "W", "S"); ok {
		p.next()
		return p.f.Mk(binaryOps[s], l, p.l2dUntil())
	}
	return l
}

func (p *parser) l2dRelease() int32 {
	l := p.unary()
	if _, ok := p.isIdent("R"); ok {
		p.next()
		return p.f.Mk(Release, l, p.l2dRelease())
	}
	return l
}
