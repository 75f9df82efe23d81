package dev.basalt.bench.jmh;

import dev.basalt.store.Snapshot;
import dev.basalt.store.Store;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeConfig;
import dev.basalt.store.btree.BTreeCursor;
import org.openjdk.jmh.infra.Blackhole;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

/**
 * Basalt's store with one tree, default B+tree settings but for the write-retention capacity
 * (dirty pages held in memory before the eldest is written; MVStore holds every changed page
 * until commit), and the given page cache. Not durable:
 * a commit writes its pages and root block but does not force them (MVStore's commit does not
 * force either). Reads go through a {@link Snapshot}, the store's read path.
 *
 * <p>Not thread-safe: one benchmark thread drives it, as {@link KeyValueEngine} requires; the open write
 * transaction and the snapshot are plain fields.
 */
final class BasaltEngine implements KeyValueEngine {
    private static final String TREE = "kv";

    private final Path file;
    private final StoreConfig config;
    private final Store store;
    private WriteTransaction tx;
    private BTree writeTree;
    private Snapshot snapshot;
    private BTree readTree;

    BasaltEngine(Path dir, int cacheMb, int writeRetention) {
        this.file = dir.resolve("basalt.jnl");
        StoreConfig defaults = StoreConfig.defaults();
        this.config = defaults.withJournal(defaults.journal().withDurable(false)).withPageCacheBytes((long) cacheMb << 20)
                .withDefaultTree(BTreeConfig.builder().writeRetentionCapacity(writeRetention).build());
        this.store = Store.open(file, config);
    }

    private BTree writeTree() {
        if (tx == null) {
            tx = store.begin();
            writeTree = tx.tree(TREE);
        }
        return writeTree;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        writeTree().put(key, value);
    }

    @Override
    public void commit() {
        if (tx != null) {
            tx.commit();
            tx = null;
            writeTree = null;
        }
    }

    @Override
    public void bulkLoad(Iterator<Map.Entry<byte[], byte[]>> sorted) {
        writeTree().bulkLoad(sorted);
        commit();
    }

    @Override
    public void startReading() {
        commit();
        closeSnapshot();
        snapshot = store.snapshot();
        readTree = snapshot.tree(TREE);
    }

    @Override
    public byte[] get(byte[] key) {
        return readTree.get(key);
    }

    @Override
    public long scan(byte[] from, long limit, Blackhole sink) {
        BTreeCursor c = readTree.cursor(from, null);
        long n = 0;
        while (n < limit && c.next()) {
            sink.consume(c.key());
            sink.consume(c.value());
            n++;
        }
        return n;
    }

    @Override
    public long fileBytes() {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String describe() {
        return "basalt: durable=false, page cache " + (config.pageCacheBytes() >> 20) + " MiB, " + config.defaultTree();
    }

    private void closeSnapshot() {
        if (snapshot != null) {
            snapshot.close();
            snapshot = null;
            readTree = null;
        }
    }

    @Override
    public void close() {
        closeSnapshot();
        if (tx != null) {
            tx.rollback();
            tx = null;
        }
        store.close();
    }
}
