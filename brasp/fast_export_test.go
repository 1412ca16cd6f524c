package brasp

// SetRunnerChunk sets the chunk size of r in words (0: the default), so that
// tests can make scans cross chunk boundaries on short words.
func SetRunnerChunk(r *Runner, words int) {
	if words <= 0 {
		words = chunkWords
	}
	r.chunk = words
}
