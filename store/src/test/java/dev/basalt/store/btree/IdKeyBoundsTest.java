package dev.basalt.store.btree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link IdKeyBounds} on keys of two ids: a prefix keeps the keys that start with it, an exclusive end
 * the keys before it, ids compared unsigned as the key bytes are.
 */
class IdKeyBoundsTest {
    private static final long TOP = 0x8000_0000_0000_0001L; // above every positive id, unsigned

    @Test
    void wholeIdsBounds() {
        assertTrue(IdKeyBounds.wholeIds(null, 2));
        assertTrue(IdKeyBounds.wholeIds(new byte[8], 2));
        assertTrue(IdKeyBounds.wholeIds(new byte[16], 2));
        assertFalse(IdKeyBounds.wholeIds(new byte[24], 2), "longer than a key");
        assertFalse(IdKeyBounds.wholeIds(new byte[9], 2), "not whole ids");
    }

    @Test
    void aPrefixKeepsTheKeysStartingWithIt() {
        long[] keys = { 5, 1, 5, TOP, 6, 0 };
        long[] prefix = { 5 };
        assertEquals(2, IdKeyBounds.inRange(prefix, true, keys, 0, 2, 3));
        assertTrue(IdKeyBounds.inRange(prefix, true, keys, 2));
        assertFalse(IdKeyBounds.inRange(prefix, true, keys, 4));
        assertEquals(0, IdKeyBounds.inRange(new long[] { 4 }, true, keys, 0, 2, 3));
    }

    @Test
    void anExclusiveEndKeepsTheKeysBeforeIt() {
        long[] keys = { 5, 1, 5, 7, 5, TOP, 6, 0 };
        assertEquals(2, IdKeyBounds.inRange(new long[] { 5, TOP }, false, keys, 0, 2, 4), "the end itself is out");
        assertEquals(3, IdKeyBounds.inRange(new long[] { 6 }, false, keys, 0, 2, 4));
        assertEquals(0, IdKeyBounds.inRange(new long[] { 5 }, false, keys, 0, 2, 4),
                "a key longer than an end it starts with comes after it");
        assertEquals(4, IdKeyBounds.inRange(new long[] { TOP }, false, keys, 0, 2, 4), "unsigned order");
        assertEquals(1, IdKeyBounds.inRange(new long[] { 6 }, false, keys, 4, 2, 2), "from an offset");
    }
}
