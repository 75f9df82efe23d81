package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PrefetchedQuadsTest {
    private final ExecutorService executor = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    /** Quads (i, i+1, i+2, i+3) for i in [0, n); throws after {@code failAfter} quads if that is below n. */
    private static final class Counting implements SortedQuads {
        private final int n;
        private final int failAfter;
        private final long[] key = new long[4];
        private int i = -1;
        final AtomicBoolean closed = new AtomicBoolean();

        Counting(int n, int failAfter) {
            this.n = n;
            this.failAfter = failAfter;
        }

        @Override
        public boolean next() {
            if (i + 1 == failAfter) {
                throw new UncheckedIOException(new IOException("run file unreadable"));
            }
            if (++i >= n) {
                return false;
            }
            for (int k = 0; k < 4; k++) {
                key[k] = i + k;
            }
            return true;
        }

        @Override
        public long[] key() {
            return key;
        }

        @Override
        public void close() {
            closed.set(true);
        }
    }

    @Test
    void passesEveryQuadInOrderAcrossBlocks() {
        int n = 200_000; // many blocks: the arrays of blocks read are filled again
        Counting source = new Counting(n, Integer.MAX_VALUE);
        try (PrefetchedQuads quads = new PrefetchedQuads(source, executor)) {
            for (int i = 0; i < n; i++) {
                assertTrue(quads.next(), "quad " + i);
                assertArrayEquals(new long[] {i, i + 1, i + 2, i + 3}, quads.key());
            }
            assertFalse(quads.next());
            assertFalse(quads.next());
        }
        assertTrue(source.closed.get());
    }

    @Test
    void theSourcesFailureReachesTheConsumerAfterTheQuadsBeforeIt() {
        Counting source = new Counting(100_000, 20_000);
        try (PrefetchedQuads quads = new PrefetchedQuads(source, executor)) {
            int[] read = {0};
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> {
                while (quads.next()) {
                    read[0]++;
                }
            });
            assertTrue(e.getMessage().contains("run file unreadable"));
            assertEquals(20_000, read[0]);
            assertFalse(quads.next());
        }
        assertTrue(source.closed.get());
    }

    @Test
    void closingEarlyStopsTheProducerAndClosesTheSource() throws Exception {
        Counting source = new Counting(10_000_000, Integer.MAX_VALUE);
        PrefetchedQuads quads = new PrefetchedQuads(source, executor);
        assertTrue(quads.next());
        quads.close();
        assertTrue(source.closed.get());
        // the producer ended: the executor takes the next task at once
        assertEquals(7, executor.submit(() -> 7).get(10, java.util.concurrent.TimeUnit.SECONDS));
    }
}
