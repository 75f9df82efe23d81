package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.junit.jupiter.api.Test;

import dev.basalt.store.Snapshot;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.btree.BTreeCursor;
import dev.basalt.store.btree.BTreeStats;

/**
 * A dictionary written bottom-up (empty at the start of the transaction) holds the same terms,
 * keys and TERM2ID entries as one written term by term; batches repeat terms, mix terms given by
 * value and by key only, and hold long terms (hashed TERM2ID keys); a small memory budget
 * merges the in-memory entries into TERM2ID (bottom-up again) several times in the middle. With a spill directory, the ID2TERM values go
 * to files and are written bottom-up too: both trees then hold exactly the entries of a bottom-up
 * load without one, the files are gone after the commit, and long terms repeated while the values
 * are in files are found again. Seed: {@code -Dbasalt.seed=N}.
 */
class BottomUpTermsTest extends StoreFixture {
    private static final long SEED = Long.getLong("basalt.seed", 17);
    /** Merges of the in-memory TERM2ID entries into the tree during the last {@link #load}. */
    private int merges;
    private long treeLookupsSkipped;

    private static List<Value> randomTerms(Random rnd, int n) {
        List<Value> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = rnd.nextInt(40);
            switch (rnd.nextInt(5)) {
                case 0 -> out.add(VF.createIRI("http://example.org/ns" + k % 7 + "/r" + k));
                case 1 -> out.add(VF.createLiteral("label number " + k));
                case 2 -> out.add(VF.createLiteral("long text " + k + " " + "x".repeat(150 + k)));
                case 3 -> out.add(VF.createBNode("b" + k));
                default -> out.add(VF.createLiteral("t" + k, VF.createIRI("http://example.org/dt")));
            }
        }
        return out;
    }

    /** Loads the batches in one transaction, bottom-up or not, and returns every batch's ids. */
    private List<long[]> load(List<List<Value>> batches, boolean bottomUp, boolean keysOnly, long budget, Path spill) {
        List<long[]> ids = new ArrayList<>();
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            if (bottomUp) {
                assertTrue(w.startBottomUp(spill, budget), "an empty dictionary is built bottom-up");
            }
            for (List<Value> batch : batches) {
                long[] inline = new long[batch.size()];
                byte[][] keys = new byte[batch.size()][];
                List<Value> values = new ArrayList<>(batch);
                for (int i = 0; i < batch.size(); i++) {
                    inline[i] = InlineValues.encode(batch.get(i));
                    if (keysOnly && inline[i] == TermIds.NULL) {
                        keys[i] = TermKeys.encode(batch.get(i));
                        values.set(i, null);
                    }
                }
                ids.add(w.getOrCreateAll(values, inline, keys, null));
            }
            merges = w.bottomUpMerges();
            treeLookupsSkipped = w.treeLookupsSkipped();
            // lookups before the tree is written see the new terms
            Value first = batches.get(0).get(0);
            assertEquals(ids.get(0)[0], w.lookup(first));
            w.beforeCommit();
            tx.commit();
            w.afterCommit();
        }
        return ids;
    }

    private Map<String, Long> termToIdEntries() {
        Map<String, Long> out = new java.util.TreeMap<>();
        for (Map.Entry<String, String> e : entries(Lexicon.TERM_TO_ID).entrySet()) {
            out.put(e.getKey(), Long.parseLong(e.getValue()));
        }
        return out;
    }

    /** A tree's entries as text, the values of TERM2ID as ids. */
    private Map<String, String> entries(String tree) {
        Map<String, String> out = new java.util.TreeMap<>();
        try (WriteTransaction tx = store.begin()) {
            BTreeCursor c = tx.tree(tree).cursor(null, null);
            while (c.next()) {
                out.put(Arrays.toString(c.key()), tree.equals(Lexicon.TERM_TO_ID)
                        ? Long.toString(Lexicon.getLong(c.value())) : Arrays.toString(c.value()));
            }
            tx.rollback();
        }
        return out;
    }

    private void reopenEmpty() {
        close();
        dir.resolve("basalt.jnl").toFile().delete();
        open();
    }

    private static long filesIn(Path directory) {
        try (var files = Files.list(directory)) {
            return files.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void spilledValuesGiveTheSameTrees() throws IOException {
        Path spill = Files.createDirectories(dir.resolve("spill"));
        for (int round = 0; round < 4; round++) {
            boolean keysOnly = round % 2 == 1;
            long budget = round < 2 ? Long.MAX_VALUE : 5_000;
            Random rnd = new Random(SEED + round);
            List<List<Value>> batches = new ArrayList<>();
            for (int b = 0; b < 6; b++) {
                batches.add(randomTerms(rnd, 300));
            }
            List<long[]> spilledIds = load(batches, true, keysOnly, budget, spill);
            assertEquals(0, filesIn(spill), "the value files are deleted once written");
            Map<String, String> t2i = entries(Lexicon.TERM_TO_ID);
            Map<String, String> i2t = entries(Lexicon.ID_TO_TERM);
            try (Snapshot s = store.snapshot()) {
                LexiconReader r = lexicon.reader(s);
                lexicon.clearCaches();
                for (int b = 0; b < batches.size(); b++) {
                    for (int i = 0; i < batches.get(b).size(); i++) {
                        assertEquals(batches.get(b).get(i), r.resolve(spilledIds.get(b)[i], VF));
                    }
                }
            }
            reopenEmpty();
            List<long[]> inTreeIds = load(batches, true, keysOnly, budget, null);
            for (int b = 0; b < batches.size(); b++) {
                assertArrayEquals(inTreeIds.get(b), spilledIds.get(b), "ids of batch " + b);
            }
            assertEquals(t2i, entries(Lexicon.TERM_TO_ID), "TERM2ID");
            assertEquals(i2t, entries(Lexicon.ID_TO_TERM), "ID2TERM");
            assertTrue(i2t.size() > 100, "entries: " + i2t.size());
            reopenEmpty();
        }
    }

    /**
     * A budget that runs out early and again (after about a fifth of the terms each time) still
     * gives ID2TERM the leaves of a bottom-up build: its values stay in their files to the end.
     * Inserted one by one after the budget, the growing ids split each last leaf in two and leave it
     * half full: about 1.7 times the leaves (BSBM 1M with a budget passed at a third of its terms:
     * 60.2 to 66.6 bytes/triple). TERM2ID, merged bottom-up at each budget, gets the same ids and
     * the same leaves as without a budget (inserted one by one its leaves took about 21% more bytes).
     */
    @Test
    void bothTreesAreBuiltBottomUpPastTheBudget() throws IOException {
        Path spill = Files.createDirectories(dir.resolve("spill"));
        List<List<Value>> batches = new ArrayList<>();
        for (int b = 0; b < 10; b++) {
            List<Value> batch = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                int n = b * 1_000 + i;
                batch.add(n % 2 == 0 ? VF.createIRI("http://example.org/item/" + n)
                        : VF.createLiteral("the description of item " + n + " " + "y".repeat(n % 60)));
            }
            batches.add(batch);
        }
        List<long[]> unboundedIds = load(batches, true, false, Long.MAX_VALUE, spill);
        BTreeStats unbounded = stats(Lexicon.ID_TO_TERM);
        BTreeStats unboundedT2i = stats(Lexicon.TERM_TO_ID);
        Map<String, String> values = entries(Lexicon.ID_TO_TERM);
        Map<String, Long> t2i = termToIdEntries();
        reopenEmpty();
        // about 100 bytes of heap a term: the budget runs out after about 2,000 of the 10,000 terms
        List<long[]> boundedIds = load(batches, true, false, 200_000, spill);
        assertTrue(merges >= 3, "merges into TERM2ID: " + merges);
        // new terms after the first merge (most of the 8,000) are known new without reading the tree
        assertTrue(treeLookupsSkipped > 5_000, "tree lookups skipped: " + treeLookupsSkipped);
        BTreeStats bounded = stats(Lexicon.ID_TO_TERM);
        assertEquals(values, entries(Lexicon.ID_TO_TERM), "ID2TERM");
        for (int b = 0; b < batches.size(); b++) {
            assertArrayEquals(unboundedIds.get(b), boundedIds.get(b), "ids of batch " + b);
        }
        assertEquals(t2i, termToIdEntries(), "TERM2ID");
        assertTrue(unboundedT2i.leafPages() > 5, "TERM2ID leaves: " + unboundedT2i.leafPages());
        assertEquals(unboundedT2i.leafPages(), stats(Lexicon.TERM_TO_ID).leafPages(), "TERM2ID leaves with and without the budget");
        assertTrue(unbounded.leafPages() > 20, "leaves: " + unbounded.leafPages());
        assertEquals(unbounded.leafPages(), bounded.leafPages(), "ID2TERM leaves with and without the budget");
        assertEquals(0, filesIn(spill), "the value files are deleted once written");
    }

    private BTreeStats stats(String tree) {
        try (WriteTransaction tx = store.begin()) {
            BTreeStats s = tx.tree(tree).verify();
            tx.rollback();
            return s;
        }
    }

    @Test
    void aDiscardedLoadLeavesNoFiles() throws IOException {
        Path spill = Files.createDirectories(dir.resolve("spill"));
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            assertTrue(w.startBottomUp(spill, Long.MAX_VALUE));
            w.getOrCreateAll(randomTerms(new Random(SEED), 100));
            assertTrue(filesIn(spill) > 0, "values are spilled while the load runs");
            w.discardBottomUp();
            assertEquals(0, filesIn(spill));
            tx.rollback();
        }
    }

    @Test
    void sameTermsAsTermByTerm() {
        System.out.println("BottomUpTermsTest seed " + SEED);
        for (int round = 0; round < 4; round++) {
            boolean keysOnly = round % 2 == 1;
            // a budget of 5,000 bytes merges the entries into the tree every 50 terms or so
            long budget = round < 2 ? Long.MAX_VALUE : 5_000;
            Random rnd = new Random(SEED);
            List<List<Value>> batches = new ArrayList<>();
            for (int b = 0; b < 6; b++) {
                batches.add(randomTerms(rnd, 300));
            }
            List<long[]> bottomUpIds = load(batches, true, keysOnly, budget, null);
            Map<String, Long> bottomUpTree = termToIdEntries();
            int entries = bottomUpTree.size();
            try (Snapshot s = store.snapshot()) {
                LexiconReader r = lexicon.reader(s);
                lexicon.clearCaches();
                for (int b = 0; b < batches.size(); b++) {
                    for (int i = 0; i < batches.get(b).size(); i++) {
                        Value v = batches.get(b).get(i);
                        assertEquals(bottomUpIds.get(b)[i], r.lookup(v), "lookup of " + v);
                        assertEquals(v, r.resolve(bottomUpIds.get(b)[i], VF));
                    }
                }
            }
            close();
            dir.resolve("basalt.jnl").toFile().delete();
            open();
            load(batches, false, keysOnly, budget, null);
            Map<String, Long> termByTerm = termToIdEntries();
            assertEquals(termByTerm.keySet(), bottomUpTree.keySet(), "the same TERM2ID keys");
            assertTrue(entries > 100, "entries: " + entries);
            close();
            dir.resolve("basalt.jnl").toFile().delete();
            open();
        }
    }

    @Test
    void onlyAnEmptyDictionaryIsBuiltBottomUp() {
        IRI a = VF.createIRI("http://example.org/a");
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            w.getOrCreate(a);
            assertFalse(w.startBottomUp(null), "a dictionary with a term in this transaction");
            w.beforeCommit();
            tx.commit();
            w.afterCommit();
        }
        try (WriteTransaction tx = store.begin()) {
            assertFalse(lexicon.writer(tx).startBottomUp(null), "a committed dictionary with a term");
            tx.rollback();
        }
    }

    @Test
    void indexKeepsKeysOfEveryLength() {
        Random rnd = new Random(SEED);
        BottomUpTermIndex index = new BottomUpTermIndex();
        List<byte[]> keys = new ArrayList<>();
        // lengths around the records' one-byte length limit, and records longer than a block of the arena
        int[] lengths = { 0, 1, 254, 255, 256, 300, (1 << 20) - 20, (1 << 20) + 10, 3, 40_000 };
        for (int round = 0; round < 200; round++) {
            int length = lengths[round % lengths.length] + (round >= lengths.length && lengths[round % lengths.length] > 0 ? round : 0);
            byte[] k = new byte[length];
            rnd.nextBytes(k);
            if (index.get(k) == TermIds.NULL) {
                index.put(k, 1000L << 32 | keys.size());
                keys.add(k);
            }
        }
        for (int i = 0; i < keys.size(); i++) {
            byte[] k = keys.get(i);
            assertEquals(1000L << 32 | i, index.get(k));
            byte[] changed = Arrays.copyOf(k, k.length + 1);
            assertEquals(TermIds.NULL, index.get(changed), "a key one byte longer");
        }
        int[] order = index.sortedOrder();
        List<byte[]> sorted = new ArrayList<>(keys);
        sorted.sort(Arrays::compareUnsigned);
        for (int i = 0; i < order.length; i++) {
            assertArrayEquals(sorted.get(i), keys.get(order[i]), "position " + i);
        }
    }

    @Test
    void indexSortsItsKeys() {
        Random rnd = new Random(SEED);
        BottomUpTermIndex index = new BottomUpTermIndex();
        List<byte[]> keys = new ArrayList<>();
        byte[] shared = new byte[40];
        rnd.nextBytes(shared);
        for (int i = 0; i < 20_000; i++) {
            byte[] k;
            if (i % 2 == 0) {
                k = new byte[1 + rnd.nextInt(12)];
                rnd.nextBytes(k);
            } else {
                // a long shared prefix, a few bytes after it from a small alphabet (keys that are prefixes of others, 0x00 bytes)
                int at = 20 + rnd.nextInt(21);
                k = Arrays.copyOf(shared, at + rnd.nextInt(6));
                for (int j = at; j < k.length; j++) {
                    k[j] = (byte) (rnd.nextInt(3) * 0x7F);
                }
            }
            if (index.get(k) == TermIds.NULL) {
                index.put(k, i + 1);
                keys.add(k);
            }
        }
        assertEquals(keys.size(), index.size());
        for (int i = 0; i < keys.size(); i++) {
            assertTrue(index.get(keys.get(i)) != TermIds.NULL);
        }
        int[] order = index.sortedOrder();
        List<byte[]> sorted = new ArrayList<>(keys);
        sorted.sort(Arrays::compareUnsigned);
        for (int i = 0; i < order.length; i++) {
            assertArrayEquals(sorted.get(i), keys.get(order[i]), "position " + i);
        }
    }
}
