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
import java.util.List;
import java.util.PriorityQueue;

import dev.basalt.store.quads.QuadSort;

/**
 * The sorted run files of an external quad sort: writing one (32 bytes per quad, four big-endian
 * ids in key order) and merging several into one stream of distinct quads. A run file is written
 * and read by the loader only, in its temporary directory; it carries no header.
 *
 * <p>Thread-safe: stateless helpers; each run file and merged stream is used by one thread.
 */
final class SortRuns {
    private static final int IO_BUFFER = 1 << 16;

    private SortRuns() {
    }

    /** Writes records {@code [0, n)} of {@code q} to {@code file}; returns the bytes written. */
    static long write(Path file, long[] q, int n) {
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), IO_BUFFER))) {
            for (int r = 0; r < 4 * n; r++) {
                out.writeLong(q[r]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the sort run " + file + ": " + e.getMessage(), e);
        }
        return 32L * n;
    }

    /** The distinct quads of sorted run files, merged; closing it closes every file. */
    static SortedQuads merge(List<Path> files) {
        Merged merged = new Merged();
        try {
            for (Path file : files) {
                merged.add(new Reader(file));
            }
        } catch (RuntimeException e) {
            merged.close();
            throw e;
        }
        return merged;
    }

    /** Sorted distinct quads in an array, records {@code [0, n)}. */
    static SortedQuads of(long[] q, int n) {
        return new SortedQuads() {
            private final long[] key = new long[4];
            private int next;

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
        };
    }

    /** One sorted run file, read sequentially. */
    private static final class Reader {
        private final Path file;
        private final DataInputStream in;
        final long[] head = new long[4];

        Reader(Path file) {
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
    private static final class Merged implements SortedQuads {
        private final List<Reader> readers = new java.util.ArrayList<>();
        private final PriorityQueue<Reader> heap = new PriorityQueue<>((a, b) -> QuadSort.compare(a.head, 0, b.head, 0));
        private final long[] key = new long[4];
        private boolean started;

        void add(Reader r) {
            readers.add(r);
            if (r.advance()) {
                heap.add(r);
            }
        }

        @Override
        public boolean next() {
            while (!heap.isEmpty()) {
                Reader r = heap.poll();
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
            readers.forEach(Reader::close);
        }
    }
}
