package dev.basalt.sail.http;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * {@link TermFragments}' prologues: a shape's prologue is found by its map's identity only, never for an empty slot,
 * whatever map is asked for (empty ones included), and a slot's prologue is replaced by the next shape kept there.
 */
class TermFragmentsTest {
    @Test
    void aPrologueIsFoundByItsMapsIdentityOnly() {
        TermFragments fragments = new TermFragments(1 << 16);
        Map<String, String> shape = new HashMap<>(Map.of("ex", "http://example.org/"));
        assertNull(fragments.prologue(shape), "nothing kept yet");
        assertNull(fragments.prologue(Map.of()), "an empty slot answers no map, the empty ones neither");
        assertNull(fragments.prologue(new HashMap<>()));

        TermFragments.Prologue kept = fragments.keepPrologue(shape, new byte[] { 1 }, Map.of());
        assertSame(kept, fragments.prologue(shape));
        assertNull(fragments.prologue(new HashMap<>(shape)), "an equal map of another shape is another shape");

        Map<String, String> other = new HashMap<>(shape);
        TermFragments.Prologue replacing = fragments.keepPrologue(other, new byte[] { 2 }, Map.of());
        assertSame(replacing, fragments.prologue(other));
        if ((System.identityHashCode(other) & 15) == (System.identityHashCode(shape) & 15)) {
            assertNull(fragments.prologue(shape), "the slot's prologue was replaced");
        } else {
            assertSame(kept, fragments.prologue(shape));
        }
    }
}
