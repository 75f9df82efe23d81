package dev.basalt.sail.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
    private static final int IO_BUFFER = 1 << 18;

    private SortRuns() {
    }

    /** Writes records {@code [0, n)} of {@code q} to {@code file}; returns the bytes written. */
    static long write(Path file, long[] q, int n) {
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.allocate(IO_BUFFER);
            for (int r = 0; r < 4 * n; r++) {
                if (!buf.hasRemaining()) {
                    drain(out, buf);
                }
                buf.putLong(q[r]);
            }
            drain(out, buf);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the sort run " + file + ": " + e.getMessage(), e);
        }
        return 32L * n;
    }

    private static void drain(FileChannel out, ByteBuffer buf) throws IOException {
        buf.flip();
        while (buf.hasRemaining()) {
            out.write(buf);
        }
        buf.clear();
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
        private final ByteBuffer buf = ByteBuffer.allocate(IO_BUFFER);
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
            if (buf.remaining() < 32 && !fill()) {
                return false;
            }
            head[0] = buf.getLong();
            head[1] = buf.getLong();
            head[2] = buf.getLong();
            head[3] = buf.getLong();
            return true;
        }

        /** Refills the buffer; false at the end of the file. Runs hold whole 32-byte records. */
        private boolean fill() {
            try {
                buf.compact();
                while (buf.position() < 32) {
                    if (in.read(buf) < 0) {
                        buf.flip();
                        if (buf.hasRemaining()) {
                            throw new UncheckedIOException(new IOException("sort run " + file + " is truncated: "
                                    + buf.remaining() + " bytes after the last whole quad"));
                        }
                        return false;
                    }
                }
                buf.flip();
                return true;
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
