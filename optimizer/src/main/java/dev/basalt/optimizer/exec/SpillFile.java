package dev.basalt.optimizer.exec;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import org.eclipse.rdf4j.query.QueryEvaluationException;

/**
 * A temporary file of rows of one fixed width, written once and then read sequentially (any
 * number of times). Rows are their ids as big-endian longs, nothing else: query-local ids stay
 * valid because they live in the {@link ExecContext}, not in the file. The file is deleted on
 * {@link #close()}; deleting twice, or while a reader is open, is harmless.
 * Not thread-safe: written and read by the thread running the operator open that made it.
 */
final class SpillFile implements AutoCloseable {
    private static final int BUFFER = 1 << 16;
    private final Path path;
    private final int width;
    private DataOutputStream out;
    private long rows;
    /** The bytes of a bulk write, made at the first one. */
    private ByteBuffer bulk;

    private SpillFile(Path path, int width) throws IOException {
        this.path = path;
        this.width = width;
        this.out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(path), BUFFER));
    }

    static SpillFile create(ExecLimits limits, String purpose, int width) {
        try {
            Files.createDirectories(limits.spillDir());
            return new SpillFile(Files.createTempFile(limits.spillDir(), "basalt-" + purpose + "-", ".rows"), width);
        } catch (IOException e) {
            throw new QueryEvaluationException("cannot create a spill file for " + purpose + " in " + limits.spillDir()
                    + " (set the repository's spillDirectory, or the system property " + ExecLimits.SPILL_DIR
                    + ", to a writable directory): " + e.getMessage(), e);
        }
    }

    long rows() {
        return rows;
    }

    void write(long[] row) {
        try {
            for (int i = 0; i < width; i++) {
                out.writeLong(row[i]);
            }
            rows++;
        } catch (IOException e) {
            throw failure("write", e);
        }
    }

    /** Writes the rows in {@code rows[0, used)}, {@code width} longs each, a buffer's worth of bytes at a time. */
    void write(long[] rows, int used) {
        if (bulk == null) {
            bulk = ByteBuffer.allocate(BUFFER);
        }
        try {
            for (int at = 0; at < used;) {
                int n = Math.min(used - at, BUFFER / Long.BYTES);
                bulk.clear();
                bulk.asLongBuffer().put(rows, at, n);
                out.write(bulk.array(), 0, n * Long.BYTES);
                at += n;
            }
            this.rows += used / width;
        } catch (IOException e) {
            throw failure("write", e);
        }
    }

    /** Ends writing; the file can then be read. */
    void finish() {
        try {
            out.close();
        } catch (IOException e) {
            throw failure("write", e);
        }
    }

    Reader reader() {
        try {
            return new Reader(new DataInputStream(new BufferedInputStream(Files.newInputStream(path), BUFFER)));
        } catch (IOException e) {
            throw failure("read", e);
        }
    }

    private QueryEvaluationException failure(String what, IOException e) {
        return new QueryEvaluationException("cannot " + what + " spill file " + path + ": " + e.getMessage(), e);
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            // the file is deleted next; a failed flush loses nothing anyone reads
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete spill file " + path, e);
        }
    }

    /** Sequential reader of a finished file. */
    final class Reader implements AutoCloseable {
        private final DataInputStream in;
        private ByteBuffer bulkIn;

        private Reader(DataInputStream in) {
            this.in = in;
        }

        /** The next row, or null at the end. */
        long[] next() {
            long[] row = new long[width];
            try {
                for (int i = 0; i < width; i++) {
                    row[i] = in.readLong();
                }
                return row;
            } catch (EOFException e) {
                return null;
            } catch (IOException e) {
                throw failure("read", e);
            }
        }

        /**
         * Reads whole rows into {@code into} from its start, as many as fit and remain; returns the
         * longs read ({@code width} per row), 0 at the end.
         */
        int read(long[] into) {
            if (bulkIn == null) {
                bulkIn = ByteBuffer.allocate(BUFFER / (Long.BYTES * width) * Long.BYTES * width);
            }
            int rowsRead = 0;
            int want = Math.min(into.length / width, bulkIn.capacity() / (Long.BYTES * width));
            try {
                int bytes = in.readNBytes(bulkIn.array(), 0, want * width * Long.BYTES);
                if (bytes % (Long.BYTES * width) != 0) {
                    throw new EOFException("spill file " + path + " ends inside a row");
                }
                rowsRead = bytes / (Long.BYTES * width);
            } catch (IOException e) {
                throw failure("read", e);
            }
            bulkIn.clear();
            bulkIn.asLongBuffer().get(into, 0, rowsRead * width);
            return rowsRead * width;
        }

        @Override
        public void close() {
            try {
                in.close();
            } catch (IOException e) {
                // read-only stream: nothing is lost
            }
        }
    }
}
