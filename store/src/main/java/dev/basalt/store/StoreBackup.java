package dev.basalt.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.store.journal.CommitPoint;
import dev.basalt.store.journal.StoreException;

/**
 * Hot backup and restore of a journal. A backup is a compact journal file holding one commit point
 * of a store that may be open and written meanwhile: the commit point is pinned by a snapshot (the
 * writer goes on committing; copy-on-write never touches the pinned pages), its trees are built
 * bottom-up into a fresh journal beside the target ({@code <target>.partial}) as the offline
 * compaction does ({@link StoreCompactor}), the copy is checked entry for entry against the
 * snapshot, verified end to end ({@link Store#verify}), forced, and renamed to the target in one
 * atomic rename. Only live pages are written, so a backup is as small as a compacted store.
 *
 * <p>The backup records the commit point it holds in three properties of its one commit
 * ({@value #COMMIT}, {@value #TIME}, {@value #SOURCE}; docs/FORMAT.md 5.1), which
 * {@link #describe} reads back. Its own commit counter starts at 1. The journal mode is the source's.
 *
 * <p>{@link #restore} checks a backup (it opens and verifies it) and copies it into place as a
 * store's journal, again through a {@code .partial} file and an atomic rename, so a crash leaves
 * either no journal or the complete one. Stateless; each call works on its own files.
 *
 * <p>Any thread may call it, while other threads go on writing and reading the store: a backup
 * reads only the commit point its snapshot pins.
 */
public final class StoreBackup {
    private static final Logger LOG = LoggerFactory.getLogger(StoreBackup.class);
    /** Property: the commit counter the backup holds, 8 bytes big-endian. */
    public static final String COMMIT = "backup.commit";
    /** Property: that commit point's time, epoch milliseconds, 8 bytes big-endian. */
    public static final String TIME = "backup.time";
    /** Property: the journal file the backup was taken from, UTF-8. */
    public static final String SOURCE = "backup.source";
    static final String PARTIAL = ".partial";

    /** What a backup holds: the source's commit point, the file, its size, trees and time taken. */
    public record Result(Path file, long commit, Instant commitTime, String source, long bytes,
                         Map<String, Long> entries, Duration elapsed) {
        @Override
        public String toString() {
            return String.format("backup %s holds commit point %d (%s) of %s: %,d bytes, trees %s, in %.1f s", file,
                    commit, commitTime, source, bytes, entries, elapsed.toMillis() / 1000.0);
        }
    }

    private StoreBackup() {
    }

    /**
     * Writes the commit point {@code snap} holds (of the open store {@code source}) to the new file
     * {@code target}; {@code config} supplies the page cache and per-tree settings of the copy.
     *
     * @throws StoreException if {@code target} exists, cannot be written, or the copy does not match;
     *                        nothing is left at {@code target} then
     */
    public static Result backup(Store source, Snapshot snap, Path target, StoreConfig config) {
        long t0 = System.nanoTime();
        if (Files.exists(target)) {
            throw new StoreException("backup target " + target + " exists; give a new file name");
        }
        Path partial = target.resolveSibling(target.getFileName() + PARTIAL);
        try {
            Files.createDirectories(target.toAbsolutePath().getParent());
            Files.deleteIfExists(partial);
        } catch (IOException e) {
            throw new StoreException("cannot prepare the backup file " + partial + ": " + e.getMessage(), e);
        }
        CommitPoint point = snap.commit();
        String from = source.journal().path().toAbsolutePath().toString();
        Map<String, byte[]> recorded = new LinkedHashMap<>();
        recorded.put(COMMIT, ByteBuffer.allocate(8).putLong(point.counter()).array());
        recorded.put(TIME, ByteBuffer.allocate(8).putLong(point.timeMillis()).array());
        recorded.put(SOURCE, from.getBytes(StandardCharsets.UTF_8));
        StoreConfig target0 = config.withJournal(config.journal().withMode(source.stats().journal().mode())
                .withHistoryRetention(Duration.ZERO).withMaxFileBytes(0));
        Map<String, Long> entries = new LinkedHashMap<>();
        try {
            try (Store out = Store.open(partial, target0)) {
                StoreCompactor.copyCommit(snap, out, entries, recorded);
                StoreCompactor.checkCopy(snap, out, partial, recorded.keySet());
                out.verify();
            }
            StoreCompactor.forceFile(partial);
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
            StoreCompactor.forceDirectory(target.toAbsolutePath().getParent());
            Result r = new Result(target, point.counter(), Instant.ofEpochMilli(point.timeMillis()), from,
                    Files.size(target), entries, Duration.ofNanos(System.nanoTime() - t0));
            LOG.info("{}", r);
            return r;
        } catch (IOException e) {
            StoreCompactor.deleteQuietly(partial);
            throw new StoreException("cannot write the backup " + target + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            StoreCompactor.deleteQuietly(partial);
            throw e;
        }
    }

    /** The commit point a backup file records, after opening and verifying it. */
    public static Result describe(Path backup, StoreConfig config) {
        long t0 = System.nanoTime();
        if (!Files.isRegularFile(backup)) {
            throw new StoreException("no backup file " + backup);
        }
        try (Store b = Store.open(backup, config); Snapshot s = b.snapshot()) {
            byte[] commit = s.property(COMMIT);
            byte[] time = s.property(TIME);
            byte[] source = s.property(SOURCE);
            if (commit == null || time == null || source == null) {
                throw new StoreException(backup + " is a Basalt journal but not a backup (it records no "
                        + COMMIT + "); restore only files written by 'basalt backup'");
            }
            b.verify();
            Map<String, Long> entries = new LinkedHashMap<>();
            for (String name : s.treeNames()) {
                entries.put(name, s.tree(name).size());
            }
            return new Result(backup, ByteBuffer.wrap(commit).getLong(), Instant.ofEpochMilli(ByteBuffer.wrap(time).getLong()),
                    new String(source, StandardCharsets.UTF_8), Files.size(backup), entries,
                    Duration.ofNanos(System.nanoTime() - t0));
        } catch (IOException e) {
            throw new StoreException("cannot read the backup " + backup + ": " + e.getMessage(), e);
        }
    }

    /**
     * Makes the backup {@code backup} the journal {@code journalFile}, which must not exist (move an
     * old journal away first). The backup is verified before anything is written.
     */
    public static Result restore(Path backup, Path journalFile, StoreConfig config) {
        Result r = describe(backup, config);
        if (Files.exists(journalFile)) {
            throw new StoreException("cannot restore into " + journalFile + ": a journal is there; move it away (or"
                    + " restore into an empty directory) and run the restore again");
        }
        Path partial = journalFile.resolveSibling(journalFile.getFileName() + PARTIAL);
        try {
            Files.createDirectories(journalFile.toAbsolutePath().getParent());
            Files.copy(backup, partial, StandardCopyOption.REPLACE_EXISTING);
            StoreCompactor.forceFile(partial);
            Files.move(partial, journalFile, StandardCopyOption.ATOMIC_MOVE);
            StoreCompactor.forceDirectory(journalFile.toAbsolutePath().getParent());
        } catch (IOException e) {
            StoreCompactor.deleteQuietly(partial);
            throw new StoreException("cannot restore " + backup + " into " + journalFile + ": " + e.getMessage(), e);
        }
        LOG.info("restored {} into {} (commit point {} of {})", backup, journalFile, r.commit(), r.source());
        return r;
    }
}
