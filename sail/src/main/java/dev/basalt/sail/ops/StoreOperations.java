package dev.basalt.sail.ops;

import java.nio.file.Path;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import javax.management.ObjectName;

import dev.basalt.store.StoreStats;
import dev.basalt.store.journal.StoreException;

/**
 * An open store's operations ({@link StoreOperationsMXBean}: hot backup, online compaction, journal
 * figures) as an MBean, which the store publishes while it is open ({@link StoreMBeans}); the same operations
 * stay callable on {@code BasaltStore}. An operation's failure reaches
 * the JMX client as an {@link IllegalStateException} with the store's message (a JMX client may
 * not have Basalt's exception classes). Thread-safe: each call is one store operation.
 */
public final class StoreOperations implements StoreOperationsMXBean {
    private final Supplier<StoreStats> stats;
    private final Supplier<?> compaction;
    private final BiFunction<Path, Long, ?> backup;
    private final Supplier<String> rehearsal;

    /**
     * @param stats      the store's figures
     * @param compaction compacts the store online; its result's text is the answer
     * @param backup     writes a hot backup of a commit point (-1: the newest) to a file; its result's text is the answer
     * @param rehearsal  reads a sample of pages and terms as cache misses do, uncached; what it read is the answer
     */
    public StoreOperations(Supplier<StoreStats> stats, Supplier<?> compaction, BiFunction<Path, Long, ?> backup,
            Supplier<String> rehearsal) {
        this.stats = stats;
        this.compaction = compaction;
        this.backup = backup;
        this.rehearsal = rehearsal;
    }

    /** {@code dev.basalt:type=Store,store="<absolute data directory>"}. */
    public static ObjectName objectName(Path dataDir) {
        return StoreMBeans.name("Store", dataDir);
    }

    @Override
    public long getCommitCounter() {
        return stats.get().journal().commitCounter();
    }

    @Override
    public long getFileBytes() {
        return stats.get().journal().fileBytes();
    }

    @Override
    public int getOpenReaders() {
        return stats.get().journal().openReaders();
    }

    @Override
    public String backup(String targetFile) {
        return backupCommit(targetFile, -1);
    }

    @Override
    public String compact() {
        try {
            return compaction.get().toString();
        } catch (StoreException | org.eclipse.rdf4j.sail.SailException e) {
            throw new IllegalStateException(e.getMessage());
        }
    }

    @Override
    public String rehearseColdReads() {
        try {
            return rehearsal.get();
        } catch (StoreException | org.eclipse.rdf4j.sail.SailException e) {
            throw new IllegalStateException(e.getMessage());
        }
    }

    @Override
    public String backupCommit(String targetFile, long commitCounter) {
        try {
            return backup.apply(Path.of(targetFile), commitCounter).toString();
        } catch (StoreException | org.eclipse.rdf4j.sail.SailException e) {
            throw new IllegalStateException(e.getMessage());
        }
    }
}
