package dev.basalt.store.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;

/**
 * The two root blocks of a journal file as opening finds them (docs/FORMAT.md "Root blocks"): each
 * decoded and checked (checksum, counter at head and tail, store id, a file long enough for the
 * commit it names) or rejected with the reason, which the error names when neither loads. Also
 * writes a new empty journal. Used by one thread while a journal opens or rolls back.
 */
final class RootBlockPair {
    private final RootBlock[] candidates = new RootBlock[2];
    private final String[] reasons = new String[2];

    private RootBlockPair() {
    }

    /** Reads and checks both root blocks of {@code file}. */
    static RootBlockPair read(JournalFile file, JournalHeader header) {
        RootBlockPair p = new RootBlockPair();
        long size = file.size();
        for (int slot = 0; slot < 2; slot++) {
            ByteBuffer b = ByteBuffer.allocate(RootBlock.SIZE);
            int n = file.read(b, RootBlock.FIRST_OFFSET + slot * (long) RootBlock.SIZE);
            b.flip();
            String[] why = new String[1];
            RootBlock r = n < RootBlock.SIZE ? null : RootBlock.decode(b, header.storeId(), why);
            if (n < RootBlock.SIZE) {
                why[0] = "missing (file is " + size + " bytes)";
            } else if (r != null && r.fileEnd() > size) {
                why[0] = "commit " + r.commitCounter() + " needs " + r.fileEnd() + " bytes but the file has " + size + " (truncated)";
                r = null;
            }
            p.candidates[slot] = r;
            p.reasons[slot] = why[0];
        }
        return p;
    }

    /** The slot to try first: the valid root block with the larger commit counter. */
    int newer() {
        if (candidates[0] == null) {
            return 1;
        }
        if (candidates[1] == null) {
            return 0;
        }
        return candidates[0].commitCounter() >= candidates[1].commitCounter() ? 0 : 1;
    }

    /** The valid root block in {@code slot}, or null. */
    RootBlock get(int slot) {
        return candidates[slot];
    }

    /** Why {@code slot} holds no usable root block (null if it was valid and not rejected). */
    String reason(int slot) {
        return reasons[slot];
    }

    /** Marks {@code slot}'s root block unusable: its commit point does not load. */
    void reject(int slot, String reason) {
        candidates[slot] = null;
        reasons[slot] = reason;
    }

    /** The error when neither root block loads. */
    StoreException noValidCommit(Path path) {
        return new StoreException(path + " has no valid commit point: root block 0 " + reasons[0]
                + "; root block 1 " + reasons[1] + ". Restore the store from a backup.");
    }

    /** Writes a new empty journal atomically: a crash while creating leaves no half-made file. */
    static void createEmpty(Path path, JournalConfig config) {
        Path tmp = path.resolveSibling(path.getFileName() + ".creating");
        try {
            Files.deleteIfExists(tmp);
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
        } catch (IOException e) {
            throw new StoreException("cannot create journal " + path + ": " + e, e);
        }
        UUID id = UUID.randomUUID();
        long now = System.currentTimeMillis();
        try (JournalFile f = JournalFile.open(tmp, true)) {
            f.write(new JournalHeader(JournalHeader.CURRENT_VERSION, config.mode(), id, now).encode(), 0);
            for (int slot = 0; slot < 2; slot++) {
                RootBlock empty = new RootBlock(0, now, RecordStore.NULL, 0, RecordStore.NULL, 0, Journal.DATA_START, id);
                f.write(empty.encode(), RootBlock.FIRST_OFFSET + slot * (long) RootBlock.SIZE);
            }
            f.force();
        }
        try {
            Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new StoreException("cannot create journal " + path + ": " + e, e);
        }
    }
}
