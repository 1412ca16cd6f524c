//go:build !unix

package main

import "os"

// openInput opens path for reading.
func openInput(path string) (*os.File, error) { return os.Open(path) }

// openOutput opens path for writing, creating it if needed, without
// truncating it.
func openOutput(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
}
