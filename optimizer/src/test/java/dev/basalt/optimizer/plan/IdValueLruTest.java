package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.junit.jupiter.api.Test;

/** The bounded id → value map of {@link ValueCache}: grows to its bound, then evicts the oldest of a set. */
class IdValueLruTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    @Test
    void holdsEveryEntryBelowItsBound() {
        IdValueLru lru = new IdValueLru(4096);
        for (long id = 1; id <= 1000; id++) {
            lru.put(id, VF.createLiteral(id));
        }
        for (long id = 1; id <= 1000; id++) {
            assertEquals(VF.createLiteral(id), lru.get(id), "id " + id);
        }
        assertNull(lru.get(1001));
        assertEquals(1000, lru.size());
    }

    @Test
    void staysWithinItsBoundAndKeepsWhatIsReadAgain() {
        IdValueLru lru = new IdValueLru(1024);
        Value hot = VF.createLiteral("hot");
        lru.put(7, hot);
        for (long id = 100; id < 100_000; id++) {
            lru.put(id, VF.createLiteral(id));
            assertSame(hot, lru.get(7), "a value read after every put is never the oldest of its set");
        }
        assertTrue(lru.size() <= lru.capacity(), lru.size() + " > " + lru.capacity());
        assertEquals(1024, lru.capacity());
        // the most recent entries are there, the first ones have aged out
        assertNotNull(lru.get(99_999));
        int old = 0;
        for (long id = 100; id < 1100; id++) {
            old += lru.contains(id) ? 1 : 0;
        }
        assertEquals(0, old);
    }

    @Test
    void replacesTheValueOfAnIdHeldAlready() {
        IdValueLru lru = new IdValueLru(64);
        lru.put(5, VF.createLiteral("a"));
        lru.put(5, VF.createLiteral("b"));
        assertEquals(VF.createLiteral("b"), lru.get(5));
        assertEquals(1, lru.size());
    }
}
