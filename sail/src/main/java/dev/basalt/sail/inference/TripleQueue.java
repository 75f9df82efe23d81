package dev.basalt.sail.inference;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * The pivots of the next semi-naive round: the triples a round adds to the closure, appended
 * while it writes its conclusions and read back in blocks when the next round starts. At most
 * {@value #BLOCK} triples are held in the heap; each full block is appended to a temporary file
 * (three longs a triple, 24 MiB a block), so a round that adds more triples than the heap holds
 * (round 0 of a full closure adds most of the inferred statements: about 60 million at LUBM(800))
 * needs one block of heap, not 24 bytes per triple. The file is created at the first full block,
 * in the closure's scratch directory ({@link ClosureStore#scratchDir()}: a bulk load's own temporary
 * directory, deleted with it) or else the JVM's temporary directory, and deleted by {@link #close()}.
 *
 * <p>Not thread-safe: one closure run uses it, on the thread that evaluates its rules.
 */
final class TripleQueue implements AutoCloseable {
    /** Triples held in the heap; a full block goes to the file. */
    static final int BLOCK = 1 << 20;
    /** Bytes moved between a block and the file per call: whole triples of 24 bytes. */
    private static final int IO_BYTES = 24 << 15;
    private final int blockTriples;
    private final Path directory;
    private final TripleList tail = new TripleList();
    private Path path;
    private FileChannel file;
    private long spilled;

    /** @param directory where full blocks go, or null for the JVM's temporary directory */
    TripleQueue(Path directory) {
        this(BLOCK, directory);
    }

    /** A queue that spills blocks of {@code blockTriples} (for tests: small blocks). */
    TripleQueue(int blockTriples, Path directory) {
        this.blockTriples = blockTriples;
        this.directory = directory;
    }

    void add(long s, long p, long o) {
        tail.add(s, p, o);
        if (tail.size() == blockTriples) {
            spill();
        }
    }

    void addAll(TripleList triples) {
        for (int i = 0; i < triples.size(); i++) {
            add(triples.s(i), triples.p(i), triples.o(i));
        }
    }

    long size() {
        return spilled + tail.size();
    }

    boolean isEmpty() {
        return size() == 0;
    }

    /** Triples written to the file so far. */
    long spilled() {
        return spilled;
    }

    /**
     * Hands every triple to {@code batch} in the order they were added, in lists of at most one
     * block (each list is reused: {@code batch} must not keep it), then empties the queue.
     */
    void drainTo(Consumer<TripleList> batch) {
        if (file != null) {
            TripleList block = new TripleList();
            ByteBuffer buffer = ByteBuffer.allocate(IO_BYTES);
            LongBuffer longs = buffer.asLongBuffer();
            try {
                long at = 0;
                long end = spilled * 24;
                while (at < end) {
                    buffer.clear();
                    buffer.limit((int) Math.min(IO_BYTES, end - at));
                    while (buffer.hasRemaining()) {
                        int n = file.read(buffer, at + buffer.position());
                        if (n < 0) {
                            throw new IOException("the closure's spilled pivots end early at byte " + at);
                        }
                    }
                    at += buffer.limit();
                    longs.clear();
                    longs.limit(buffer.limit() / 8);
                    while (longs.hasRemaining()) {
                        block.add(longs.get(), longs.get(), longs.get());
                        if (block.size() == blockTriples) {
                            batch.accept(block);
                            block.clear();
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the closure's spilled pivots from " + path, e);
            }
            if (!block.isEmpty()) {
                batch.accept(block);
            }
        }
        if (!tail.isEmpty()) {
            batch.accept(tail);
        }
        close();
        tail.clear();
        spilled = 0;
    }

    /** Appends the block in the heap to the file (created at the first block) and empties it. */
    private void spill() {
        try {
            if (file == null) {
                path = directory == null ? Files.createTempFile("basalt-closure-pivots-", ".triples")
                        : Files.createTempFile(directory, "basalt-closure-pivots-", ".triples");
                file = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            ByteBuffer buffer = ByteBuffer.allocate(IO_BYTES);
            LongBuffer longs = buffer.asLongBuffer();
            int i = 0;
            while (i < tail.size()) {
                longs.clear();
                while (i < tail.size() && longs.remaining() >= 3) {
                    longs.put(tail.s(i)).put(tail.p(i)).put(tail.o(i));
                    i++;
                }
                buffer.clear();
                buffer.limit(longs.position() * 8);
                long at = (spilled + i - longs.position() / 3) * 24;
                while (buffer.hasRemaining()) {
                    at += file.write(buffer, at);
                }
            }
            spilled += tail.size();
            tail.clear();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot spill the closure's pivots to " + path, e);
        }
    }

    /** Closes and deletes the file, if there is one. */
    @Override
    public void close() {
        if (file == null) {
            return;
        }
        try {
            file.close();
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the closure's spilled pivots " + path, e);
        } finally {
            file = null;
            path = null;
        }
    }
}
