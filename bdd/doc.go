// Package bdd is a small reduced ordered binary decision diagram (ROBDD)
// package: canonical Boolean functions over numbered variables, used as the
// guards of symbolic automata (a guard is a set of valuations of the
// propositions) and as the states of the LTLf construction.
//
// A Manager owns every node. Nodes are hash-consed, so two Nodes are equal
// exactly when they denote the same function: equality of guards is ==, and
// False and True are the nodes 0 and 1. Variable i is tested above variable
// j when i < j (the order is the numbering; callers choose it).
//
// Operations are memoised in a lossy direct-mapped cache, as in CUDD and
// BuDDy; nodes are never freed (a Manager lives as long as one
// construction). The node table is charged to the bdd-bytes limit of the
// Manager's budget; once a limit is hit or the budget is stopped, every
// operation returns False and Err reports why, so a long computation checks
// Err at its loop heads instead of after every operation.
package bdd
