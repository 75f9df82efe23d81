package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.junit.jupiter.api.Test;

import dev.basalt.store.journal.StoreException;

/** The ID2TERM value forms: where keys split into prefixes, which form wins, and exact round trips. */
class TermValuesTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final long ID = TermIds.make(TermIds.KIND_LITERAL, 42);

    /** An in-memory prefix table standing in for the tree: numbers from 1 in order of first use. */
    private final Map<String, Integer> numbers = new HashMap<>();
    private final List<byte[]> prefixes = new ArrayList<>();

    private int intern(byte[] key, int length) {
        return numbers.computeIfAbsent(KeyPrefixes.text(key, length), t -> {
            prefixes.add(Arrays.copyOf(key, length));
            return prefixes.size();
        });
    }

    private byte[] roundTrip(Value v) {
        byte[] key = TermKeys.encode(v);
        byte[] stored = TermValues.encode(key, this::intern);
        byte[] back = TermValues.decode(stored, ID, n -> prefixes.get(n - 1));
        assertArrayEquals(key, back, () -> "round trip of " + v);
        assertEquals(v, TermKeys.decode(back, VF, id -> null));
        assertTrue(stored.length <= key.length, () -> "a stored value is never longer than its key: " + v);
        return stored;
    }

    @Test
    void iriSplitsAfterItsLastSlashOrHashBeforeTheEnd() {
        assertEquals("\u0002http://example.org/a/", prefixOf("http://example.org/a/b"));
        assertEquals("\u0002http://example.org/a#", prefixOf("http://example.org/a#b"));
        assertEquals("\u0002http://example.org/", prefixOf("http://example.org/a/"), "the local part is never empty");
        assertEquals("\u0002http://example.org/a/", prefixOf("http://example.org/a/b#"));
        assertEquals("", prefixOf("urn:isbn:0451450523"), "no '/' or '#': no prefix");
        assertEquals("", prefixOf("x:ab/cd"), "a prefix under 8 bytes is not worth a number");
        assertEquals("\u0002http://ab/", prefixOf("http://ab/c"));
    }

    private static String prefixOf(String iri) {
        byte[] key = TermKeys.encode(VF.createIRI(iri));
        return new String(key, 0, KeyPrefixes.split(key), StandardCharsets.UTF_8);
    }

    @Test
    void otherDatatypeLiteralSplitsAfterItsDatatype() {
        byte[] key = TermKeys.encode(VF.createLiteral("", VF.createIRI("http://example.org/types/USD")));
        assertEquals(key.length, KeyPrefixes.split(key), "an empty label leaves an empty suffix");
        assertEquals(0, KeyPrefixes.split(TermKeys.encode(VF.createLiteral("text that is long enough", "en"))));
        assertEquals(0, KeyPrefixes.split(TermKeys.encode(VF.createLiteral("a plain string of some length"))));
        assertEquals(0, KeyPrefixes.split(TermKeys.encode(VF.createBNode("node1234567890"))));
    }

    @Test
    void iriSharingANamespaceIsStoredAfterItsPrefixNumber() {
        byte[] first = roundTrip(VF.createIRI("http://example.org/products/Product1"));
        byte[] second = roundTrip(VF.createIRI("http://example.org/products/Product2"));
        assertEquals(TermValues.PREFIXED, first[0]);
        assertArrayEquals(new byte[] { TermValues.PREFIXED, 1, 'P', 'r', 'o', 'd', 'u', 'c', 't', '2' }, second);
        assertEquals(1, prefixes.size());
    }

    @Test
    void everyKindRoundTrips() {
        List<Value> terms = List.of(
                VF.createIRI("http://example.org/"), VF.createIRI("http://example.org/a/"),
                VF.createIRI("urn:x"), VF.createIRI("http://例え.jp/名前空間/ローカル名"),
                VF.createIRI("http://example.org/ns#"), VF.createIRI("http://example.org/ns#é"),
                VF.createIRI("http://example.org/" + "long/".repeat(60) + "end"),
                VF.createBNode("b0"), VF.createLiteral(""), VF.createLiteral("ünïcödé ☃ \uD83D\uDE00"),
                VF.createLiteral("Grüße", "de-CH"), VF.createLiteral("1.50", XSD.DECIMAL),
                VF.createLiteral("v", VF.createIRI("http://example.org/dt")),
                VF.createLiteral("\uD800 unpaired surrogate " + "word ".repeat(40)),
                VF.createLiteral("x".repeat(100_000), VF.createIRI("http://example.org/types/Big")));
        for (Value v : terms) {
            roundTrip(v);
        }
    }

    @Test
    void keysJustBelowTheCompressionThresholdStayWhole() {
        String text = "word ".repeat(100);
        byte[] atThreshold = TermKeys.encode(VF.createLiteral(text.substring(0, TermCompression.THRESHOLD - 1)));
        assertEquals(TermCompression.THRESHOLD, atThreshold.length);
        assertSame(atThreshold, TermValues.encode(atThreshold, this::intern));
        byte[] above = TermKeys.encode(VF.createLiteral(text.substring(0, TermCompression.THRESHOLD)));
        byte[] stored = roundTrip(VF.createLiteral(text.substring(0, TermCompression.THRESHOLD)));
        assertEquals(TermCompression.TAG, stored[0], "a repetitive key just over the threshold compresses");
        assertTrue(stored.length < above.length / 2);
    }

    @Test
    void incompressibleKeysStayWhole() {
        Random random = new Random(17);
        StringBuilder noise = new StringBuilder();
        for (int i = 0; i < TermCompression.THRESHOLD + 20; i++) {
            noise.append((char) (0x21 + random.nextInt(94)));
        }
        byte[] key = TermKeys.encode(VF.createLiteral(noise.toString()));
        assertSame(key, TermValues.encode(key, this::intern), "random printable ASCII does not shrink");
        roundTrip(VF.createLiteral(noise.toString()));
    }

    @Test
    void longIriTakesTheShorterOfCompressedAndPrefixed() {
        Value iri = VF.createIRI("http://example.org/" + "segment/".repeat(30) + "Local");
        byte[] stored = roundTrip(iri);
        assertEquals(TermValues.PREFIXED, stored[0], "1 + 1 + 5 bytes beat any compressed frame");
        assertEquals(7, stored.length);
    }

    @Test
    void aFullPrefixTableLeavesTheKeyWhole() {
        byte[] key = TermKeys.encode(VF.createIRI("http://example.org/products/Product1"));
        assertSame(key, TermValues.encode(key, (k, n) -> 0));
    }

    @Test
    void manyThreadsCompressAndDecompressAtOnce() throws Exception {
        int threads = 12;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                done.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    for (int i = 0; i < 300; i++) {
                        byte[] key = TermKeys.encode(VF.createLiteral(("w" + random.nextInt(50) + " ").repeat(40 + i)));
                        byte[] stored = TermCompression.compress(key);
                        assertArrayEquals(key, TermCompression.decompress(stored, ID));
                    }
                    return seed;
                }));
            }
            for (Future<Integer> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void corruptValuesNameTheTermId() {
        byte[] stored = TermCompression.compress(TermKeys.encode(VF.createLiteral("abc ".repeat(100))));
        byte[] damaged = stored.clone();
        damaged[damaged.length / 2] ^= 0x5A;
        damaged[damaged.length - 1] ^= 0x33;
        StoreException e = assertThrows(StoreException.class,
                () -> TermValues.decode(Arrays.copyOf(damaged, damaged.length - 3), ID, n -> null));
        assertTrue(e.getMessage().contains(TermIds.describe(ID)), e.getMessage());
        StoreException truncated = assertThrows(StoreException.class,
                () -> TermValues.decode(new byte[] { TermValues.PREFIXED, (byte) 0x80 }, ID, n -> null));
        assertTrue(truncated.getMessage().contains(TermIds.describe(ID)), truncated.getMessage());
    }
}
