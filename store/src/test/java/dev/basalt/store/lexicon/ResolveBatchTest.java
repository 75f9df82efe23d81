package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.eclipse.rdf4j.model.Value;
import org.junit.jupiter.api.Test;

import dev.basalt.store.Snapshot;
import dev.basalt.store.journal.StoreException;

/**
 * {@link LexiconView#resolveAll} of ids the value cache does not hold reads them through one cursor
 * ({@link LexiconView#storedValues}) and gives, for any mix of neighbouring, scattered, repeated, unordered, inline and
 * null ids, what resolving each on its own gives, and caches what it read; an id the dictionary lacks is an error
 * naming it, as for one id.
 */
class ResolveBatchTest extends StoreFixture {
    private final List<Value> terms = new ArrayList<>();
    private long[] ids;

    /** Enough terms for a dictionary of many leaves, the long literals spreading them over more pages. */
    private void fill() {
        for (int i = 0; i < 3_000; i++) {
            terms.add(VF.createIRI("http://example.org/resource/" + i));
            if (i % 3 == 0) {
                terms.add(VF.createLiteral("a text long enough to take room in a dictionary page, number " + i
                        + " ".repeat(i % 200)));
            }
        }
        ids = commitTerms(terms);
    }

    @Test
    void randomBatchesResolveAsSingleIdsDo() {
        fill();
        Random random = new Random(21);
        try (Snapshot s = store.snapshot()) {
            LexiconReader reader = lexicon.reader(s);
            for (int round = 0; round < 300; round++) {
                lexicon.clearCaches();
                int n = 1 + random.nextInt(40);
                long[] batch = new long[n];
                int start = random.nextInt(ids.length);
                for (int i = 0; i < n; i++) {
                    batch[i] = switch (random.nextInt(6)) {
                        case 0 -> ids[random.nextInt(ids.length)]; // scattered
                        case 1 -> TermIds.NULL;
                        case 2 -> i > 0 ? batch[random.nextInt(i)] : ids[start]; // repeated
                        case 3 -> InlineValues.encode(VF.createLiteral(random.nextInt(1000)));
                        default -> ids[Math.min(ids.length - 1, start + i)]; // neighbours
                    };
                }
                Value[] got = reader.resolveAll(batch, VF);
                for (int i = 0; i < n; i++) {
                    Value expected = batch[i] == TermIds.NULL ? null : reader.resolve(batch[i], VF);
                    assertEquals(expected, got[i], "round " + round + ", id " + i);
                }
            }
        }
    }

    @Test
    void aBatchCachesWhatItRead() {
        fill();
        long[] batch = { ids[10], ids[11], ids[12], ids[2_000], ids[5] };
        try (Snapshot s = store.snapshot()) {
            Value[] got = lexicon.reader(s).resolveAll(batch, VF);
            for (int i = 0; i < batch.length; i++) {
                assertEquals(got[i], lexicon.cachedValue(batch[i]), "id " + i + " cached");
            }
        }
    }

    @Test
    void storedValuesAreThoseOfSingleReads() {
        fill();
        long[] sorted = ids.clone();
        java.util.Arrays.sort(sorted);
        long[] batch = { sorted[0], sorted[1], sorted[7], sorted[8], sorted[500], sorted[499], sorted[3_500],
                sorted[sorted.length - 1], sorted[sorted.length - 1] + 1 };
        try (Snapshot s = store.snapshot()) {
            LexiconReader reader = lexicon.reader(s);
            byte[][] stored = reader.storedValues(batch, batch.length);
            for (int i = 0; i < batch.length - 1; i++) {
                assertArrayEquals(reader.storedValue(batch[i]), stored[i], "id " + i);
            }
            assertNull(stored[batch.length - 1], "an id past the last one has no value");
        }
    }

    @Test
    void anUnknownIdInABatchIsAnError() {
        fill();
        long[] sorted = ids.clone();
        java.util.Arrays.sort(sorted);
        long[] batch = { sorted[3], sorted[sorted.length - 1] + 1 };
        try (Snapshot s = store.snapshot()) {
            LexiconReader reader = lexicon.reader(s);
            StoreException e = assertThrows(StoreException.class, () -> reader.resolveAll(batch, VF));
            assertEquals(true, e.getMessage().contains(TermIds.describe(batch[1])), e.getMessage());
        }
    }
}
