package transformer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
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

// jsonSparse is the sparse encoding of a matrix.
type jsonSparse struct {
	Sparse [][]json.RawMessage `json:"sparse"`
}

// headMatrixFromJSON reads a d×d head matrix in either encoding.
func headMatrixFromJSON(raw json.RawMessage, d int, path string) (Matrix, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, fmt.Errorf("%s: missing matrix", path)
	}
	if raw[0] != '{' {
		var rows [][]json.RawMessage
		if err := json.Unmarshal(raw, &rows); err != nil {
			return nil, fmt.Errorf("%s: not a matrix or a sparse matrix: %v", path, err)
		}
		return matrixFromJSON(rows, d, d, path)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var js jsonSparse
	if err := dec.Decode(&js); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if js.Sparse == nil {
		return nil, fmt.Errorf("%s: sparse matrix without \"sparse\" entries", path)
	}
	if len(js.Sparse) > d*d {
		return nil, fmt.Errorf("%s.sparse: %d entries, more than the %d of a %d×%d matrix", path, len(js.Sparse), d*d, d, d)
	}
	m := ZeroMatrix(d, d)
	seen := map[[2]int]bool{}
	for k, e := range js.Sparse {
		p := fmt.Sprintf("%s.sparse[%d]", path, k)
		if len(e) != 3 {
			return nil, fmt.Errorf("%s: has %d items, want [row, col, value]", p, len(e))
		}
		var idx [2]int
		for a := range 2 {
			n, err := strconv.Atoi(strings.TrimSpace(string(e[a])))
			if err != nil || n < 0 || n >= d {
				return nil, fmt.Errorf("%s[%d]: %s is not an index in 0..%d", p, a, e[a], d-1)
			}
			idx[a] = n
		}
		if seen[idx] {
			return nil, fmt.Errorf("%s: entry (%d, %d) is listed twice", p, idx[0], idx[1])
		}
		seen[idx] = true
		v, err := ratFromJSON(e[2], p+"[2]")
		if err != nil {
			return nil, err
		}
		m[idx[0]][idx[1]] = v
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
