package main

import (
	"context"
	"io"
	"os"

	"github.com/brasp-dev/brasp/budget"
)

// Reading inputs and writing -o OUT cost a fifth of a small conversion's
// process time when done through os.Open and os.WriteFile, for two reasons
// that openInput and writeOutput avoid:
//
//   - os.Open and os.OpenFile offer every file to the runtime's network
//     poller: the first one creates the epoll instance and its wake-up
//     eventfd, and each costs four fcntl calls and a refused epoll_ctl for a
//     regular file. A descriptor opened with syscall.Open and wrapped by
//     os.NewFile stays blocking and is never offered (reads and writes of
//     regular files block in the kernel either way).
//   - os.WriteFile truncates an existing file to length zero with O_TRUNC.
//     ext4 (and XFS) take a file truncated to zero and then rewritten for a
//     "replace by truncate" and write its data back synchronously when it is
//     closed (auto_da_alloc), so overwriting an earlier -o OUT paid for a
//     disk write-back. writeOutput writes over the old contents and then
//     cuts the file to the new length, which is the same file afterwards
//     without the forced write-back.

// writeOutput writes data to the file path, creating it with permissions
// 0644 (before the umask) or replacing its contents, as os.WriteFile does;
// a cancelled ctx stops it between chunks (writeChunks).
func writeOutput(ctx context.Context, path string, data []byte) error {
	f, err := openOutput(path)
	if err != nil {
		return err
	}
	err = writeChunks(ctx, f, data)
	if err == nil {
		err = truncateRegular(f, int64(len(data)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// truncateRegular cuts f to size bytes if it is a regular file longer than
// that (a device or a pipe such as /dev/stdout has no length to cut).
func truncateRegular(f *os.File, size int64) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() || info.Size() <= size {
		return nil
	}
	return f.Truncate(size)
}

// outputChunk is how much writeChunks writes between two looks at the
// context: a few milliseconds to a file or pipe that keeps up.
const outputChunk = 1 << 20

// writeChunks writes data to w a chunk at a time, and stops with the
// budget's "stopped" error (the command's "interrupted") once ctx is
// cancelled, so that SIGINT or SIGTERM ends a long output within a chunk.
func writeChunks(ctx context.Context, w io.Writer, data []byte) error {
	b := budget.New(ctx, nil)
	for len(data) > 0 {
		if err := b.Err(); err != nil {
			return err
		}
		n := min(len(data), outputChunk)
		if _, err := w.Write(data[:n]); err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}
