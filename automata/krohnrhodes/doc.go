// Package krohnrhodes implements the Krohn–Rhodes half of Thm 5.1 of Yang,
// Chiang and Angluin: a counter-free DFA is decomposed into a cascade of
// identity–reset automata (Decompose, the holonomy decomposition; paper,
// App. B.4, Thm B.5), and the cascade is compiled into a B-RASP program that
// uses only rightmost, strictly future-masked attention (CascadeToBRASP,
// Lemmas B.6–B.8 and the proof of Thm B.4). DFAToBRASP does both after
// minimising. Every cascade can be checked against its DFA (Cascade.Verify).
//
// The holonomy decomposition of a counter-free DFA (Eilenberg; Egri-Nagy and
// Nehaniv), in these steps:
//
//  1. the image orbit I = {X·w} of the state set X;
//  2. the extended image set E = I ∪ {singletons};
//  3. classes: strongly connected components of the orbit graph;
//  4. tiles of P ∈ E: the maximal proper subsets of P that lie in E;
//  5. subduction on classes (P above P·a and above its tiles) and
//  6. heights (singletons 0, otherwise 1 + the maximum below); the number of
//     levels is height(X), and depth(P) = height(X) − height(P) + 1;
//  7. a representative R per class with fromRep/toRep words;
//  8. holonomy groups, trivial because the DFA is counter-free (checked by
//     the aperiodicity test on the orbit, which also yields the witness);
//  9. level d: the tiles of the representatives of depth d;
//  10. coordinates: a tile chain X = P_1 ⊃ P_2 ⊃ … ⊃ {x}, level depth(P_i)
//     holding P_(i+1)·toRep_(P_i);
//  11. a letter maps the chain and extends it to a dominating tile chain;
//     each level is then left alone or reset by the levels above; levels off
//     the new chain are reset to their state 0 (their value is a don't-care);
//  12. the levels' inputs are read off the tile chain (context.go), so the
//     cascade is built without its global states; those are enumerated
//     lazily from the start state's coordinates when needed, and Verify
//     checks that the cascade emulates the DFA.
//
// Resources: Decompose, Global, Verify, Format and DFAToBRASP take a
// *budget.Budget. The image orbit is bounded by automata.OrbitBytes; the
// holonomy sets, tiles, chain edges, rules and enumerated global states by
// CascadeBytes (limit.go), charged in bytes as they are built; the work goes
// to b.Step, so a cancelled context stops every step. Global states are
// exponentially many in general, and only the explicit listing needs them:
// Format prints it when it fits within cascade-bytes and otherwise the
// polynomial context form, line by line.
//
// Files: holonomy.go (steps 1–11), context.go (the levels' inputs read off
// the tile chain), cascade.go (the Cascade type and its product),
// global.go (its reachable global states and Verify), format.go (its text
// form), program.go and brasp.go (cascade → B-RASP), limit.go (the
// budget limit).
package krohnrhodes
