package brasp

// runFast is the linear-time interpreter. (Placeholder until the bitset
// implementation lands: it delegates to the reference interpreter.)
func (p *Program) runFast(w []int) *Trace { return p.RunReference(w) }
