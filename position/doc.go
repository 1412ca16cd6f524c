// Package position holds what B-RASP programs, LTL formulas and transformers
// say about positions, defined once for all of them: attention masks (which
// positions j a position i may read) and tie-breaks (which of the best
// positions it reads). Positions are 1-based, as in the paper.
//
// Each representation keeps its own spelling in its files, as named
// conversions here: B-RASP writes a mask as the predicate it is ("j<i",
// Mask.Predicate), transformer model files by name ("future", Mask.Name).
package position
