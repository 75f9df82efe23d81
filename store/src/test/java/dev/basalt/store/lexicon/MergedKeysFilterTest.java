package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The merged-key filter never says "absent" for a key it was given, and says "present" for few others. */
class MergedKeysFilterTest {
    private static byte[] key(String prefix, int i) {
        return (prefix + i).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void emptyFilterHoldsNothing() {
        assertFalse(new MergedKeysFilter().mightContain(key("a", 1)));
    }

    @Test
    void everyAddedKeyIsFoundAndFewOthersAre() {
        MergedKeysFilter filter = new MergedKeysFilter();
        int[] merges = { 30_000, 1, 7, 50_000 };
        int next = 0;
        for (int n : merges) {
            assertTrue(filter.startMerge(n, Long.MAX_VALUE));
            for (int i = 0; i < n; i++) {
                filter.add(key("http://example.org/product/", next + i));
            }
            next += n;
        }
        for (int i = 0; i < next; i++) {
            assertTrue(filter.mightContain(key("http://example.org/product/", i)), "added key " + i);
        }
        int others = 100_000;
        int falsePositives = 0;
        Random rnd = new Random(37);
        for (int i = 0; i < others; i++) {
            byte[] k = i % 2 == 0 ? key("http://example.org/product/", next + i) : new byte[1 + rnd.nextInt(40)];
            if (i % 2 != 0) {
                rnd.nextBytes(k);
            }
            if (filter.mightContain(k)) {
                falsePositives++;
            }
        }
        // four filters of about 1% each: well under 10% of the keys never added
        assertTrue(falsePositives < others / 10, "false positives: " + falsePositives);
        assertTrue(falsePositives > 0, "a Bloom filter of 10 bits a key has some false positives");
    }

    @Test
    void filtersPastTheirLimitAreDroppedAndHoldEveryKey() {
        MergedKeysFilter filter = new MergedKeysFilter();
        assertTrue(filter.startMerge(1_000, 10_000));
        filter.add(key("a", 1));
        assertFalse(filter.mightContain(key("b", 1)));
        assertFalse(filter.startMerge(100_000, 10_000), "the second filter would pass the limit");
        assertTrue(filter.dropped());
        assertEquals(0, filter.bytes());
        assertTrue(filter.mightContain(key("b", 1)), "dropped: any key may have been merged");
        assertFalse(filter.startMerge(1, Long.MAX_VALUE), "dropped for good");
    }

    @Test
    void bytesFollowTheKeys() {
        MergedKeysFilter filter = new MergedKeysFilter();
        assertTrue(filter.startMerge(1_000_000, Long.MAX_VALUE));
        long bytes = filter.bytes();
        assertTrue(bytes >= 1_000_000L * MergedKeysFilter.BITS_PER_KEY / 8 && bytes < 1_000_000L * 2, "bytes " + bytes);
    }
}
