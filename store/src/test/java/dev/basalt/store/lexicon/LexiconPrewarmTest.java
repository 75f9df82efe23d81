package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.rdf4j.model.Value;
import org.junit.jupiter.api.Test;

import dev.basalt.store.Snapshot;
import dev.basalt.store.WriteTransaction;

/**
 * {@link LexiconReader#prewarmValues} puts the dictionary's terms into the id → value cache in id order, as
 * resolving them would, at most as many as asked, stops when told, and refuses a reader of an open transaction.
 */
class LexiconPrewarmTest extends StoreFixture {
    private final List<Value> terms = new ArrayList<>();
    private long[] ids;

    private void fill() {
        for (int i = 0; i < 300; i++) {
            terms.add(VF.createIRI("http://example.org/term/" + i));
            terms.add(VF.createLiteral("a label that is too long to be inline " + i, i % 2 == 0 ? "en" : "de"));
        }
        ids = commitTerms(terms);
    }

    @Test
    void readsEveryTermIntoTheValueCache() {
        fill();
        for (long id : ids) {
            assertNull(lexicon.cachedValue(id), "nothing cached before");
        }
        try (Snapshot s = store.snapshot()) {
            assertEquals(terms.size(), lexicon.reader(s).prewarmValues(Long.MAX_VALUE, VF, () -> false));
        }
        for (int i = 0; i < terms.size(); i++) {
            assertEquals(terms.get(i), lexicon.cachedValue(ids[i]), "term " + i + " cached");
        }
    }

    @Test
    void readsAtMostAsManyAsAskedInIdOrder() {
        fill();
        try (Snapshot s = store.snapshot()) {
            assertEquals(50, lexicon.reader(s).prewarmValues(50, VF, () -> false));
        }
        long[] sorted = ids.clone();
        Arrays.sort(sorted);
        for (int k = 0; k < sorted.length; k++) {
            Value cached = lexicon.cachedValue(sorted[k]);
            if (k < 50) {
                assertEquals(terms.get(indexOf(sorted[k])), cached, "the " + k + "th smallest id");
            } else {
                assertNull(cached, "the " + k + "th smallest id");
            }
        }
    }

    @Test
    void stopsWhenTold() {
        fill();
        try (Snapshot s = store.snapshot()) {
            assertEquals(0, lexicon.reader(s).prewarmValues(Long.MAX_VALUE, VF, () -> true));
        }
        for (long id : ids) {
            assertNull(lexicon.cachedValue(id));
        }
    }

    /** The miss rehearsal decodes terms of each kind as a cache miss does, and caches none of them. */
    @Test
    void rehearsedMissesDecodeTermsOfEveryKindAndCacheNone() {
        fill();
        try (Snapshot s = store.snapshot()) {
            LexiconCounts counts = Lexicon.counts(s);
            assertEquals(300, counts.iris());
            long decoded = lexicon.reader(s).rehearseMisses(counts, 200, VF, () -> false);
            // at least the share asked of each kind, rounded up to runs of neighbours, at most every term
            org.junit.jupiter.api.Assertions.assertTrue(decoded >= 200 && decoded <= terms.size(), "decoded " + decoded);
            assertEquals(terms.size(), lexicon.reader(s).rehearseMisses(counts, 10_000, VF, () -> false),
                    "asked for more than the store holds: each term once");
            assertEquals(0, lexicon.reader(s).rehearseMisses(counts, 200, VF, () -> true), "stops when told");
        }
        for (long id : ids) {
            assertNull(lexicon.cachedValue(id), "nothing cached");
        }
    }

    @Test
    void refusesAReaderOfAnOpenTransaction() {
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            w.getOrCreate(VF.createIRI("http://example.org/uncommitted"));
            LexiconReader r = lexicon.reader(w);
            assertThrows(IllegalStateException.class, () -> r.prewarmValues(10, VF, () -> false));
        }
    }

    private int indexOf(long id) {
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == id) {
                return i;
            }
        }
        throw new AssertionError("id " + id);
    }
}
