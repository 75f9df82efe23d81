package dev.basalt.store.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ClockCache} against a map model: a hit returns the value last put under the key (never
 * another key's, never a removed one), the weight bound holds after every put, re-read entries
 * survive a scan of entries read once, tombstones do not grow the table without bound,
 * concurrent readers and writers never see a value under the wrong key, evictions are counted, and
 * rehearsing eviction evicts in a scratch cache only.
 */
class ClockCacheTest {
    /** A value that knows its key, so a hit under the wrong key is visible. */
    private record Item(long key, int version, int weight) {
    }

    @ParameterizedTest
    @ValueSource(longs = { 1, 40, 1_000, 1_000_000 })
    void agreesWithAMapModelAndHoldsItsBound(long maxWeight) {
        ClockCache<Item> cache = new ClockCache<>(maxWeight, 4, Item::weight);
        Map<Long, Item> model = new HashMap<>();
        Random random = new Random(maxWeight);
        for (int step = 0; step < 200_000; step++) {
            long key = random.nextInt(5_000) * 0x1_0000_0040L; // strided, like record addresses
            int op = random.nextInt(10);
            if (op < 5) {
                Item hit = cache.get(key);
                if (hit != null) {
                    assertSame(model.get(key), hit, "a hit returns the value last put under its key");
                }
            } else if (op < 9) {
                Item item = new Item(key, step, 1 + random.nextInt(8));
                cache.put(key, item);
                model.put(key, item);
            } else {
                cache.invalidate(key);
                model.remove(key);
                assertNull(cache.get(key), "invalidated");
            }
            assertTrue(cache.weightedSize() <= maxWeight, "weight " + cache.weightedSize());
        }
        long weight = 0;
        long count = 0;
        for (var e : model.entrySet()) {
            Item hit = cache.get(e.getKey());
            if (hit != null) {
                assertSame(e.getValue(), hit);
                weight += hit.weight();
                count++;
            }
        }
        assertEquals(weight, cache.weightedSize(), "weighted size is the sum of what is cached");
        assertEquals(count, cache.size());
        if (maxWeight >= 1_000_000) {
            assertEquals(model.size(), count, "nothing evicted below the bound");
        }
    }

    @Test
    void entriesReadAgainSurviveAScanOfEntriesReadOnce() {
        ClockCache<Item> cache = new ClockCache<>(1_000, 1, Item::weight);
        for (long k = 0; k < 500; k++) {
            cache.put(k, new Item(k, 0, 1));
        }
        for (int round = 0; round < 20; round++) {
            for (long k = 0; k < 500; k++) {
                cache.get(k);
            }
            for (long k = 0; k < 100; k++) {
                long scanned = 1_000_000 + round * 100L + k;
                cache.put(scanned, new Item(scanned, 0, 1));
            }
        }
        int hot = 0;
        for (long k = 0; k < 500; k++) {
            hot += cache.get(k) != null ? 1 : 0;
        }
        assertTrue(hot >= 450, "hot entries still cached: " + hot + " of 500");
    }

    @Test
    void churnOfPutsAndRemovesKeepsTheCacheWorking() {
        ClockCache<Item> cache = new ClockCache<>(64, 1, Item::weight);
        for (long k = 0; k < 1_000_000; k++) {
            cache.put(k, new Item(k, 0, 1));
            if (k % 3 != 0) {
                cache.invalidate(k);
            }
            if (k % 3 == 0) {
                assertEquals(k, cache.get(k).key(), "the entry just put is cached");
            } else {
                assertNull(cache.get(k));
            }
        }
        assertTrue(cache.size() <= 64);
        cache.invalidateAll();
        assertEquals(0, cache.size());
        assertEquals(0, cache.weightedSize());
        assertNull(cache.get(999_999));
    }

    @Test
    void aValueHeavierThanASegmentIsNotCachedAndDropsTheOldOne() {
        ClockCache<Item> cache = new ClockCache<>(10, 1, Item::weight);
        cache.put(7, new Item(7, 0, 1));
        cache.put(7, new Item(7, 1, 11));
        assertNull(cache.get(7));
        assertEquals(0, cache.weightedSize());
        assertThrows(NullPointerException.class, () -> cache.put(1, null));
        assertThrows(IllegalArgumentException.class, () -> new ClockCache<Item>(-1, 1, Item::weight));
    }

    @Test
    void aHandleLosesItsValueWhenTheEntryLeavesTheCache() {
        ClockCache<Item> cache = new ClockCache<>(4, 1, Item::weight);
        Item first = new Item(1, 0, 1);
        ClockCache.Handle<Item> replaced = cache.put(1, first);
        assertSame(first, replaced.get());
        assertSame(replaced, cache.handle(1));
        ClockCache.Handle<Item> current = cache.put(1, new Item(1, 1, 1));
        assertNull(replaced.get(), "a replaced entry holds no value");
        cache.invalidate(1);
        assertNull(current.get(), "an invalidated entry holds no value");
        List<ClockCache.Handle<Item>> handles = new ArrayList<>();
        for (long k = 10; k < 30; k++) {
            handles.add(cache.put(k, new Item(k, 0, 1)));
        }
        long held = handles.stream().filter(h -> h.get() != null).count();
        assertEquals(cache.size(), held, "only cached entries hold values: evicted ones were cleared");
        assertTrue(held <= 4);
        cache.invalidateAll();
        assertTrue(handles.stream().allMatch(h -> h.get() == null), "cleared by invalidateAll");
    }

    @Test
    void evictionsCountTheClockHandsEvictionsOnly() {
        ClockCache<Item> cache = new ClockCache<>(4, 1, Item::weight);
        for (long k = 0; k < 4; k++) {
            cache.put(k, new Item(k, 0, 1));
        }
        cache.put(0, new Item(0, 1, 1));
        cache.invalidate(1);
        assertEquals(0, cache.evictions(), "replacing and invalidating evict nothing");
        for (long k = 10; k < 20; k++) {
            cache.put(k, new Item(k, 0, 1));
        }
        assertEquals(3 + 10 - 4, cache.evictions(), "3 left after the invalidation, 10 added, 4 fit");
        cache.invalidateAll();
        assertEquals(9, cache.evictions(), "clearing evicts nothing");
    }

    @Test
    void rehearsingEvictionEvictsInAScratchCacheAndLeavesTheCacheAsItWas() {
        ClockCache<Item> cache = new ClockCache<>(100_000, 1, Item::weight);
        Map<Long, Item> model = new HashMap<>();
        Random random = new Random(7);
        for (long k = 0; k < 20_000; k++) {
            Item item = new Item(k, 0, 1 + random.nextInt(3));
            cache.put(k * 0x1_0000_0040L, item);
            model.put(k * 0x1_0000_0040L, item);
        }
        for (long k = 0; k < 20_000; k += 3) {
            cache.get(k * 0x1_0000_0040L);
        }
        Map<Long, Boolean> referenced = new HashMap<>();
        model.keySet().forEach(k -> referenced.put(k, cache.handle(k).referenced));
        long size = cache.size();
        long weight = cache.weightedSize();

        long evictions = cache.rehearseEviction(4_096);

        assertTrue(evictions > 4_096, "the scratch cache holds a quarter of the sample's weight: " + evictions);
        assertEquals(0, cache.evictions());
        assertEquals(size, cache.size());
        assertEquals(weight, cache.weightedSize());
        for (var e : model.entrySet()) {
            ClockCache.Handle<Item> h = cache.handle(e.getKey());
            assertEquals(referenced.get(e.getKey()), h.referenced, "reference bit of " + e.getKey());
            assertSame(e.getValue(), h.get());
        }
    }

    @Test
    void rehearsingAnEmptyCacheOrASmallSampleIsHarmless() {
        ClockCache<Item> empty = new ClockCache<>(1_000, 1, Item::weight);
        assertEquals(0, empty.rehearseEviction(4_096));
        ClockCache<Item> one = new ClockCache<>(1_000, 1, Item::weight);
        one.put(1, new Item(1, 0, 5));
        assertEquals(0, one.rehearseEviction(4_096), "one value outweighs the scratch cache and is not cached");
        assertSame(one.get(1), one.handle(1).get());
        assertEquals(0, one.rehearseEviction(0));
    }

    @Test
    void zeroBoundCachesNothing() {
        ClockCache<Item> cache = new ClockCache<>(0, 1, Item::weight);
        cache.put(1, new Item(1, 0, 1));
        assertNull(cache.get(1));
    }

    @Test
    void concurrentReadersNeverSeeAnotherKeysValue() throws Exception {
        ClockCache<Item> cache = new ClockCache<>(20_000, 1, Item::weight);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int seed = t;
            threads.add(new Thread(() -> {
                Random random = new Random(seed);
                try {
                    for (int i = 0; i < 400_000; i++) {
                        long key = random.nextInt(50_000);
                        switch (random.nextInt(8)) {
                            case 0, 1 -> cache.put(key, new Item(key, i, 1 + random.nextInt(3)));
                            case 2 -> cache.invalidate(key);
                            default -> {
                                Item hit = cache.get(key);
                                if (hit != null && hit.key() != key) {
                                    throw new AssertionError("key " + key + " returned " + hit);
                                }
                            }
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertTrue(cache.weightedSize() <= 20_000);
    }
}
