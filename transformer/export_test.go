package transformer

// Internals the external tests check.
var (
	ForwardExact = (*Model).forwardExact
	DenseFloat   = (*Runner).denseFloat
	ErrInexact   = errInexact
)

// FloatOK reports whether r starts its passes in float64.
func FloatOK(r *Runner) bool { return r.floatOK }

// SetBatchCache sets the bounds of a Batch's cache and returns a function
// restoring them.
func SetBatchCache(classes, scores int) (restore func()) {
	c, s := batchCacheClasses, batchScoreClasses
	batchCacheClasses, batchScoreClasses = classes, scores
	return func() { batchCacheClasses, batchScoreClasses = c, s }
}

// SetScanLimits sets the bounds of a scan's tables (scanTable entries and
// scanMemo states) and returns a function restoring them.
func SetScanLimits(table, states int) (restore func()) {
	t, s := maxScanTable, maxScanStates
	maxScanTable, maxScanStates = table, states
	return func() { maxScanTable, maxScanStates = t, s }
}

// SetScanTableFloor sets what a scan's tables may hold whatever the word's
// length and returns a function restoring it.
func SetScanTableFloor(entries int) (restore func()) {
	f := scanTableFloor
	scanTableFloor = entries
	return func() { scanTableFloor = f }
}
