package dev.basalt.replication;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.CRC32C;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last replication log index whose change set is in the local store, kept in a 20-byte file
 * beside it (docs/FORMAT.md, "Applied index file"): term (8 bytes), index (8 bytes), CRC32C of the
 * first 16 bytes (4 bytes), all big-endian. It is written after the store's commit, through a
 * temporary file and an atomic rename, and not forced: a process killed at any moment leaves it
 * either at this entry or at the one before, and a machine crash may leave it further back. Both
 * are safe because change sets are idempotent and a replay of already applied entries ends in the
 * state they left ({@link dev.basalt.replication.log.ChangeSet}); the file only spares the replay.
 * A missing or damaged file reads as "nothing applied" with a warning naming it.
 *
 * <p>Used by the state machine's single apply thread only.
 */
final class AppliedIndex {
    private static final Logger LOG = LoggerFactory.getLogger(AppliedIndex.class);
    static final int BYTES = 20;

    private final Path file;

    AppliedIndex(Path file) {
        this.file = file;
    }

    /** The stored log index, or -1 if none is stored (or the file is damaged, which is logged). */
    long read() {
        byte[] b;
        try {
            b = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return -1;
        } catch (IOException e) {
            LOG.warn("cannot read the applied index file {} ({}); replaying the log from the snapshot", file,
                    e.getMessage());
            return -1;
        }
        ByteBuffer buf = ByteBuffer.wrap(b);
        if (b.length != BYTES || crc(b) != buf.getInt(16)) {
            LOG.warn("applied index file {} is damaged ({} bytes, checksum mismatch or wrong length); replaying"
                    + " the log from the snapshot", file, b.length);
            return -1;
        }
        return buf.getLong(8);
    }

    void write(long term, long index) throws IOException {
        byte[] b = new byte[BYTES];
        ByteBuffer buf = ByteBuffer.wrap(b);
        buf.putLong(0, term).putLong(8, index);
        buf.putInt(16, crc(b));
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, b);
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static int crc(byte[] b) {
        CRC32C crc = new CRC32C();
        crc.update(b, 0, 16);
        return (int) crc.getValue();
    }

    @Override
    public String toString() {
        return file.toString();
    }
}
