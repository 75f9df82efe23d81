package dev.basalt.sail.load;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

import dev.basalt.store.quads.QuadOrder;

/**
 * External sort of the quads of one load, for every statement index order at once, in bounded
 * memory. Quads are appended (ids in S, P, O, C positions) to one buffer of {@code capacity}
 * quads; when it is full, for each order the buffer is permuted into that order's key positions,
 * sorted, deduplicated and written as a sorted <em>run</em> file (32 bytes per quad). At the end
 * {@link #sorted(int)} merges an order's runs into one stream of distinct quads; if nothing was
 * spilled, the buffer is sorted in memory instead. Memory: two buffers of {@code capacity} quads.
 * Not thread-safe.
 */
final class QuadSorter implements AutoCloseable {
    private static final int IO_BUFFER = 1 << 16;

    private final List<QuadOrder> orders;
    private final Path tempDir;
    private final long[] buffer;
    private final long[] scratch;
    private final int capacity;
    private int count;
    private final List<List<Path>> runs = new ArrayList<>();
    private long spilledBytes;
    private int runCounter;

    QuadSorter(List<QuadOrder> orders, Path tempDir, int capacity) {
        this.orders = List.copyOf(orders);
        this.tempDir = tempDir;
        this.capacity = capacity;
        this.buffer = new long[4 * capacity];
        this.scratch = new long[4 * capacity];
        for (int i = 0; i < orders.size(); i++) {
            runs.add(new ArrayList<>());
        }
    }

    /** Appends a quad with ids in S, P, O, C positions. */
    void add(long[] quad) {
        if (count == capacity) {
            spill();
        }
        System.arraycopy(quad, 0, buffer, 4 * count, 4);
        count++;
    }

    /** Bytes written to run files so far. */
    long spilledBytes() {
        return spilledBytes;
    }

    /** Number of run files per order so far. */
    int runs() {
        return runs.get(0).size();
    }

    /** Writes the buffered quads as one sorted run per order and empties the buffer. */
    private void spill() {
        for (int i = 0; i < orders.size(); i++) {
            int n = permuteAndSort(orders.get(i));
            Path file = tempDir.resolve("run-" + orders.get(i).name() + "-" + (runCounter++) + ".quads");
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), IO_BUFFER))) {
                for (int r = 0; r < 4 * n; r++) {
                    out.writeLong(scratch[r]);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the sort run " + file + ": " + e.getMessage(), e);
            }
            spilledBytes += 32L * n;
            runs.get(i).add(file);
        }
        count = 0;
    }

    /** Copies the buffer into {@code scratch} in the order's key positions, sorts and dedups it; returns the count. */
    private int permuteAndSort(QuadOrder order) {
        int[] from = positions(order);
        for (int r = 0; r < count; r++) {
            int b = 4 * r;
            scratch[b] = buffer[b + from[0]];
            scratch[b + 1] = buffer[b + from[1]];
            scratch[b + 2] = buffer[b + from[2]];
            scratch[b + 3] = buffer[b + from[3]];
        }
        QuadSort.sort(scratch, count);
        int n = 0;
        for (int r = 0; r < count; r++) {
            if (n > 0 && QuadSort.compare(scratch, r, n - 1) == 0) {
                continue;
            }
            if (n != r) {
                System.arraycopy(scratch, 4 * r, scratch, 4 * n, 4);
            }
            n++;
        }
        return n;
    }

    /** positions[i] = which S, P, O, C position stands i-th in the order's key. */
    private static int[] positions(QuadOrder order) {
        int[] p = new int[4];
        for (int i = 0; i < 4; i++) {
            p[i] = "spoc".indexOf(order.name().charAt(i));
        }
        return p;
    }

    /**
     * The distinct quads of the load in key order of order {@code i}. Call once per order after
     * the last {@link #add}; the in-memory buffer is reused, so close one stream before the next.
     */
    SortedQuads sorted(int i) {
        if (runs.get(i).isEmpty()) {
            int n = permuteAndSort(orders.get(i));
            return new ArrayQuads(scratch, n);
        }
        if (count > 0) {
            spill();
        }
        List<RunReader> readers = new ArrayList<>();
        try {
            for (Path file : runs.get(i)) {
                readers.add(new RunReader(file));
            }
        } catch (RuntimeException e) {
            readers.forEach(RunReader::close);
            throw e;
        }
        return new MergedQuads(readers);
    }

    @Override
    public void close() {
        for (List<Path> files : runs) {
            for (Path f : files) {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException ignored) {
                    // the loader deletes its temporary directory as a whole afterwards
                }
            }
        }
    }

    /** Sorted distinct quads in an array. */
    private static final class ArrayQuads implements SortedQuads {
        private final long[] q;
        private final int n;
        private final long[] key = new long[4];
        private int next;

        ArrayQuads(long[] q, int n) {
            this.q = q;
            this.n = n;
        }

        @Override
        public boolean next() {
            if (next == n) {
                return false;
            }
            System.arraycopy(q, 4 * next++, key, 0, 4);
            return true;
        }

        @Override
        public long[] key() {
            return key;
        }

        @Override
        public void close() {
        }
    }

    /** One sorted run file, read sequentially. */
    private static final class RunReader {
        private final Path file;
        private final DataInputStream in;
        final long[] head = new long[4];

        RunReader(Path file) {
            this.file = file;
            try {
                this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), IO_BUFFER));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the sort run " + file + ": " + e.getMessage(), e);
            }
        }

        boolean advance() {
            try {
                head[0] = in.readLong();
            } catch (EOFException end) {
                return false;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the sort run " + file + ": " + e.getMessage(), e);
            }
            try {
                head[1] = in.readLong();
                head[2] = in.readLong();
                head[3] = in.readLong();
            } catch (IOException e) {
                throw new UncheckedIOException("sort run " + file + " is truncated: " + e.getMessage(), e);
            }
            return true;
        }

        void close() {
            try {
                in.close();
            } catch (IOException ignored) {
                // read-only temporary file
            }
        }
    }

    /** K-way merge of sorted runs, dropping quads equal to the previous one. */
    private static final class MergedQuads implements SortedQuads {
        private final List<RunReader> readers;
        private final PriorityQueue<RunReader> heap = new PriorityQueue<>((a, b) -> QuadSort.compare(a.head, 0, b.head, 0));
        private final long[] key = new long[4];
        private boolean started;

        MergedQuads(List<RunReader> readers) {
            this.readers = readers;
            for (RunReader r : readers) {
                if (r.advance()) {
                    heap.add(r);
                }
            }
        }

        @Override
        public boolean next() {
            while (!heap.isEmpty()) {
                RunReader r = heap.poll();
                boolean duplicate = started && QuadSort.compare(r.head, 0, key, 0) == 0;
                if (!duplicate) {
                    System.arraycopy(r.head, 0, key, 0, 4);
                }
                if (r.advance()) {
                    heap.add(r);
                }
                if (!duplicate) {
                    started = true;
                    return true;
                }
            }
            return false;
        }

        @Override
        public long[] key() {
            return key;
        }

        @Override
        public void close() {
            readers.forEach(RunReader::close);
        }
    }
}
