package dev.basalt.sail.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import dev.basalt.store.quads.QuadSort;

/**
 * The sorted run files of an external quad sort: writing one and merging several into one stream
 * of distinct quads. A run file is written and read by the loader only, in its temporary
 * directory: the number of quads (8 bytes, big-endian), then each quad coded against the one
 * before it (the first against four zeros), as {@link #put} says: consecutive sorted quads share
 * leading ids and differ little in the rest, so a quad takes about a quarter of its 32 bytes.
 *
 * <p>Thread-safe: stateless helpers; each run file and merged stream is used by one thread.
 */
final class SortRuns {
    private static final int IO_BUFFER = 1 << 18;
    /** The most bytes one coded quad takes: a byte, then four varints of up to 10 bytes. */
    private static final int MAX_QUAD_BYTES = 1 + 4 * 10;
    private static final int COUNT_BYTES = 8;

    private SortRuns() {
    }

    /** Writes records {@code [0, n)} of {@code q} (sorted, in key order) to {@code file}; returns the bytes written. */
    static long write(Path file, long[] q, int n) {
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(IO_BUFFER); // a heap buffer would be copied into a direct one
            byte[] bytes = new byte[IO_BUFFER];
            ByteBuffer.wrap(bytes).putLong(n);
            int at = COUNT_BYTES;
            long written = 0;
            for (int i = 0; i < n; i++) {
                if (at > IO_BUFFER - MAX_QUAD_BYTES) {
                    written += flush(out, buf, bytes, at);
                    at = 0;
                }
                at = put(bytes, at, q, 4 * i, i == 0 ? -1 : 4 * (i - 1));
            }
            return written + flush(out, buf, bytes, at);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the sort run " + file + ": " + e.getMessage(), e);
        }
    }

    private static int flush(FileChannel out, ByteBuffer buf, byte[] bytes, int n) throws IOException {
        buf.clear();
        buf.put(bytes, 0, n).flip();
        while (buf.hasRemaining()) {
            out.write(buf);
        }
        return n;
    }

    /**
     * Codes quad {@code q[at..at+3]} after quad {@code q[prev..prev+3]} (four zeros if {@code prev}
     * is negative) into {@code out} from {@code pos}; returns the position after it. A byte names the
     * first id that differs from the previous quad's, {@code d} (0-3; 4 if none does); then id
     * {@code d}'s increase over the previous quad's as an unsigned varint (the quads are sorted, so it
     * is positive), then each later id's difference from the previous quad's id at its place, zigzag
     * coded, as a varint (7 bits a byte, least significant first, high bit set on all but the last).
     */
    static int put(byte[] out, int pos, long[] q, int at, int prev) {
        int d = 0;
        while (d < 4 && q[at + d] == (prev < 0 ? 0 : q[prev + d])) {
            d++;
        }
        out[pos++] = (byte) d;
        for (int k = d; k < 4; k++) {
            long before = prev < 0 ? 0 : q[prev + k];
            long delta = q[at + k] - before;
            pos = putVarint(out, pos, k == d ? delta : (delta << 1) ^ (delta >> 63));
        }
        return pos;
    }

    private static int putVarint(byte[] out, int pos, long v) {
        while ((v & ~0x7FL) != 0) {
            out[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out[pos++] = (byte) v;
        return pos;
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

    /** One sorted run file, read sequentially in blocks and decoded quad by quad. */
    private static final class Reader {
        private final Path file;
        private final FileChannel in;
        private final ByteBuffer buf = ByteBuffer.allocateDirect(IO_BUFFER);
        /** The buffer's bytes, {@code [at, count)} not yet decoded. */
        private final byte[] block = new byte[IO_BUFFER];
        private int at;
        private int count;
        private boolean ended;
        /** Quads the file says it holds, and how many were read. */
        private long quads = -1;
        private long read;
        final long[] head = new long[4];

        Reader(Path file) {
            this.file = file;
            try {
                this.in = FileChannel.open(file, StandardOpenOption.READ);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the sort run " + file + ": " + e.getMessage(), e);
            }
            long n = 0;
            for (int i = 0; i < COUNT_BYTES; i++) {
                n = (n << 8) | (nextByte() & 0xFF);
            }
            quads = n;
        }

        boolean advance() {
            if (read == quads) {
                if (at < count || fill()) {
                    throw truncated("bytes after its last quad");
                }
                return false;
            }
            int d = nextByte();
            if (d < 0 || d > 4) {
                throw truncated("a quad starting with byte " + d);
            }
            for (int k = d; k < 4; k++) {
                long v = nextVarint();
                head[k] += k == d ? v : (v >>> 1) ^ -(v & 1);
            }
            read++;
            return true;
        }

        private long nextVarint() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = nextByte();
                v |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return v;
                }
            }
            throw truncated("a varint longer than 10 bytes");
        }

        private int nextByte() {
            if (at == count && !fill()) {
                throw truncated(read + " of " + quads + " quads, then the end of the file");
            }
            return block[at++];
        }

        private UncheckedIOException truncated(String what) {
            return new UncheckedIOException(new IOException("sort run " + file + " is damaged or truncated: " + what));
        }

        /** Reads the next block of bytes; false at the end of the file. */
        private boolean fill() {
            if (ended) {
                return false;
            }
            try {
                buf.clear();
                int r = 0;
                while (buf.hasRemaining() && r >= 0) {
                    r = in.read(buf);
                }
                ended = r < 0;
                buf.flip();
                count = buf.remaining();
                buf.get(block, 0, count);
                at = 0;
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
                boolean duplicate = started && QuadSort.same(r.head, 0, key, 0);
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
