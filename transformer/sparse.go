package transformer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/brasp-dev/brasp/budget"
)

// Sparse head matrices. A head's score and value matrices may be written
// either densely ([[d numbers] × d]) or as
//
//	{"sparse": [[row, col, value], ...]}
//
// listing the non-zero entries (0-based row and column, each pair at most
// once, value a number or "p/q" string); every entry not listed is zero.
// Compiled heads read and write a few residual coordinates, so the sparse
// form stores what the construction builds: O(d) numbers per head instead
// of d².

// jsonSparse is the sparse encoding of a matrix: its [row, col, value]
// triples as the rows of a matrix of numbers.
type jsonSparse struct {
	Sparse jsonNumbers `json:"sparse"`
}

// headMatrixFromJSON reads a d×d head matrix in either encoding.
func headMatrixFromJSON(bud *budget.Budget, j *jsonNumbers, d int, path string) (Matrix, error) {
	if err := j.parse(bud); err != nil {
		return nil, err
	}
	if !j.set {
		return nil, fmt.Errorf("%s: missing matrix", path)
	}
	if j.found != "" {
		return nil, fmt.Errorf("%s: not a matrix or a sparse matrix: found %s", path, j.found)
	}
	if j.object == nil {
		return j.matrix(bud, d, d, path)
	}
	dec := json.NewDecoder(bytes.NewReader(j.object))
	dec.DisallowUnknownFields()
	var js jsonSparse
	if err := dec.Decode(&js); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if !js.Sparse.set {
		return nil, fmt.Errorf("%s: sparse matrix without \"sparse\" entries", path)
	}
	if err := js.Sparse.check(bud, path+".sparse", true); err != nil {
		return nil, err
	}
	if len(js.Sparse.rows) > d*d {
		return nil, fmt.Errorf("%s.sparse: %d entries, more than the %d of a %d×%d matrix", path, len(js.Sparse.rows), d*d, d, d)
	}
	m := sharedZeroMatrix(d, d)
	seen := map[[2]int]bool{}
	at := 0
	for k, n := range js.Sparse.rows {
		p := fmt.Sprintf("%s.sparse[%d]", path, k)
		if n != 3 {
			return nil, fmt.Errorf("%s: has %d items, want [row, col, value]", p, n)
		}
		e := js.Sparse.nums[at : at+3]
		at += 3
		var idx [2]int
		for a := range 2 {
			x := e[a]
			if !x.IsInt() || x.Sign() < 0 || !x.Num().IsInt64() || x.Num().Int64() >= int64(d) {
				return nil, fmt.Errorf("%s[%d]: %s is not an index in 0..%d", p, a, FormatRat(x), d-1)
			}
			idx[a] = int(x.Num().Int64())
		}
		if seen[idx] {
			return nil, fmt.Errorf("%s: entry (%d, %d) is listed twice", p, idx[0], idx[1])
		}
		seen[idx] = true
		m[idx[0]][idx[1]] = e[2]
	}
	return m, nil
}

// headMatrixJSON writes a head matrix, sparsely when sparse is set and the
// sparse form lists fewer numbers.
func headMatrixJSON(m Matrix, sparse bool) string {
	nz := nonZeros(m)
	if !sparse || 3*nz >= len(m)*len(m) {
		return matrixJSON(m, "          ")
	}
	parts := make([]string, 0, nz)
	for r, row := range m {
		for c, x := range row {
			if x.Sign() != 0 {
				parts = append(parts, fmt.Sprintf("[%d, %d, %s]", r, c, numJSON(x)))
			}
		}
	}
	return "{\"sparse\": [" + strings.Join(parts, ", ") + "]}"
}

// nonZeros counts the non-zero entries of a matrix.
func nonZeros(m Matrix) int {
	n := 0
	for _, row := range m {
		for _, x := range row {
			if x.Sign() != 0 {
				n++
			}
		}
	}
	return n
}

// NumStoredParams is NumParams with every attention head counted by the
// non-zero entries of its score and value matrices: the parameters a
// sparse encoding of the model stores, and what the construction builds
// (a compiled head reads and writes a few residual coordinates).
func (m *Model) NumStoredParams() int {
	n := m.NumParams()
	for _, l := range m.Layers {
		for _, h := range l.Heads {
			n += nonZeros(h.Score) + nonZeros(h.Value) - 2*m.Width*m.Width
		}
	}
	return n
}
