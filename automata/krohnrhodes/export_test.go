package krohnrhodes

// CounterFreeOfSize exposes the benchmarks' DFA generator to the external
// tests (exact_test.go).
var CounterFreeOfSize = counterFreeOfSize
