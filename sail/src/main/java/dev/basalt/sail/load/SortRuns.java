package dev.basalt.sail.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import dev.basalt.store.quads.QuadSort;

/**
 * The sorted run files of an external quad sort: writing one (32 bytes per quad, four big-endian
 * ids in key order) and merging several into one stream of distinct quads. A run file is written
 * and read by the loader only, in its temporary directory; it carries no header.
 *
 * <p>Thread-safe: stateless helpers; each run file and merged stream is used by one thread.
 */
final class SortRuns {
    private static final int IO_BUFFER = 1 << 18;

    private SortRuns() {
    }

    /** Writes records {@code [0, n)} of {@code q} to {@code file}; returns the bytes written. */
    static long write(Path file, long[] q, int n) {
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(IO_BUFFER); // a heap buffer would be copied into a direct one
            LongBuffer longs = buf.asLongBuffer();
            int total = 4 * n;
            for (int at = 0; at < total; ) {
                int k = Math.min(longs.capacity(), total - at);
                longs.clear();
                longs.put(q, at, k); // one byte-swapping copy, not a put per long
                buf.clear().limit(8 * k);
                while (buf.hasRemaining()) {
                    out.write(buf);
                }
                at += k;
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

    /** One sorted run file, read sequentially in blocks. */
    private static final class Reader {
        private final Path file;
        private final FileChannel in;
        private final ByteBuffer buf = ByteBuffer.allocateDirect(IO_BUFFER);
        /** The buffer's records as longs, {@code [at, count)} not yet read. */
        private final long[] block = new long[IO_BUFFER / 8];
        private int at;
        private int count;
        final long[] head = new long[4];

        Reader(Path file) {
            this.file = file;
            try {
                this.in = FileChannel.open(file, StandardOpenOption.READ);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the sort run " + file + ": " + e.getMessage(), e);
            }
            buf.flip();
        }

        boolean advance() {
            if (at == count && !fill()) {
                return false;
            }
            head[0] = block[at];
            head[1] = block[at + 1];
            head[2] = block[at + 2];
            head[3] = block[at + 3];
            at += 4;
            return true;
        }

        /** Reads the next block of whole records; false at the end of the file. */
        private boolean fill() {
            try {
                buf.clear();
                int read = 0;
                while (buf.hasRemaining() && read >= 0) { // a full buffer holds whole records (IO_BUFFER = 2^18)
                    read = in.read(buf);
                }
                buf.flip();
                int bytes = buf.remaining();
                if (bytes % 32 != 0) {
                    throw new UncheckedIOException(new IOException("sort run " + file + " is truncated: "
                            + bytes % 32 + " bytes after the last whole quad"));
                }
                buf.asLongBuffer().get(block, 0, bytes / 8);
                at = 0;
                count = bytes / 8;
                return count > 0;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the sort run " + file + ": " + e.getMessage(), e);
            }
        }

        void close() {
            try {
                in.close();
            } catch (IOException ignored) {
                // read-only temporary file
            }
        }
    }

    /**
     * K-way merge of sorted runs, dropping quads equal to the previous one: a binary heap of the
     * readers by their head quad; taking a quad advances the top reader and sifts it down once.
     */
    private static final class Merged implements SortedQuads {
        private final List<Reader> readers = new java.util.ArrayList<>();
        /** Readers with a head quad, {@code [0, size)}, a min-heap by head. */
        private Reader[] heap = new Reader[0];
        private int size;
        private final long[] key = new long[4];
        private boolean started;

        void add(Reader r) {
            readers.add(r);
            if (r.advance()) {
                heap = java.util.Arrays.copyOf(heap, size + 1);
                heap[size++] = r;
                for (int i = size / 2 - 1; i >= 0; i--) {
                    siftDown(i);
                }
            }
        }

        @Override
        public boolean next() {
            while (size > 0) {
                Reader r = heap[0];
                boolean duplicate = started && QuadSort.compare(r.head, 0, key, 0) == 0;
                if (!duplicate) {
                    System.arraycopy(r.head, 0, key, 0, 4);
                }
                if (!r.advance()) {
                    heap[0] = heap[--size];
                    heap[size] = null;
                }
                if (size > 1) {
                    siftDown(0);
                }
                if (!duplicate) {
                    started = true;
                    return true;
                }
            }
            return false;
        }

        private void siftDown(int i) {
            Reader r = heap[i];
            while (true) {
                int child = 2 * i + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && QuadSort.compare(heap[child + 1].head, 0, heap[child].head, 0) < 0) {
                    child++;
                }
                if (QuadSort.compare(heap[child].head, 0, r.head, 0) >= 0) {
                    break;
                }
                heap[i] = heap[child];
                i = child;
            }
            heap[i] = r;
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
