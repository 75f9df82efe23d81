package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.junit.jupiter.api.Test;

import dev.basalt.store.Snapshot;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.btree.BTree;
import dev.basalt.store.journal.StoreException;

/**
 * The dictionary's stored forms over a real store: interned prefixes, compressed and hashed long
 * terms round-trip through commit, reopen and cold caches; hash collisions, rolled-back prefixes
 * and stores of another format version.
 */
class LexiconEncodingsTest extends StoreFixture {
    private long[] commit(List<Value> terms) {
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            long[] ids = w.getOrCreateAll(terms);
            for (int i = 0; i < terms.size(); i++) {
                assertEquals(ids[i], w.lookup(terms.get(i)), "the writer sees its own term " + i);
                assertEquals(terms.get(i), w.resolve(ids[i], VF), "the writer resolves its own term " + i);
            }
            w.beforeCommit();
            tx.commit();
            w.afterCommit();
            return ids;
        }
    }

    private static List<Value> terms() {
        String words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor ";
        Random random = new Random(3);
        StringBuilder noise = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            noise.appendCodePoint(0x20 + random.nextInt(0x2000));
        }
        List<Value> terms = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            terms.add(VF.createIRI("http://example.org/products/Product" + i));
            terms.add(VF.createLiteral(String.valueOf(100 + i), VF.createIRI("http://example.org/vocabulary/USD")));
        }
        terms.addAll(List.of(VF.createIRI("http://example.org/products/"), VF.createIRI("http://example.org/"),
                VF.createIRI("urn:isbn:0451450523"), VF.createIRI("http://example.org/ns#"),
                VF.createIRI("http://bücher.example/κατάλογος/βιβλίο"),
                VF.createIRI("http://example.org/" + "deep/".repeat(100) + "leaf"),
                VF.createLiteral("", VF.createIRI("http://example.org/vocabulary/Empty")),
                VF.createLiteral(words.repeat(20).substring(0, TermCompression.THRESHOLD - 1)),
                VF.createLiteral(words.repeat(20).substring(0, TermCompression.THRESHOLD)),
                VF.createLiteral(words.repeat(20).substring(0, LargeTermKeys.THRESHOLD - 1)),
                VF.createLiteral(words.repeat(30).substring(0, LargeTermKeys.THRESHOLD)),
                VF.createLiteral(words.repeat(50), "en"), VF.createLiteral(noise.toString()),
                VF.createLiteral(noise.toString(), "fr"), VF.createBNode("node" + "x".repeat(200))));
        return terms;
    }

    @Test
    void everyFormRoundTripsThroughReopenWithColdCaches() {
        List<Value> terms = terms();
        long[] ids = commit(terms);
        close();
        open();
        try (Snapshot s = store.snapshot()) {
            assertEquals(7, KeyPrefixes.count(s.tree(Lexicon.PREFIXES)), "example.org/products/, datatypes USD and"
                    + " Empty, example.org/ (of products/ and ns#), http:// (of example.org/), deep/…/, κατάλογος/; urn: has none");
            LexiconReader r = lexicon.reader(s);
            Value[] resolved = r.resolveAll(ids, VF);
            for (int i = 0; i < terms.size(); i++) {
                assertEquals(terms.get(i), resolved[i], "resolveAll of " + i);
            }
            lexicon.clearCaches();
            assertArrayEquals(ids, r.lookupAll(terms));
            lexicon.clearCaches();
            for (int i = 0; i < terms.size(); i++) {
                assertEquals(ids[i], r.lookup(terms.get(i)), "lookup of " + i);
                assertEquals(terms.get(i), r.resolve(ids[i], VF), "resolve of " + i);
            }
        }
        long[] again = commit(terms);
        assertArrayEquals(ids, again, "a second writer finds every term");
    }

    @Test
    void longTermsAreStoredOnceCompressedAndShortOnesWhole() {
        Value review = VF.createLiteral("the quick brown fox jumps over the lazy dog ".repeat(20), "en");
        Value shortIri = VF.createIRI("http://example.org/products/Product1");
        long[] ids = commit(List.of(review, shortIri));
        try (Snapshot s = store.snapshot()) {
            byte[] stored = s.tree(Lexicon.ID_TO_TERM).get(LexiconView.idKey(ids[0]));
            assertEquals(TermCompression.TAG, stored[0]);
            assertTrue(stored.length < 100, "880 bytes of repeated text compress: " + stored.length);
            BTree t2i = s.tree(Lexicon.TERM_TO_ID);
            assertEquals(null, t2i.get(TermKeys.encode(review)), "no full key in TERM2ID");
            assertArrayEquals(LexiconView.idKey(ids[0]), t2i.get(LargeTermKeys.key(TermKeys.encode(review), 0)));
            byte[] iri = s.tree(Lexicon.ID_TO_TERM).get(LexiconView.idKey(ids[1]));
            assertEquals(TermValues.PREFIXED, iri[0]);
        }
    }

    @Test
    void aDigestCollisionIsResolvedByComparingFullTerms() {
        Value first = VF.createLiteral("first long literal, ".repeat(20));
        Value second = VF.createLiteral("second long literal, ".repeat(20));
        long firstId = commit(List.of(first))[0];
        // forge a collision: the first term's id also sits under the second term's digest, ordinal 0
        try (WriteTransaction tx = store.begin()) {
            tx.tree(Lexicon.TERM_TO_ID).put(LargeTermKeys.key(TermKeys.encode(second), 0), LexiconView.idKey(firstId));
            tx.commit();
        }
        lexicon.clearCaches();
        long secondId = commit(List.of(second))[0];
        assertNotEquals(firstId, secondId);
        lexicon.clearCaches();
        try (Snapshot s = store.snapshot()) {
            BTree t2i = s.tree(Lexicon.TERM_TO_ID);
            assertArrayEquals(LexiconView.idKey(secondId), t2i.get(LargeTermKeys.key(TermKeys.encode(second), 1)),
                    "the colliding term took ordinal 1");
            LexiconReader r = lexicon.reader(s);
            assertEquals(secondId, r.lookup(second));
            assertEquals(firstId, r.lookup(first));
            assertEquals(second, r.resolve(secondId, VF));
            assertEquals(TermIds.NULL, r.lookup(VF.createLiteral("absent long literal, ".repeat(20))));
        }
    }

    @Test
    void prefixesOfARolledBackTransactionAreNumberedAgainAndNeverCached() {
        IRI gone = VF.createIRI("http://rolled.example.org/back/term");
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            long id = w.getOrCreate(gone);
            assertEquals(gone, w.resolve(id, VF));
            tx.rollback();
        }
        IRI kept = VF.createIRI("http://kept.example.org/ns/term");
        long keptId = commit(List.of(kept))[0];
        try (Snapshot s = store.snapshot()) {
            assertEquals(1, KeyPrefixes.count(s.tree(Lexicon.PREFIXES)));
            LexiconReader r = lexicon.reader(s);
            assertEquals(kept, r.resolve(keptId, VF), "prefix 1 is the kept namespace, also through the cache");
            lexicon.clearCaches();
            assertEquals(kept, r.resolve(keptId, VF));
            assertEquals(TermIds.NULL, r.lookup(gone));
        }
    }

    @Test
    void aStoreOfAnotherFormatIsRefusedWithTheMigrationPath() {
        commit(List.of(VF.createIRI("http://example.org/a/b")));
        try (WriteTransaction tx = store.begin()) {
            tx.setProperty(Lexicon.FORMAT_PROPERTY, new byte[] { 1 });
            tx.commit();
        }
        try (Snapshot s = store.snapshot()) {
            StoreException e = assertThrows(StoreException.class, () -> lexicon.reader(s));
            assertTrue(e.getMessage().contains("format 1"), e.getMessage());
            assertTrue(e.getMessage().contains("reads formats " + TermIds.OLDEST_READABLE_FORMAT_VERSION + " to " + TermIds.FORMAT_VERSION), e.getMessage());
            assertTrue(e.getMessage().contains("basalt load"), e.getMessage());
        }
        try (WriteTransaction tx = store.begin()) {
            assertThrows(StoreException.class, () -> lexicon.writer(tx));
        }
    }
}
