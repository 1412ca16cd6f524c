package artifact

import (
	"fmt"
	"os"
	"reflect"
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
		fmt.Fprintf(&b, "| `%s` | %s | `*artifact.%s` | `%s` |\n", k, "`"+strings.Join(info.Exts, "` `")+"`", typ.Elem().Name(), heldType(typ))
	}
	b.WriteString("\n| from | to | constructions (function: reference) | options read |\n|---|---|---|---|\n")
	for _, e := range edges {
		var steps, opts []string
		for i, f := range e.Funcs {
			steps = append(steps, fmt.Sprintf("`%s`: %s", f, e.Refs[i]))
			field, typ, _ := strings.Cut(e.Options[i], " ")
			opts = append(opts, fmt.Sprintf("`%s` (`%s`)", field, typ))
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s |\n", e.From, e.To, strings.Join(steps, " → "), strings.Join(opts, ", "))
	}
	return b.String()
}

// artifactType is the artifact type of a kind.
func artifactType(k Kind) reflect.Type {
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
