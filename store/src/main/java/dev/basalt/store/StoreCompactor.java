package dev.basalt.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;
import dev.basalt.store.journal.JournalStats;
import dev.basalt.store.journal.StoreException;

/**
 * Offline compaction by writing a new file and switching (DESIGN §2): the newest commit point of a
 * journal is copied into a fresh journal next to it ({@code <name>.compact}), every tree built
 * bottom-up into full pages and every commit property carried over; the copy is committed, forced,
 * checked entry for entry against the original, and then renamed over the original in one atomic
 * rename, after which the directory is forced.
 *
 * <p>What it keeps and drops: the data of the newest commit point, unchanged; the history (older
 * commit points, the commit-time index) is dropped, and commit counters start again at 1. The mode
 * (RW or WORM) is kept.
 *
 * <p>Crash safety: until the rename the original is untouched, so a crash leaves it as it was plus
 * a stale {@code .compact} file that the next compaction deletes; the rename is atomic, so a crash
 * after it leaves the complete copy. The original stays locked during the whole run (a second
 * process cannot open it, and the lock is held across the rename), so no commit can slip in between
 * the copy and the switch.
 *
 * <p>Stateless; any thread may call it, one compaction per file at a time (the journal's lock turns
 * a second one away).
 */
public final class StoreCompactor {
    private static final Logger LOG = LoggerFactory.getLogger(StoreCompactor.class);
    static final String SUFFIX = ".compact";

    /** What a compaction did. */
    public record Result(long bytesBefore, long bytesAfter, long sourceCommit, Map<String, Long> entries,
                         Duration elapsed) {
        @Override
        public String toString() {
            return String.format("compacted commit %d: %,d -> %,d bytes (%.1f%%) in %.1f s; trees %s", sourceCommit,
                    bytesBefore, bytesAfter, bytesBefore == 0 ? 0 : 100.0 * bytesAfter / bytesBefore,
                    elapsed.toMillis() / 1000.0, entries);
        }
    }

    private StoreCompactor() {
    }

    /**
     * Compacts the journal at {@code journalFile}, which no process may have open. {@code config}
     * supplies the page cache and per-tree settings (the same a store of this kind is opened with);
     * the journal mode is taken from the file.
     *
     * @throws StoreException if the file is missing, locked by another process, damaged (the copy
     *                        reads every record, so a checksum error stops it before the switch),
     *                        or the copy does not match the original; the original is left as it was
     */
    public static Result compact(Path journalFile, StoreConfig config) {
        long t0 = System.nanoTime();
        if (!Files.isRegularFile(journalFile)) {
            throw new StoreException("cannot compact " + journalFile + ": no such journal file");
        }
        Path copy = journalFile.resolveSibling(journalFile.getFileName() + SUFFIX);
        try {
            Files.deleteIfExists(copy);
        } catch (IOException e) {
            throw new StoreException("cannot remove the stale compaction file " + copy + ": " + e.getMessage(), e);
        }
        try (Store source = Store.open(journalFile, config)) {
            JournalStats before = source.stats().journal();
            StoreConfig target = config.withJournal(config.journal().withMode(before.mode()));
            Map<String, Long> entries = new LinkedHashMap<>();
            try (Snapshot snap = source.snapshot()) {
                try (Store out = Store.open(copy, target)) {
                    copyCommit(snap, out, entries);
                    checkCopy(snap, out, copy);
                }
                forceFile(copy);
            } catch (RuntimeException e) {
                deleteQuietly(copy);
                throw e;
            }
            // the original stays locked (source is open) while the copy takes its name
            try {
                Files.move(copy, journalFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                forceDirectory(journalFile.toAbsolutePath().getParent());
            } catch (IOException e) {
                deleteQuietly(copy);
                throw new StoreException("cannot switch " + journalFile + " to its compacted copy: " + e.getMessage()
                        + " (the original is unchanged)", e);
            }
            long after;
            try {
                after = Files.size(journalFile);
            } catch (IOException e) {
                throw new StoreException("cannot read the size of " + journalFile + ": " + e.getMessage(), e);
            }
            Result r = new Result(before.fileBytes(), after, before.commitCounter(), entries,
                    Duration.ofNanos(System.nanoTime() - t0));
            LOG.info("{}: {}", journalFile, r);
            return r;
        }
    }

    private static void copyCommit(Snapshot snap, Store out, Map<String, Long> entries) {
        copyCommit(snap, out, entries, Map.of());
    }

    /** Copies {@code snap}'s trees and properties into one commit of {@code out}, with {@code extra} properties. */
    static void copyCommit(Snapshot snap, Store out, Map<String, Long> entries, Map<String, byte[]> extra) {
        try (WriteTransaction tx = out.begin()) {
            for (String name : snap.treeNames()) {
                BTree tree = snap.tree(name);
                tx.bulkBuild(name, entriesOf(tree.cursor(null, null)));
                entries.put(name, tree.size());
            }
            for (String name : snap.propertyNames()) {
                if (!extra.containsKey(name)) {
                    tx.setProperty(name, snap.property(name));
                }
            }
            extra.forEach(tx::setProperty);
            tx.commit();
        }
    }

    private static void checkCopy(Snapshot original, Store out, Path copy) {
        checkCopy(original, out, copy, java.util.Set.of());
    }

    /**
     * Every tree of the copy has the original's size and the same entries in the same order, and
     * every property but those named in {@code replaced} the same value.
     */
    static void checkCopy(Snapshot original, Store out, Path copy, java.util.Set<String> replaced) {
        try (Snapshot c = out.snapshot()) {
            java.util.Set<String> properties = new java.util.TreeSet<>(original.propertyNames());
            properties.addAll(replaced);
            if (!c.treeNames().equals(original.treeNames()) || !c.propertyNames().equals(properties)) {
                throw new StoreException("copy " + copy + " does not hold the original's trees and properties");
            }
            for (String name : original.propertyNames()) {
                if (!replaced.contains(name) && !Arrays.equals(original.property(name), c.property(name))) {
                    throw new StoreException("copy " + copy + " differs from the original in property " + name);
                }
            }
            for (String name : original.treeNames()) {
                BTreeCursor a = original.tree(name).cursor(null, null);
                BTreeCursor b = c.tree(name).cursor(null, null);
                long n = 0;
                while (a.next()) {
                    if (!b.next() || !Arrays.equals(a.key(), b.key())
                            || !Arrays.equals(a.value(), b.value())) {
                        throw new StoreException("copy " + copy + " differs from the original in tree "
                                + name + " at entry " + n);
                    }
                    n++;
                }
                if (b.next()) {
                    throw new StoreException("copy " + copy + " has more entries than the original in tree " + name);
                }
            }
        }
    }

    private static Iterator<Map.Entry<byte[], byte[]>> entriesOf(BTreeCursor c) {
        return new Iterator<>() {
            private Boolean ahead;

            @Override
            public boolean hasNext() {
                if (ahead == null) {
                    ahead = c.next();
                }
                return ahead;
            }

            @Override
            public Map.Entry<byte[], byte[]> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                ahead = null;
                return Map.entry(c.key(), c.value());
            }
        };
    }

    static void forceFile(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        } catch (IOException e) {
            throw new StoreException("cannot force " + file + " to disk: " + e.getMessage(), e);
        }
    }

    static void forceDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // some platforms cannot open a directory; the rename is still atomic there
            LOG.debug("cannot force directory {}: {}", dir, e.toString());
        }
    }

    static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            LOG.warn("cannot remove {}: {}", p, e.toString());
        }
    }
}
