//go:build unix

package main

import (
	"os"
	"syscall"
)

// openInput opens path for reading, as os.Open does but without offering
// the descriptor to the runtime's network poller (files.go).
func openInput(path string) (*os.File, error) {
	return open(path, syscall.O_RDONLY, "open")
}

// openOutput opens path for writing, creating it if needed, without
// truncating it and without the network poller (files.go).
func openOutput(path string) (*os.File, error) {
	return open(path, syscall.O_WRONLY|syscall.O_CREAT, "open")
}

func open(path string, flags int, op string) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, flags|syscall.O_CLOEXEC, 0o644)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: op, Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
