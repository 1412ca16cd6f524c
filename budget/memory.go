package budget

import (
	"bufio"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Memory is the backstop under every other limit: the live heap of the
// whole process, in bytes, as the collector last measured it. Limits that
// count what a construction thinks grows miss what it does not count; the
// budget looks at the live heap every few milliseconds of Step and refuses,
// naming this limit, once it is past the ceiling, so that such growth ends
// in a message instead of an out-of-memory kill. The default is half the
// memory the process may use (the machine's, or its control group's), and
// no more than the runtime's soft memory limit (GOMEMLIMIT or
// debug.SetMemoryLimit) or a fifth of the address-space limit when either
// is set.
var Memory = Define("memory", defaultMemory(), "bytes",
	"live heap of the whole process, a backstop under every other limit")

// memoryEvery is the least time between two samples of the live heap: the
// heap grows by at most a few hundred megabytes in that time, and a sample
// (a few microseconds) then costs a thousandth of the work it watches.
const memoryEvery = 4 * time.Millisecond

// The process-wide sample of the live heap, shared by every budget: the
// time it was taken (nanoseconds since memoryEpoch) and its value.
var (
	memoryEpoch  = time.Now()
	memoryAt     atomic.Int64
	memoryLive   atomic.Int64
	memorySample sync.Mutex
)

// liveHeapMetric is the collector's measure of the live heap: the bytes of
// objects marked at the end of the last cycle. Garbage not yet collected is
// not counted, so the limit measures what constructions hold.
const liveHeapMetric = "/gc/heap/live:bytes"

// LiveHeap is the live heap of the process, sampled at most every few
// milliseconds (a fresh sample when fresh is set).
func LiveHeap(fresh bool) int64 {
	now := int64(time.Since(memoryEpoch))
	if !fresh && now-memoryAt.Load() < int64(memoryEvery) {
		return memoryLive.Load()
	}
	if !memorySample.TryLock() {
		return memoryLive.Load()
	}
	defer memorySample.Unlock()
	s := [1]metrics.Sample{{Name: liveHeapMetric}}
	metrics.Read(s[:])
	var v int64
	if s[0].Value.Kind() == metrics.KindUint64 {
		v = int64(min(s[0].Value.Uint64(), math.MaxInt64))
	}
	memoryLive.Store(v)
	memoryAt.Store(now)
	return v
}

// memoryMax is the ceiling in force for a budget: the user's setting, or
// the default cut to the runtime's soft limit and the address-space limit
// in force now (a program may set either after the limits are defined).
func (b *Budget) memoryMax() int64 {
	if b != nil {
		if v, ok := b.settings[Memory.Name]; ok {
			return v
		}
	}
	return min(Memory.Default, runtimeMemoryCeiling())
}

// runtimeMemoryCeiling is the soft memory limit of the runtime, and a fifth
// of the address-space limit (the runtime reserves address space well
// beyond the heap it uses), whichever is smaller; MaxInt64 when neither is
// set.
func runtimeMemoryCeiling() int64 {
	c := debug.SetMemoryLimit(-1)
	if as := addressSpaceLimit(); as > 0 {
		c = min(c, as/5)
	}
	return c
}

// checkMemory is the backstop: an *Error naming Memory when the live heap
// is past the budget's ceiling.
func (b *Budget) checkMemory() error {
	live := LiveHeap(false)
	if b.memMax == 0 {
		b.memMax = b.memoryMax()
	}
	if live > b.memMax {
		// The sample may be old, or hold garbage a cycle has freed since:
		// only a fresh one refuses.
		if live = LiveHeap(true); live > b.memMax {
			return &Error{Limit: Memory, Value: b.memMax, Need: live, What: "the live heap"}
		}
	}
	return nil
}

// ApplyMemoryLimit makes the runtime's soft memory limit the ceiling the
// settings give (when no GOMEMLIMIT or debug.SetMemoryLimit has set one), so
// the collector works harder as the heap nears the ceiling rather than
// letting garbage double it: together with the budget's check, the process
// then holds about the ceiling at most. A program calls it once its limits
// are parsed.
func ApplyMemoryLimit(s Settings) {
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return
	}
	b := &Budget{settings: s}
	debug.SetMemoryLimit(b.memoryMax())
}

// defaultMemory is half the memory the process may use: the smaller of the
// machine's physical memory and its control group's limit (8 GiB when
// neither can be read), rounded down to a multiple of 256M so that help
// texts print it short.
func defaultMemory() int64 {
	total := physicalMemory()
	if cg := cgroupMemory(); cg > 0 && (total <= 0 || cg < total) {
		total = cg
	}
	if total <= 0 {
		return 8 << 30
	}
	return max(total/2&^(1<<28-1), 1<<28)
}

// physicalMemory reads MemTotal from /proc/meminfo (0 when it cannot).
func physicalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
		if err != nil || kb <= 0 || kb > math.MaxInt64>>10 {
			return 0
		}
		return kb << 10
	}
	return 0
}

// cgroupMemory reads the memory limit of the process's control group
// (version 2, then version 1); 0 when there is none or it cannot.
func cgroupMemory() int64 {
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
		if err == nil && n > 0 && n < 1<<60 {
			return n
		}
	}
	return 0
}
