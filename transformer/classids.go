package transformer

import "math"

// classIDs stores a small non-negative number (a class id) per position in
// as few bytes as the largest number needs: a byte each while every number
// is below 256, two bytes below 65536, four bytes beyond. Setting a number
// that does not fit widens the whole array once. The fast pass keeps the
// class of every position in one classIDs, layer after layer, so that a
// word of n symbols costs n bytes of classes for the models that have at
// most 256 distinct activation vectors per layer (compiled models have few).
type classIDs struct {
	u8  []uint8
	u16 []uint16
	u32 []uint32
}

// newClassIDs returns n zeros stored a byte each.
func newClassIDs(n int) classIDs { return classIDs{u8: make([]uint8, n)} }

// classIDsFor returns n zeros stored in the fewest bytes that hold every
// number below k.
func classIDsFor(n, k int) classIDs {
	switch {
	case k <= 1<<8:
		return classIDs{u8: make([]uint8, n)}
	case k <= 1<<16:
		return classIDs{u16: make([]uint16, n)}
	}
	return classIDs{u32: make([]uint32, n)}
}

// identityClasses puts each of n positions in its own class.
func identityClasses(n int) classIDs {
	var c classIDs
	switch {
	case n <= 1<<8:
		c.u8 = make([]uint8, n)
		for i := range c.u8 {
			c.u8[i] = uint8(i)
		}
	case n <= 1<<16:
		c.u16 = make([]uint16, n)
		for i := range c.u16 {
			c.u16[i] = uint16(i)
		}
	default:
		c.u32 = make([]uint32, n)
		for i := range c.u32 {
			c.u32[i] = uint32(i)
		}
	}
	return c
}

// len returns the number of positions.
func (c *classIDs) len() int {
	switch {
	case c.u8 != nil:
		return len(c.u8)
	case c.u16 != nil:
		return len(c.u16)
	}
	return len(c.u32)
}

// get returns the number at position i.
func (c *classIDs) get(i int) int32 {
	switch {
	case c.u8 != nil:
		return int32(c.u8[i])
	case c.u16 != nil:
		return int32(c.u16[i])
	}
	return int32(c.u32[i])
}

// set stores v ≥ 0 at position i, widening the array if v does not fit.
func (c *classIDs) set(i int, v int32) {
	switch {
	case c.u8 != nil:
		if v <= math.MaxUint8 {
			c.u8[i] = uint8(v)
			return
		}
		c.widen(v)
	case c.u16 != nil:
		if v <= math.MaxUint16 {
			c.u16[i] = uint16(v)
			return
		}
		c.widen(v)
	}
	if c.u16 != nil {
		c.u16[i] = uint16(v)
		return
	}
	c.u32[i] = uint32(v)
}

// widen copies the numbers into an array wide enough for v.
func (c *classIDs) widen(v int32) {
	n := c.len()
	if v <= math.MaxUint16 && c.u8 != nil {
		c.u16 = make([]uint16, n)
		for i, x := range c.u8 {
			c.u16[i] = uint16(x)
		}
		c.u8 = nil
		return
	}
	c.u32 = make([]uint32, n)
	for i := range n {
		c.u32[i] = uint32(c.get(i))
	}
	c.u8, c.u16 = nil, nil
}
