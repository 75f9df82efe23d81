package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.eclipse.rdf4j.model.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.basalt.store.Snapshot;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;
import dev.basalt.store.journal.StoreException;

/**
 * Trained Zstandard dictionaries of the lexicon (lexicon format 3): a writer trains one from its
 * first new terms, stores it in the prefix tree and compresses later terms with it; every term
 * round-trips through commit and cold caches; a rolled-back dictionary is never seen; a store of
 * format 2 opens and gets a dictionary; an unknown format is refused.
 */
class TermDictionaryTest extends StoreFixture {
    private static final int SAMPLE_BYTES = 256 << 10;

    private static List<Value> reviews(int count, int seed) {
        Random random = new Random(seed);
        String[] vocabulary = new String[400];
        for (int i = 0; i < vocabulary.length; i++) {
            StringBuilder w = new StringBuilder();
            for (int k = 3 + random.nextInt(8); k > 0; k--) {
                w.append((char) ('a' + random.nextInt(26)));
            }
            vocabulary[i] = w.toString();
        }
        Random words = new Random(seed * 31L + 7);
        List<Value> terms = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            StringBuilder text = new StringBuilder();
            for (int n = 5 + words.nextInt(60); n > 0; n--) {
                text.append(vocabulary[words.nextInt(vocabulary.length)]).append(' ');
            }
            terms.add(i % 3 == 0 ? VF.createLiteral(text.toString(), "en") : VF.createLiteral(text.toString()));
            terms.add(VF.createIRI("http://example.org/reviews/Review" + seed + "_" + i));
        }
        return terms;
    }

    private long[] commit(List<Value> terms, boolean bottomUp) {
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            if (bottomUp) {
                try {
                    java.nio.file.Files.createDirectories(dir.resolve("spill"));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                assertTrue(w.startBottomUp(dir.resolve("spill")));
            }
            long[] ids = w.getOrCreateAll(terms);
            for (int i = 0; i < terms.size(); i += 7) {
                assertEquals(terms.get(i), w.resolve(ids[i], VF), "the writer resolves its own term " + i);
            }
            w.beforeCommit();
            tx.commit();
            w.afterCommit();
            return ids;
        }
    }

    private void assertRoundTrip(List<Value> terms, long[] ids) {
        Lexicon cold = new Lexicon(new LexiconConfig(0, 0, 10));
        try (Snapshot s = store.snapshot()) {
            LexiconReader r = cold.reader(s);
            for (int i = 0; i < terms.size(); i++) {
                assertEquals(terms.get(i), r.resolve(ids[i], VF), "resolve of " + i);
                assertEquals(ids[i], r.lookup(terms.get(i)), "lookup of " + i);
            }
        }
    }

    @ParameterizedTest(name = "bottom-up {0}")
    @ValueSource(booleans = { false, true })
    void aLoadTrainsADictionaryAndStoresLaterTermsCompressedWithIt(boolean bottomUp) {
        lexicon = new Lexicon(new LexiconConfig(1000, 1000, 100, SAMPLE_BYTES));
        List<Value> terms = reviews(3000, 1);
        long[] ids = commit(terms, bottomUp);
        assertRoundTrip(terms, ids);
        long withDictionary = 0;
        long plain = 0;
        int compressed = 0;
        try (Snapshot s = store.snapshot()) {
            assertArrayEquals(new byte[] { 3 }, s.property(Lexicon.FORMAT_PROPERTY));
            assertEquals(1, TermDictionary.latestNumber(s.tree(Lexicon.PREFIXES)));
            assertEquals(1, KeyPrefixes.count(s.tree(Lexicon.PREFIXES)), "the dictionary is not counted as a key prefix");
            BTree i2t = s.tree(Lexicon.ID_TO_TERM);
            for (int i = 0; i < terms.size(); i += 2) {
                byte[] stored = i2t.get(LexiconView.idKey(ids[i]));
                byte[] key = TermKeys.encode(terms.get(i));
                if (stored[0] == TermCompression.DICTIONARY_TAG) {
                    compressed++;
                    withDictionary += stored.length;
                    byte[] alone = TermValues.encode(key, (k, n) -> 0);
                    plain += alone.length;
                }
            }
        }
        assertTrue(compressed > 1500, "most reviews come after the training samples: " + compressed);
        assertTrue(withDictionary * 10 < plain * 7, "a dictionary saves at least 30 %: " + withDictionary + " vs " + plain);
    }

    @Test
    void laterTransactionsUseTheStoredDictionaryAndTrainNoOther() {
        lexicon = new Lexicon(new LexiconConfig(1000, 1000, 100, SAMPLE_BYTES));
        List<Value> first = reviews(2000, 2);
        long[] firstIds = commit(first, false);
        lexicon = new Lexicon(new LexiconConfig(1000, 1000, 100, SAMPLE_BYTES));
        List<Value> second = reviews(1500, 3);
        long[] secondIds = commit(second, false);
        try (Snapshot s = store.snapshot()) {
            assertEquals(1, TermDictionary.latestNumber(s.tree(Lexicon.PREFIXES)));
            int compressed = 0;
            for (int i = 0; i < second.size(); i += 2) {
                compressed += s.tree(Lexicon.ID_TO_TERM).get(LexiconView.idKey(secondIds[i]))[0] == TermCompression.DICTIONARY_TAG
                        ? 1 : 0;
            }
            assertTrue(compressed > second.size() / 4, "most of the second transaction's texts use dictionary 1: " + compressed);
        }
        assertRoundTrip(first, firstIds);
        assertRoundTrip(second, secondIds);
    }

    @Test
    void aRolledBackDictionaryIsNeitherCachedNorKept() {
        lexicon = new Lexicon(new LexiconConfig(1000, 1000, 100, SAMPLE_BYTES));
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            List<Value> gone = reviews(2000, 4);
            long[] ids = w.getOrCreateAll(gone);
            assertEquals(gone.get(1998), w.resolve(ids[1998], VF));
            tx.rollback();
        }
        List<Value> kept = reviews(2000, 5);
        long[] ids = commit(kept, false);
        assertRoundTrip(kept, ids);
        try (Snapshot s = store.snapshot()) {
            assertEquals(1, TermDictionary.latestNumber(s.tree(Lexicon.PREFIXES)));
            LexiconReader r = lexicon.reader(s);
            assertEquals(kept.get(3998), r.resolve(ids[3998], VF), "dictionary 1 is the kept transaction's");
        }
    }

    @Test
    void aFormatTwoStoreOpensAndGetsADictionaryWithFormatThree() {
        lexicon = new Lexicon(new LexiconConfig(1000, 1000, 100, 0));
        List<Value> old = reviews(500, 6);
        long[] oldIds = commit(old, false);
        try (WriteTransaction tx = store.begin()) {
            tx.setProperty(Lexicon.FORMAT_PROPERTY, new byte[] { 2 });
            tx.commit();
        }
        try (Snapshot s = store.snapshot()) {
            assertNull(dictionaryEntry(s), "no training with 0 sample bytes");
        }
        assertRoundTrip(old, oldIds);
        lexicon = new Lexicon(new LexiconConfig(1000, 1000, 100, SAMPLE_BYTES));
        List<Value> added = reviews(2000, 7);
        long[] addedIds = commit(added, false);
        try (Snapshot s = store.snapshot()) {
            assertArrayEquals(new byte[] { 3 }, s.property(Lexicon.FORMAT_PROPERTY));
            assertNotNull(dictionaryEntry(s));
        }
        assertRoundTrip(old, oldIds);
        assertRoundTrip(added, addedIds);
    }

    @Test
    void aValueNamingAMissingDictionaryIsAnErrorNamingIt() {
        lexicon = new Lexicon(new LexiconConfig(1000, 1000, 100, SAMPLE_BYTES));
        List<Value> terms = reviews(2000, 8);
        long[] ids = commit(terms, false);
        try (WriteTransaction tx = store.begin()) {
            tx.tree(Lexicon.PREFIXES).remove(TermDictionary.key(1));
            tx.commit();
        }
        Lexicon cold = new Lexicon(new LexiconConfig(0, 0, 10));
        try (Snapshot s = store.snapshot()) {
            int last = ids.length - 2;
            while (s.tree(Lexicon.ID_TO_TERM).get(LexiconView.idKey(ids[last]))[0] != TermCompression.DICTIONARY_TAG) {
                last -= 2;
            }
            long id = ids[last];
            StoreException e = assertThrows(StoreException.class, () -> cold.reader(s).resolve(id, VF));
            assertTrue(e.getMessage().contains("dictionary 1"), e.getMessage());
        }
    }

    @Test
    void anUnknownFormatIsRefused() {
        commit(List.of(VF.createIRI("http://example.org/a/b")), false);
        try (WriteTransaction tx = store.begin()) {
            tx.setProperty(Lexicon.FORMAT_PROPERTY, new byte[] { (byte) (TermIds.FORMAT_VERSION + 1) });
            tx.commit();
        }
        try (Snapshot s = store.snapshot()) {
            StoreException e = assertThrows(StoreException.class, () -> lexicon.reader(s));
            assertTrue(e.getMessage().contains("format " + (TermIds.FORMAT_VERSION + 1)), e.getMessage());
        }
    }

    private static byte[] dictionaryEntry(Snapshot s) {
        if (!s.treeNames().contains(Lexicon.PREFIXES)) {
            return null;
        }
        BTreeCursor c = s.tree(Lexicon.PREFIXES).cursor(new byte[] { TermDictionary.KEY_TAG }, null);
        return c.next() ? c.value() : null;
    }
}
