package dev.basalt.store.lexicon;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

import dev.basalt.store.btree.BTree;

/**
 * The ID2TERM values of the terms a transaction adds to an empty dictionary, appended to files
 * (one per id kind) instead of inserted into the tree one by one, and written into the empty tree
 * bottom-up, in id order, at the end ({@link #writeTo}). Ids of one kind are handed out
 * consecutively, so each kind's file is already in id order and the tree is one pass over the
 * files, kinds in the order of their nibble. The heap holds a write buffer and a file offset per
 * term (in chunks of 32,768) (to read one value back, {@link #get}, which a long term's lookup needs).
 *
 * <p>Values are the {@link TermValues} forms, written as a 4-byte length and the bytes. The files
 * live in a directory the caller owns and deletes; {@link #close} deletes them too.
 *
 * <p>Not thread-safe: the lexicon writer's one thread.
 */
final class SpilledTermValues implements AutoCloseable {
    private static final int BUFFER_BYTES = 1 << 18;
    /** Offsets per chunk: 2^15 longs, 256 KB, under G1's humongous size for any region size. */
    private static final int CHUNK_BITS = 15;
    private static final int CHUNK = 1 << CHUNK_BITS;

    /** The values of one id kind: those of counters {@code first, first + 1, ...}. */
    private static final class KindFile {
        final int kind;
        final Path path;
        final FileChannel channel;
        final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
        long first = -1;
        int count;
        /**
         * The file offset of each value, in chunks of {@link #CHUNK} (one array doubling past a few
         * tens of millions of terms would need its old and new copy at once: about 1.5 GB at 2^27).
         */
        long[][] offsets = new long[16][];
        /** Bytes of the file already written from the buffer. */
        long flushed;

        KindFile(int kind, Path path) throws IOException {
            this.kind = kind;
            this.path = path;
            this.channel = FileChannel.open(path, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        }

        void append(long counter, byte[] value) throws IOException {
            if (first < 0) {
                first = counter;
            } else if (counter != first + count) {
                throw new IllegalStateException("term id counter " + counter + " of kind " + kind
                        + " does not follow " + (first + count - 1) + "; ids of a kind must be consecutive");
            }
            int chunk = count >>> CHUNK_BITS;
            if (chunk == offsets.length) {
                offsets = Arrays.copyOf(offsets, 2 * chunk);
            }
            if (offsets[chunk] == null) {
                offsets[chunk] = new long[CHUNK];
            }
            offsets[chunk][count & (CHUNK - 1)] = flushed + buffer.position();
            count++;
            if (buffer.remaining() < 4) {
                flush();
            }
            buffer.putInt(value.length);
            for (int at = 0; at < value.length; ) {
                if (!buffer.hasRemaining()) {
                    flush();
                }
                int n = Math.min(buffer.remaining(), value.length - at);
                buffer.put(value, at, n);
                at += n;
            }
        }

        void flush() throws IOException {
            buffer.flip();
            while (buffer.hasRemaining()) {
                flushed += channel.write(buffer, flushed);
            }
            buffer.clear();
        }

        boolean holds(long counter) {
            return first >= 0 && counter >= first && counter < first + count;
        }

        byte[] get(long counter) throws IOException {
            flush();
            int i = (int) (counter - first);
            long at = offsets[i >>> CHUNK_BITS][i & (CHUNK - 1)];
            ByteBuffer length = ByteBuffer.allocate(4);
            readFully(length, at);
            byte[] value = new byte[length.getInt(0)];
            readFully(ByteBuffer.wrap(value), at + 4);
            return value;
        }

        private void readFully(ByteBuffer into, long at) throws IOException {
            while (into.hasRemaining()) {
                if (channel.read(into, at + into.position()) < 0) {
                    throw new EOFException(path + " ends before the value at " + at);
                }
            }
        }
    }

    private final Path directory;
    /** By kind nibble; null where no term of that kind was added. */
    private final KindFile[] kinds = new KindFile[16];

    SpilledTermValues(Path directory) {
        this.directory = directory;
    }

    /** Heap bytes per added term (its file offset). */
    static long bytesPerTerm() {
        return 8;
    }

    /** Appends the value of a new id; a kind's ids come in ascending, consecutive order. */
    void put(long id, byte[] value) {
        int kind = TermIds.kindCode(id);
        try {
            KindFile f = kinds[kind];
            if (f == null) {
                f = kinds[kind] = new KindFile(kind, Files.createTempFile(directory, "id2term-" + kind + "-", ".values"));
            }
            f.append(id & TermIds.PAYLOAD_MASK, value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the dictionary's values under " + directory + ": " + e, e);
        }
    }

    /** The value of an id {@link #put} here, or null if it was not. */
    byte[] get(long id) {
        KindFile f = kinds[TermIds.kindCode(id)];
        long counter = id & TermIds.PAYLOAD_MASK;
        if (f == null || !f.holds(counter)) {
            return null;
        }
        try {
            return f.get(counter);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dictionary's values under " + directory + ": " + e, e);
        }
    }

    /** Fills the empty tree {@code idToTerm} with every value, bottom-up, and closes this. */
    void writeTo(BTree idToTerm) {
        try {
            for (KindFile f : kinds) {
                if (f != null) {
                    f.flush();
                }
            }
            idToTerm.bulkLoad(new Entries());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dictionary's values under " + directory + ": " + e, e);
        } finally {
            close();
        }
    }

    /** Closes and deletes the files. */
    @Override
    public void close() {
        for (int k = 0; k < kinds.length; k++) {
            KindFile f = kinds[k];
            kinds[k] = null;
            if (f != null) {
                try {
                    f.channel.close();
                    Files.deleteIfExists(f.path);
                } catch (IOException ignored) {
                    // the caller's directory is deleted with it
                }
            }
        }
    }

    /** The entries of all kinds, in id order: each kind's file read sequentially. */
    private final class Entries implements Iterator<Map.Entry<byte[], byte[]>> {
        private int kind = -1;
        private KindFile file;
        private DataInputStream in;
        private int next;

        Entries() {
            advance();
        }

        /** Moves to the next kind file with entries left, if the current one has none. */
        private void advance() {
            try {
                while (file == null || next == file.count) {
                    if (in != null) {
                        in.close();
                        in = null;
                    }
                    if (++kind == kinds.length) {
                        file = null;
                        return;
                    }
                    file = kinds[kind];
                    next = 0;
                    if (file != null) {
                        InputStream raw = Channels.newInputStream(file.channel.position(0));
                        in = new DataInputStream(new BufferedInputStream(raw, BUFFER_BYTES));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + (file == null ? directory : file.path) + ": " + e, e);
            }
        }

        @Override
        public boolean hasNext() {
            return file != null;
        }

        @Override
        public Map.Entry<byte[], byte[]> next() {
            if (file == null) {
                throw new NoSuchElementException();
            }
            try {
                byte[] value = new byte[in.readInt()];
                in.readFully(value);
                long id = TermIds.make(file.kind, file.first + next);
                next++;
                advance();
                return new AbstractMap.SimpleImmutableEntry<>(LexiconView.idKey(id), value);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file.path + ": " + e, e);
            }
        }
    }
}
