package dev.basalt.sail;

import java.nio.file.Path;

import javax.management.ObjectName;

import dev.basalt.store.journal.StoreException;

/**
 * An open store's operations ({@link StoreOperationsMXBean}: hot backup, online compaction, journal
 * figures) as an MBean, which the store publishes while it is open ({@link StoreMBeans}); the same operations
 * stay callable on {@link BasaltStore}. An operation's failure reaches
 * the JMX client as an {@link IllegalStateException} with the store's message (a JMX client may
 * not have Basalt's exception classes). Thread-safe: each call is one store operation.
 */
final class StoreOperations implements StoreOperationsMXBean {
    private final BasaltStore store;

    StoreOperations(BasaltStore store) {
        this.store = store;
    }

    /** {@code dev.basalt:type=Store,store="<absolute data directory>"}. */
    static ObjectName objectName(Path dataDir) {
        return StoreMBeans.name("Store", dataDir);
    }

    @Override
    public long getCommitCounter() {
        return store.storeStats().journal().commitCounter();
    }

    @Override
    public long getFileBytes() {
        return store.storeStats().journal().fileBytes();
    }

    @Override
    public int getOpenReaders() {
        return store.storeStats().journal().openReaders();
    }

    @Override
    public String backup(String targetFile) {
        return backupCommit(targetFile, -1);
    }

    @Override
    public String compact() {
        try {
            return store.compact().toString();
        } catch (StoreException | org.eclipse.rdf4j.sail.SailException e) {
            throw new IllegalStateException(e.getMessage());
        }
    }

    @Override
    public String backupCommit(String targetFile, long commitCounter) {
        try {
            return store.backup(Path.of(targetFile), commitCounter).toString();
        } catch (StoreException | org.eclipse.rdf4j.sail.SailException e) {
            throw new IllegalStateException(e.getMessage());
        }
    }
}
