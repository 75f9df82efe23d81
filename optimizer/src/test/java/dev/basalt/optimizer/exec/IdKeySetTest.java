package dev.basalt.optimizer.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/** {@link IdKeySet} against a map of counts: repeated ids, ids of several kinds, its memory bound, its probe and its drain. */
class IdKeySetTest {
    private static long randomId(Random r) {
        // IRIs of a dense range (repeats), IRIs far apart (a page each), literals and inline dates (negative longs)
        return switch (r.nextInt(4)) {
            case 0 -> 0x2000_0000_0000_0000L | 1 + r.nextInt(300_000);
            case 1 -> 0x2000_0000_0000_0000L | (long) r.nextInt(1 << 20) << 24;
            case 2 -> 0x3000_0000_0000_0000L | 1 + r.nextInt(5_000);
            default -> 0xC000_0000_0000_0000L | r.nextInt(1 << 18);
        };
    }

    @Test
    void countsAsAMultiset() {
        Random r = new Random(7);
        IdKeySet set = new IdKeySet(Long.MAX_VALUE / 2);
        Map<Long, Long> model = new TreeMap<>(Long::compareUnsigned);
        long[] batch = new long[Batch.CAPACITY];
        for (int round = 0; round < 40; round++) {
            for (int i = 0; i < batch.length; i++) {
                batch[i] = randomId(r);
                model.merge(batch[i], 1L, Long::sum);
            }
            assertEquals(batch.length, set.addAll(batch, batch.length));
        }
        assertEquals(model.size(), set.size());
        for (var e : model.entrySet()) {
            assertEquals(e.getValue(), set.count(e.getKey()), "id " + Long.toHexString(e.getKey()));
        }
        for (int i = 0; i < 10_000; i++) {
            long probe = randomId(r);
            assertEquals(model.getOrDefault(probe, 0L), set.count(probe));
        }
        long[] ids = model.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
        assertArrayEquals(ids, set.ids());
    }

    @Test
    void probeAddsEachKeysCountToItsOutKey() {
        IdKeySet set = new IdKeySet(1 << 20);
        long[] keys = {10, 11, 11, 500_000, 0x2000_0000_0000_0005L};
        set.addAll(keys, keys.length);
        long[] probeKeys = {11, 12, 10, 500_000, 0x2000_0000_0000_0005L, 11};
        long[] outKeys = {1, 1, 1, 2, 2, 3};
        IdSums out = new IdSums(8);
        set.probe(probeKeys, outKeys, null, probeKeys.length, out);
        // out key 1: 2 (11 twice) + 0 (12) + 1 (10); out key 2: 1 + 1; out key 3: 2
        assertEquals(3, out.count(out.entry(1)));
        assertEquals(2, out.count(out.entry(2)));
        assertEquals(2, out.count(out.entry(3)));
        IdSums sums = new IdSums(8);
        // packed numbers: 7 and 5 (scale 0); the sum is the number times the key's count
        set.probe(new long[] {11, 10}, new long[] {4, 4}, new long[] {7L << 6, 5L << 6}, 2, sums);
        assertEquals(3, sums.count(sums.entry(4)));
        assertEquals(2 * 7 + 5, sums.sum(sums.entry(4)));
    }

    @Test
    void takesNoMorePastItsMemory() {
        // two pages' worth of longs: ids three pages apart fill it at the third
        IdKeySet set = new IdKeySet(2L * IdKeySet.PAGE_LONGS);
        long page = 1L << IdKeySet.PAGE_BITS;
        long[] ids = {5, 5 + page, 5 + 2 * page, 6};
        assertEquals(2, set.addAll(ids, ids.length));
        assertEquals(2, set.pages());
        // repeats past a sixteenth of the memory (at least 64 ids) stop it too
        IdKeySet repeats = new IdKeySet(2L * IdKeySet.PAGE_LONGS);
        long[] twice = new long[400];
        for (int i = 0; i < 200; i++) {
            twice[2 * i] = i + 1;
            twice[2 * i + 1] = i + 1;
        }
        assertEquals(2 * 128 + 1, repeats.addAll(twice, twice.length));
    }

    @Test
    void drainsEveryIdAsOftenAsItWasAdded() {
        Random r = new Random(11);
        IdKeySet set = new IdKeySet(Long.MAX_VALUE / 2);
        List<Long> added = new ArrayList<>();
        long[] batch = new long[3000];
        for (int i = 0; i < batch.length; i++) {
            batch[i] = randomId(r);
            added.add(batch[i]);
        }
        set.addAll(batch, batch.length);
        List<Long> back = new ArrayList<>();
        try (RowPartitions rows = new RowPartitions(batch.length, 1, Long.MAX_VALUE, ExecLimits.defaults())) {
            set.drainTo(rows);
            for (int p = 0; p < rows.partitions(); p++) {
                long[] held = rows.rows(p);
                for (int i = 0; i < rows.used(p); i++) {
                    back.add(held[i]);
                }
            }
        }
        Collections.sort(added);
        Collections.sort(back);
        assertEquals(added, back);
        assertEquals(0, set.size());
        assertTrue(set.count(batch[0]) == 0, "a drained set holds nothing");
    }
}
