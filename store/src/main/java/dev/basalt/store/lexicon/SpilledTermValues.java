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
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

import dev.basalt.store.btree.BTree;

/**
 * The ID2TERM values of the terms a transaction adds to an empty dictionary, appended to files
 * (one per id kind) instead of inserted into the tree one by one, and written into the empty tree
 * bottom-up, in id order, at the end ({@link #writeTo}). Ids of one kind are handed out
 * consecutively, so each kind's file is already in id order and the tree is one pass over the
 * files, kinds in the order of their nibble. The file offset of each value (to read one value
 * back, {@link #get}, which a long term's lookup needs) is appended to a second file per kind, 8
 * bytes per term: the heap holds only the two files' write buffers, whatever the number of terms
 * (a load of 70 million terms would otherwise keep 560 MB of offsets in the heap to its end).
 *
 * <p>Values are the {@link TermValues} forms, written as a 4-byte length and the bytes. The files
 * live in a directory the caller owns and deletes; {@link #close} deletes them too.
 *
 * <p>Not thread-safe: the lexicon writer's one thread.
 */
final class SpilledTermValues implements AutoCloseable {
    private static final int BUFFER_BYTES = 1 << 18;
    /** Write buffer of a kind's offsets file: 8,192 offsets. */
    private static final int OFFSET_BUFFER_BYTES = 1 << 16;

    /** The values of one id kind: those of counters {@code first, first + 1, ...}. */
    private static final class KindFile {
        final int kind;
        final Path path;
        final FileChannel channel;
        final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
        /** The offsets file: value {@code i}'s offset in {@link #path} as 8 bytes at {@code 8 i}. */
        final Path offsetsPath;
        final FileChannel offsetsChannel;
        final ByteBuffer offsetBuffer = ByteBuffer.allocate(OFFSET_BUFFER_BYTES);
        /** Offsets already written from {@link #offsetBuffer}. */
        long offsetsFlushed;
        long first = -1;
        int count;
        /** Bytes of the file already written from the buffer. */
        long flushed;

        KindFile(int kind, Path path, Path offsetsPath) throws IOException {
            this.kind = kind;
            this.path = path;
            this.offsetsPath = offsetsPath;
            this.channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            this.offsetsChannel = FileChannel.open(offsetsPath, StandardOpenOption.READ, StandardOpenOption.WRITE);
        }

        void append(long counter, byte[] value) throws IOException {
            if (first < 0) {
                first = counter;
            } else if (counter != first + count) {
                throw new IllegalStateException("term id counter " + counter + " of kind " + kind
                        + " does not follow " + (first + count - 1) + "; ids of a kind must be consecutive");
            }
            if (!offsetBuffer.hasRemaining()) {
                flushOffsets();
            }
            offsetBuffer.putLong(flushed + buffer.position());
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

        private void flushOffsets() throws IOException {
            offsetBuffer.flip();
            long at = offsetsFlushed * Long.BYTES;
            while (offsetBuffer.hasRemaining()) {
                at += offsetsChannel.write(offsetBuffer, at);
            }
            offsetsFlushed = at / Long.BYTES;
            offsetBuffer.clear();
        }

        boolean holds(long counter) {
            return first >= 0 && counter >= first && counter < first + count;
        }

        byte[] get(long counter) throws IOException {
            flush();
            long i = counter - first;
            long at;
            if (i >= offsetsFlushed) {
                at = offsetBuffer.getLong((int) (i - offsetsFlushed) * Long.BYTES);
            } else {
                ByteBuffer offset = ByteBuffer.allocate(Long.BYTES);
                readFully(offsetsChannel, offsetsPath, offset, i * Long.BYTES);
                at = offset.getLong(0);
            }
            ByteBuffer length = ByteBuffer.allocate(4);
            readFully(channel, path, length, at);
            byte[] value = new byte[length.getInt(0)];
            readFully(channel, path, ByteBuffer.wrap(value), at + 4);
            return value;
        }

        private static void readFully(FileChannel from, Path file, ByteBuffer into, long at) throws IOException {
            while (into.hasRemaining()) {
                if (from.read(into, at + into.position()) < 0) {
                    throw new EOFException(file + " ends before the bytes at " + at);
                }
            }
        }

        void closeAndDelete() throws IOException {
            try {
                channel.close();
                offsetsChannel.close();
            } finally {
                Files.deleteIfExists(path);
                Files.deleteIfExists(offsetsPath);
            }
        }
    }

    private final Path directory;
    /** By kind nibble; null where no term of that kind was added. */
    private final KindFile[] kinds = new KindFile[16];

    SpilledTermValues(Path directory) {
        this.directory = directory;
    }

    /** Appends the value of a new id; a kind's ids come in ascending, consecutive order. */
    void put(long id, byte[] value) {
        int kind = TermIds.kindCode(id);
        try {
            KindFile f = kinds[kind];
            if (f == null) {
                f = kinds[kind] = new KindFile(kind, Files.createTempFile(directory, "id2term-" + kind + "-", ".values"),
                        Files.createTempFile(directory, "id2term-" + kind + "-", ".offsets"));
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
                    f.closeAndDelete();
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
