package transformer_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
)

// numpyForward is an independent forward pass in NumPy: it reads a
// safetensors file with the standard library, and runs unique hard
// attention with masks and tie-breaks, ReLU FFNs, layer norms, position
// terms and the output layer in float64. Arguments: the model file; stdin:
// a JSON list of words (lists of symbol indices); stdout: a JSON list of
// verdicts.
const numpyForward = `
import json, struct, sys
import numpy as np

path = sys.argv[1]
with open(path, 'rb') as f:
    data = f.read()
(hlen,) = struct.unpack('<Q', data[:8])
header = json.loads(data[8:8 + hlen])
body = data[8 + hlen:]
meta = header.pop('__metadata__')
def tensor(name):
    t = header[name]
    assert t['dtype'] == 'F64'
    a, b = t['data_offsets']
    return np.frombuffer(body[a:b], dtype='<f8').reshape(t['shape'])
def rat(s):
    s = str(s)
    if '/' in s:
        p, q = s.split('/')
        return float(p) / float(q)
    return float(s)

emb = tensor('embedding')
d = int(meta['width'])
position = json.loads(meta['position']) or []
layers = []
for l, ml in enumerate(json.loads(meta['layers'])):
    heads = []
    for h, mh in enumerate(ml['attention']):
        p = 'layers.%d.attention.%d.' % (l, h)
        heads.append((mh['mask'], mh['tiebreak'], tensor(p + 'score'), tensor(p + 'value')))
    ffn = None
    if ml['ffn']:
        p = 'layers.%d.ffn.' % l
        ffn = tuple(tensor(p + k) for k in ('w1', 'b1', 'w2', 'b2'))
    norms = {}
    for which in ('attention', 'ffn'):
        ln = (ml.get('layernorm') or {}).get(which)
        if ln is not None:
            p = 'layers.%d.layernorm.%s.' % (l, which)
            norms[which] = (tensor(p + 'gamma'), tensor(p + 'beta'), rat(ln['eps']))
    layers.append((heads, ffn, norms))
w_out = tensor('output.weight')
b_out = tensor('output.bias')[0]

def theta(term, i, n):
    k = term['kind']
    if k in ('sin', 'cos'):
        f = term['frequency']
        p, q = (str(f).split('/') + ['1'])[:2] if '/' in str(f) else (None, None)
        if p is None:
            from fractions import Fraction
            fr = Fraction(str(f))
            p, q = fr.numerator, fr.denominator
        p, q = int(p), int(q)
        t = (p * i) % q
        if (12 * t) % q == 0:
            j = 12 * t // q
            if k == 'cos':
                j = (j + 3) % 12
            table = {0: 0.0, 1: 0.5, 3: 1.0, 5: 0.5, 6: 0.0, 7: -0.5, 9: -1.0, 11: -0.5}
            if j in table:
                return table[j]
        x = 2 * np.pi * (t / q)
        return float(np.float32(np.sin(x) if k == 'sin' else np.cos(x)))
    if k == 'first': v = i == 1
    elif k == 'last': v = i == n
    elif k == 'mid': v = n % 2 == 1 and i == (n + 1) // 2
    elif k == 'mod': v = i % term['m'] == term['r']
    if term.get('negated'): v = not v
    return 1.0 if v else 0.0

def allowed(mask, i, j):
    return {'none': True, 'future': j < i, 'past': j > i,
            'future-or-self': j <= i, 'past-or-self': j >= i}[mask]

def layernorm(x, ln):
    g, b, eps = ln
    mu = x.mean(axis=1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=1, keepdims=True) + eps
    sigma = np.sqrt(var)
    return np.where(sigma == 0, 0.0, g * (x - mu) / np.where(sigma == 0, 1.0, sigma)) + b

def accepts(word):
    n = len(word)
    x = emb[word].copy()
    for term in position:
        for i in range(n):
            x[i, term['coord']] += rat(term.get('scale', 1)) * theta(term, i + 1, n)
    for heads, ffn, norms in layers:
        c = x.copy()
        for mask, tb, S, V in heads:
            scores = x @ S @ x.T          # scores[i, j] = x_i . (S x_j)
            for i in range(n):
                js = [j for j in range(n) if allowed(mask, i, j)]
                if not js:
                    continue
                best = max(scores[i, j] for j in js)
                cands = [j for j in js if scores[i, j] == best]
                j = min(cands) if tb == 'leftmost' else max(cands)
                c[i] += V @ x[j]
        if 'attention' in norms:
            c = layernorm(c, norms['attention'])
        y = c
        if ffn is not None:
            w1, b1, w2, b2 = ffn
            y = c + np.maximum(c @ w1.T + b1, 0) @ w2.T + b2
        if 'ffn' in norms:
            y = layernorm(y, norms['ffn'])
        x = y
    return bool(w_out @ x[-1] + b_out >= 0)

words = json.load(sys.stdin)
json.dump([accepts(w) for w in words], sys.stdout)
`

// findNumPy returns a Python interpreter that can import NumPy.
func findNumPy() string {
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if path, err := exec.LookPath(py); err == nil {
			if exec.Command(path, "-c", "import numpy").Run() == nil {
				return path
			}
		}
	}
	return ""
}

func TestPythonInterop(t *testing.T) {
	py := findNumPy()
	if py == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 with NumPy is required when CI is set (.ci/run installs python3-numpy)")
		}
		t.Skip("python3 with NumPy not found (set CI to make this a failure)")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "forward.py")
	if err := os.WriteFile(script, []byte(numpyForward), 0o644); err != nil {
		t.Fatal(err)
	}
	progs := examplePrograms(t)
	progs["mod"] = mustParse(t, modProgram)
	rng := rand.New(rand.NewPCG(11, 12))
	for _, name := range []string{"dyck1_depth2.brasp", "stair3.brasp", "mod"} {
		p := progs[name]
		for _, o := range compile.Variants {
			m, err := compile.Compile(nil, p, o)
			if err != nil {
				t.Fatal(err)
			}
			st, err := transformer.EncodeSafetensors(m)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, "model.safetensors")
			if err := os.WriteFile(file, st, 0o644); err != nil {
				t.Fatal(err)
			}
			var words [][]int
			brasptest.AllWords(len(p.Alphabet), 4, func(w []int) { words = append(words, append([]int(nil), w...)) })
			for range 10 {
				words = append(words, brasptest.RandomWord(rng, len(p.Alphabet), 1+rng.IntN(24)))
			}
			in, _ := json.Marshal(words)
			cmd := exec.Command(py, script, file)
			cmd.Stdin = strings.NewReader(string(in))
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s %s: python: %v\n%s", name, o.String(), err, stderr.String())
			}
			var verdicts []bool
			if err := json.Unmarshal(out, &verdicts); err != nil || len(verdicts) != len(words) {
				t.Fatalf("%s %s: python output %q: %v", name, o.String(), out, err)
			}
			r, err := transformer.NewRunner(m)
			if err != nil {
				t.Fatal(err)
			}
			for k, w := range words {
				got, err := r.Accepts(w)
				if err != nil {
					t.Fatal(err)
				}
				if got != verdicts[k] || got != p.Accepts(w) {
					t.Fatalf("%s %s: on %q Go says %v, NumPy says %v, the program says %v", name, o.String(), p.Alphabet.FormatWord(w), got, verdicts[k], p.Accepts(w))
				}
			}
		}
	}
}
