package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Triple;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.junit.jupiter.api.Test;

import dev.basalt.store.Snapshot;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.cache.ClockCache;

/** The dictionary over a real store: round trips, large terms, triple terms, counts, caches and rollback. */
class LexiconTest extends StoreFixture {
    private List<Value> sampleTerms() {
        IRI a = VF.createIRI("http://example.org/a");
        List<Value> terms = new ArrayList<>(List.of(a, VF.createIRI("http://example.org/b"), VF.createBNode("b1"),
                VF.createLiteral("plain string longer than seven"), VF.createLiteral("x", "EN"),
                VF.createLiteral("01", XSD.INTEGER), VF.createLiteral("1", XSD.INTEGER),
                VF.createLiteral("v", VF.createIRI("http://example.org/dt")),
                VF.createLiteral("y".repeat(2000)), VF.createLiteral("z".repeat(200_000)),
                VF.createTriple(a, a, VF.createLiteral("o"))));
        Triple inner = VF.createTriple(a, a, VF.createLiteral("inner"));
        terms.add(VF.createTriple(inner, a, inner));
        return terms;
    }

    /**
     * A batch into a dictionary that is not empty numbers its new terms in the order they first
     * occur (whatever their keys' order), finds the known ones, and gives a repeated term one id;
     * so the ids of a load do not depend on where its batches end.
     */
    @Test
    void newTermsOfABatchAreNumberedInTheOrderTheyFirstOccur() {
        IRI known = VF.createIRI("http://example.org/m");
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            w.getOrCreate(known);
            w.beforeCommit();
            tx.commit();
            w.afterCommit();
        }
        lexicon.clearCaches();
        List<Value> batch = List.of(VF.createIRI("http://example.org/z"), known, VF.createIRI("http://example.org/a"),
                VF.createIRI("http://example.org/z"), VF.createLiteral("a literal longer than seven bytes"),
                VF.createIRI("http://example.org/b"));
        long[] ids;
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            ids = w.getOrCreateAll(batch);
            w.beforeCommit();
            tx.commit();
            w.afterCommit();
        }
        try (Snapshot s = store.snapshot()) {
            assertEquals(ids[1], lexicon.reader(s).lookup(known));
        }
        assertEquals(ids[0], ids[3], "a repeated term has one id");
        assertTrue(ids[0] < ids[2] && ids[2] < ids[5], "IRIs numbered z, a, b as they occur");
        for (int i : new int[] { 0, 2, 4, 5 }) {
            try (Snapshot s = store.snapshot()) {
                assertEquals(batch.get(i), lexicon.reader(s).resolve(ids[i], VF));
            }
        }
    }

    /**
     * Derived-number tables: one per function key for the life of the lexicon, emptied by
     * {@link Lexicon#clearCaches}, and none past {@link Lexicon#MAX_DERIVED_CACHES} functions.
     */
    @Test
    void derivedNumberTablesAreKeptPerFunctionAndBounded() {
        DerivedNumbers first = lexicon.derivedNumbers("f0");
        first.put(7, 42);
        assertSame(first, lexicon.derivedNumbers("f0"));
        assertEquals(42, lexicon.derivedNumbers("f0").get(7));
        lexicon.clearCaches();
        assertEquals(DerivedNumbers.MISSING, first.get(7));
        for (int f = 1; f < Lexicon.MAX_DERIVED_CACHES; f++) {
            assertNotNull(lexicon.derivedNumbers("f" + f));
        }
        assertNull(lexicon.derivedNumbers("one too many"));
    }

    @Test
    void termsRoundTripAndSurviveReopen() {
        List<Value> terms = sampleTerms();
        long[] ids;
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            ids = w.getOrCreateAll(terms);
            assertEquals(ids[0], w.getOrCreate(terms.get(0)));
            w.beforeCommit();
            tx.commit();
            w.afterCommit();
        }
        assertNotEquals(ids[5], ids[6], "\"01\" and \"1\" are distinct terms");
        assertTrue(InlineValues.isInline(ids[6]));
        close();
        open();
        try (Snapshot s = store.snapshot()) {
            LexiconReader r = lexicon.reader(s);
            for (int i = 0; i < terms.size(); i++) {
                Value expected = terms.get(i);
                assertEquals(ids[i], r.lookup(expected), "lookup of " + i);
                Value back = r.resolve(ids[i], VF);
                if (expected instanceof Literal l && l.getLanguage().isPresent()) {
                    assertEquals(l.getLabel(), back.stringValue());
                    assertEquals("en", ((Literal) back).getLanguage().get());
                } else {
                    assertEquals(expected, back, "resolve of " + i);
                }
            }
            // a batch with repeats, reversed order and the null and default-graph ids, read cold
            lexicon.clearCaches();
            long[] batch = new long[2 * ids.length + 3];
            for (int i = 0; i < ids.length; i++) {
                batch[i] = ids[ids.length - 1 - i];
                batch[ids.length + i] = ids[i];
            }
            batch[2 * ids.length] = TermIds.NULL;
            batch[2 * ids.length + 1] = TermIds.DEFAULT_GRAPH;
            batch[2 * ids.length + 2] = ids[0];
            Value[] all = r.resolveAll(batch, VF);
            assertEquals(batch.length, all.length);
            for (int i = 0; i < batch.length; i++) {
                assertEquals(r.resolve(batch[i], VF), all[i], "resolveAll position " + i);
            }
            assertNull(all[2 * ids.length]);
            assertNull(all[2 * ids.length + 1]);
            assertEquals(ids[4], r.lookup(VF.createLiteral("x", "en")), "language tags are case-insensitive");
            LexiconCounts counts = Lexicon.counts(s);
            assertEquals(2, counts.iris(), "a and b; a datatype IRI is part of its literal");
            assertEquals(1, counts.blankNodes());
            assertEquals(3, counts.triples());
            assertEquals(TermIds.NULL, r.lookup(VF.createIRI("http://example.org/unknown")));
            assertEquals(2, r.tripleTerms(ids[0]).size());
        }
    }

    @Test
    void rolledBackIdsNeverReachTheCaches() {
        IRI gone = VF.createIRI("http://example.org/rolled-back");
        IRI kept = VF.createIRI("http://example.org/kept");
        long goneId;
        try (WriteTransaction tx = store.begin()) {
            goneId = lexicon.writer(tx).getOrCreate(gone);
            tx.rollback();
        }
        long keptId;
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            keptId = w.getOrCreate(kept);
            w.beforeCommit();
            tx.commit();
            w.afterCommit();
        }
        assertEquals(goneId, keptId, "the allocator resumed from the last commit");
        try (Snapshot s = store.snapshot()) {
            LexiconReader r = lexicon.reader(s);
            assertEquals(TermIds.NULL, r.lookup(gone));
            assertEquals(kept, r.resolve(keptId, VF));
        }
    }

    @Test
    void readerOfOldSnapshotDoesNotSeeLaterTerms() {
        IRI later = VF.createIRI("http://example.org/later");
        try (Snapshot before = store.snapshot()) {
            try (WriteTransaction tx = store.begin()) {
                LexiconWriter w = lexicon.writer(tx);
                w.getOrCreate(later);
                w.beforeCommit();
                tx.commit();
            }
            lexicon.clearCaches();
            assertEquals(TermIds.NULL, lexicon.reader(before).lookup(later));
        }
    }

    @Test
    void derivedCachesAreKeptForAtMostTheirBoundOfFunctions() {
        Lexicon lexicon = new Lexicon(new LexiconConfig(1000, 1000, 100));
        Value v = SimpleValueFactory.getInstance().createLiteral("x");
        for (int f = 0; f < Lexicon.MAX_DERIVED_CACHES; f++) {
            DerivedCache c = lexicon.derivedCache("f" + f);
            assertTrue(c != null, "function " + f + " gets a cache");
            c.put(5, SimpleValueFactory.getInstance().createLiteral(f));
        }
        assertNull(lexicon.derivedCache("one more"), "past the bound a new function gets no cache");
        assertEquals(SimpleValueFactory.getInstance().createLiteral(3), lexicon.derivedCache("f3").get(5),
                "a function keeps its values, apart from the other functions' values of the same id");
        assertNull(lexicon.derivedCache("f3").get(6));
        lexicon.derivedCache("f3").put(6, v);
        lexicon.clearCaches();
        assertNull(lexicon.derivedCache("f3").get(6));
    }

    /**
     * However many functions fill them, the derived caches together never count more than the
     * configured bytes, and the number tables stop growing (still answering what they hold).
     */
    @Test
    void derivedCachesStayWithinTheirSharedBudget() {
        long budget = 64 << 10;
        Lexicon lexicon = new Lexicon(new LexiconConfig(1000, 1000, 100).withDerivedCacheBytes(budget));
        Value v = SimpleValueFactory.getInstance().createLiteral("x");
        long held = 0;
        for (int f = 0; f < Lexicon.MAX_DERIVED_CACHES; f++) {
            DerivedNumbers numbers = lexicon.derivedNumbers("f" + f);
            DerivedCache values = lexicon.derivedCache("f" + f);
            for (long id = 1; id <= 20_000; id++) {
                numbers.put(id, id * 64);
                values.put(id, v);
                assertTrue(lexicon.derivedBytes() <= budget, "within the budget: " + lexicon.derivedBytes());
            }
            for (long id = 1; id <= 20_000; id++) {
                long n = numbers.get(id);
                assertTrue(n == DerivedNumbers.MISSING || n == id * 64, "a held number is the one put");
                held += n == DerivedNumbers.MISSING ? 0 : 1;
            }
        }
        assertTrue(held > 0 && held < 16 * 20_000L, "the tables hold some numbers, not all: " + held);
        long arrays = 0;
        for (int f = 0; f < Lexicon.MAX_DERIVED_CACHES; f++) {
            arrays += lexicon.derivedNumbers("f" + f).tableBytes();
        }
        assertTrue(arrays <= budget - budget / 4, "the tables' arrays fit their share: " + arrays);
        assertTrue(lexicon.derivedBytes() > budget / 2, "the budget is used: " + lexicon.derivedBytes());
        lexicon.clearCaches();
        assertTrue(lexicon.derivedBytes() <= budget);
    }
}
