package artifact

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/internal/testkit"
)

// The generated sections of ARCHITECTURE.md, between these markers.
const (
	beginTable = "<!-- BEGIN generated: go test ./artifact -update -->\n"
	endTable   = "<!-- END generated -->\n"
)

// tableMarkdown renders the kinds and the conversion table as Markdown.
func tableMarkdown() string {
	var b strings.Builder
	b.WriteString("| kind | files | artifact | holds |\n|---|---|---|---|\n")
	for _, k := range Kinds() {
		info, _ := kindInfo(k)
		typ := artifactType(k)
		files := "`" + strings.Join(info.Exts, "` `") + "`"
		if len(info.Exts) == 0 {
			files = "any name (known by its contents)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | `*artifact.%s` | `%s` |\n", k, files, typ.Elem().Name(), heldType(typ))
	}
	edgeTable(&b, Edges())
	b.WriteString("\nWith `Options.Masks` (`--masks non-strict|causal`), conversions to ltl, brasp and transformer read `maskedEdges` instead (Theorem 5.2):\n")
	edgeTable(&b, listing(maskedEdges()))
	return b.String()
}

// edgeTable writes one row per edge: its kinds, constructions and options.
func edgeTable(b *strings.Builder, edges []Edge) {
	b.WriteString("\n| from | to | constructions (function: reference) | options read |\n|---|---|---|---|\n")
	for _, e := range edges {
		var steps, opts []string
		for i, f := range e.Funcs {
			steps = append(steps, fmt.Sprintf("`%s`: %s", f, e.Refs[i]))
			field, typ, _ := strings.Cut(e.Options[i], " ")
			opts = append(opts, fmt.Sprintf("`%s` (`%s`)", field, typ))
		}
		fmt.Fprintf(b, "| `%s` | `%s` | %s | %s |\n", e.From, e.To, strings.Join(steps, " → "), strings.Join(opts, ", "))
	}
}

// artifactType is the artifact type of a kind.
func artifactType(k Kind) reflect.Type {
	if k == KindMONADFA {
		// MONA's output loads as a DFA over propositions.
		return reflect.TypeOf(&SymbolicDFA{})
	}
	for _, a := range []Artifact{&Program{}, &Formula{}, &DFA{}, &Regex{}, &Transformer{}, &LTLf{}} {
		if a.Kind() == k {
			return reflect.TypeOf(a)
		}
	}
	panic("no artifact type for " + k)
}

// heldType is the type of the first field of an artifact type: the
// representation's central type.
func heldType(t reflect.Type) string { return t.Elem().Field(0).Type.String() }

// TestArchitectureTable keeps the tables of ARCHITECTURE.md equal to the
// kinds and edges of table.go (go test ./artifact -update rewrites them).
func TestArchitectureTable(t *testing.T) {
	const path = "../ARCHITECTURE.md"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i, j := strings.Index(s, beginTable), strings.Index(s, endTable)
	if i < 0 || j < i {
		t.Fatalf("%s has no generated section (%q ... %q)", path, beginTable, endTable)
	}
	want := s[:i+len(beginTable)] + tableMarkdown() + s[j:]
	testkit.Golden(t, path, []byte(want))
}

// TestArchitectureLayers checks the "Packages by layer" list of
// ARCHITECTURE.md against the source tree: every package of the module is
// listed once, and no package imports one of a later layer.
func TestArchitectureLayers(t *testing.T) {
	const root = ".."
	doc, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	layer := layersOf(t, string(doc))
	pkgs := map[string]map[string]bool{} // package → the module packages it imports
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		if pkgs[pkg] == nil {
			pkgs[pkg] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if rest, ok := strings.CutPrefix(p, module+"/"); ok {
				pkgs[pkg][rest] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("found only %d packages under %s", len(pkgs), root)
	}
	for pkg, imports := range pkgs {
		l, ok := layer[pkg]
		if !ok {
			t.Errorf("ARCHITECTURE.md: package %s is in no layer: add it to the list under \"Packages by layer\" (the first layer at or after every package it imports)", pkg)
			continue
		}
		for imp := range imports {
			if m, ok := layer[imp]; ok && m > l {
				t.Errorf("ARCHITECTURE.md: %s (layer %d) imports %s (layer %d)", pkg, l, imp, m)
			}
		}
	}
	for pkg := range layer {
		if _, ok := pkgs[pkg]; !ok {
			t.Errorf("ARCHITECTURE.md lists %s, which is not a package", pkg)
		}
	}
}

const module = "github.com/brasp-dev/brasp"

// layersOf reads the numbered list under "## Packages by layer": each item
// is a layer, the packages are its backquoted names outside parentheses.
func layersOf(t *testing.T, doc string) map[string]int {
	_, section, ok := strings.Cut(doc, "\n## Packages by layer\n")
	if !ok {
		t.Fatal(`ARCHITECTURE.md has no "## Packages by layer" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	layer := map[string]int{}
	n := 0
	depth := 0
	for _, line := range strings.Split(section, "\n") {
		if num, _, ok := strings.Cut(line, ". "); ok && num != "" && strings.Trim(num, "0123456789") == "" {
			n, _ = strconv.Atoi(num)
		} else if line == "" || !strings.HasPrefix(line, "   ") {
			if n > 0 {
				break
			}
			continue
		}
		var plain strings.Builder
		for _, r := range line {
			switch {
			case r == '(':
				depth++
			case r == ')':
				depth--
			case depth == 0:
				plain.WriteRune(r)
			}
		}
		fields := strings.Split(plain.String(), "`")
		for i := 1; i < len(fields); i += 2 {
			if prev, dup := layer[fields[i]]; dup {
				t.Errorf("ARCHITECTURE.md: %s in layers %d and %d", fields[i], prev, n)
			}
			layer[fields[i]] = n
		}
	}
	if n == 0 {
		t.Fatal("ARCHITECTURE.md: no numbered layers")
	}
	return layer
}
