package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/**
 * {@link DerivedNumbers}: a hit is the number put for that id (never another id's), the table grows
 * past its first size and holds nothing more once full, clearing forgets everything, and threads
 * putting and reading at once, also while it grows, never read a wrong number.
 */
class DerivedNumbersTest {
    /** The number the tests derive from an id: any pure function of it, never MISSING. */
    private static long numberOf(long id) {
        return id * 31 + 7;
    }

    @Test
    void holdsWhatIsPutAndGrows() {
        DerivedNumbers table = new DerivedNumbers(100_000);
        for (long id = 1; id <= 50_000; id++) {
            assertEquals(DerivedNumbers.MISSING, table.get(id));
            table.put(id, numberOf(id));
        }
        int held = 0;
        for (long id = 1; id <= 50_000; id++) {
            long n = table.get(id);
            if (n != DerivedNumbers.MISSING) {
                assertEquals(numberOf(id), n, "id " + id);
                held++;
            }
        }
        // far past the first table of 4,096 slots; a probe is bounded, so a few may be dropped
        assertTrue(held > 49_000, held + " held");
        assertEquals(DerivedNumbers.MISSING, table.get(50_001));
        table.clear();
        assertEquals(DerivedNumbers.MISSING, table.get(1));
        assertEquals(0, table.size());
    }

    @Test
    void aFullTableAddsNothingMore() {
        DerivedNumbers table = new DerivedNumbers(8);
        assertEquals(16, table.maxSlots());
        for (long id = 1; id <= 100; id++) {
            table.put(id, numberOf(id));
        }
        int held = 0;
        for (long id = 1; id <= 100; id++) {
            long n = table.get(id);
            if (n != DerivedNumbers.MISSING) {
                assertEquals(numberOf(id), n);
                held++;
            }
        }
        assertTrue(held > 0 && held <= 8, held + " held");
    }

    @Test
    void aBatchOfLookupsGivesWhatEachLookupGives() {
        Random random = new Random(17);
        for (int maxEntries : new int[] {8, 1_000, 100_000}) {
            DerivedNumbers table = new DerivedNumbers(maxEntries);
            // ids that share home slots and probe chains: a range of small ids and random ones
            for (int i = 0; i < 3 * maxEntries; i++) {
                long id = random.nextBoolean() ? 1 + random.nextInt(4 * maxEntries) : random.nextLong() | 1;
                table.put(id, numberOf(id));
            }
            long[] ids = new long[1024];
            long[] out = new long[1024];
            for (int round = 0; round < 50; round++) {
                int n = random.nextInt(ids.length + 1);
                for (int i = 0; i < n; i++) {
                    ids[i] = random.nextInt(3) == 0 ? random.nextLong() : 1 + random.nextInt(4 * maxEntries);
                }
                if (round % 2 == 1) {
                    // runs of one id, as a scan in the order of the ids gives them
                    for (int i = 1; i < n; i++) {
                        if (random.nextInt(3) > 0) {
                            ids[i] = ids[i - 1];
                        }
                    }
                }
                table.getAll(ids, n, out);
                for (int i = 0; i < n; i++) {
                    assertEquals(table.get(ids[i]), out[i], "id " + ids[i] + " of " + n + ", table of " + maxEntries);
                }
            }
            table.clear();
            table.getAll(new long[] {1, 2}, 2, out);
            assertEquals(DerivedNumbers.MISSING, out[0]);
            assertEquals(DerivedNumbers.MISSING, out[1]);
        }
    }

    @Test
    void refusesTheReservedValues() {
        DerivedNumbers table = new DerivedNumbers(8);
        assertThrows(IllegalArgumentException.class, () -> table.put(0, 1));
        assertThrows(IllegalArgumentException.class, () -> table.put(1, DerivedNumbers.MISSING));
    }

    @Test
    void concurrentPutsAndReadsNeverReadAWrongNumber() throws InterruptedException {
        DerivedNumbers table = new DerivedNumbers(1 << 16);
        AtomicReference<String> wrong = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            long seed = t;
            threads.add(new Thread(() -> {
                Random r = new Random(seed);
                for (int i = 0; i < 400_000 && wrong.get() == null; i++) {
                    long id = 1 + r.nextInt(100_000);
                    long n = table.get(id);
                    if (n == DerivedNumbers.MISSING) {
                        table.put(id, numberOf(id));
                    } else if (n != numberOf(id)) {
                        wrong.set("id " + id + " read " + n);
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(null, wrong.get());
        assertTrue(table.size() > 4_096, "grew: " + table.size());
    }

    /**
     * Two tables sharing a budget: neither allocates past it, each still returns only what was put,
     * and clearing one gives its bytes back for the other to grow into.
     */
    @Test
    void tablesGrowOnlyWithinTheirSharedBudget() {
        DerivedBudget budget = new DerivedBudget(40_000);
        DerivedNumbers a = new DerivedNumbers(1 << 20, budget);
        DerivedNumbers b = new DerivedNumbers(1 << 20, budget);
        for (long id = 1; id <= 50_000; id++) {
            a.put(id, id << 6);
            b.put(id, id << 7);
            assertTrue(a.tableBytes() + b.tableBytes() <= 40_000, "within the budget");
            assertEquals(a.tableBytes() + b.tableBytes(), budget.used(), "every array is reserved");
        }
        int heldA = 0;
        for (long id = 1; id <= 50_000; id++) {
            long n = a.get(id);
            assertTrue(n == DerivedNumbers.MISSING || n == id << 6);
            heldA += n == DerivedNumbers.MISSING ? 0 : 1;
            long m = b.get(id);
            assertTrue(m == DerivedNumbers.MISSING || m == id << 7);
        }
        assertTrue(heldA > 0 && heldA < 50_000, "some held, not all: " + heldA);
        long before = b.tableBytes();
        a.clear();
        for (long id = 1; id <= 50_000; id++) {
            b.put(id, id << 7);
        }
        assertTrue(b.tableBytes() > before, "b grows into what a gave back");
        assertEquals(a.tableBytes() + b.tableBytes(), budget.used());
        DerivedNumbers none = new DerivedNumbers(1 << 20, new DerivedBudget(0));
        none.put(5, 64);
        assertEquals(DerivedNumbers.MISSING, none.get(5), "a budget of 0 holds nothing");
        assertEquals(0, none.tableBytes());
    }
}
