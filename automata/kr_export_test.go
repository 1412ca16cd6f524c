package automata

// CounterFreeOfSize exposes the benchmarks' DFA generator to the external
// tests (kr_exact_test.go).
var CounterFreeOfSize = counterFreeOfSize
