package dev.basalt.bench.jmh;

import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.type.ByteArrayDataType;
import org.openjdk.jmh.infra.Blackhole;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

/**
 * H2's MVStore as the peer: one file store, one map of unsigned byte-string keys, auto-commit
 * off (no background writer thread, no commit triggered by unsaved memory), so it commits
 * exactly when the benchmark does, in the caller's thread; its cache set to the same size as
 * Basalt's page cache; everything else at MVStore's defaults (no compression, 48 keys per page,
 * 45 s retention of old chunks). Its commit writes a chunk but does not fsync (MVStore only
 * syncs on close, compaction and file shrinking), so both engines run without forcing at commit.
 */
final class MvStoreEngine implements KeyValueEngine {
    private static final String MAP = "kv";

    private final Path file;
    private final int cacheMb;
    private final MVStore store;
    private MVMap<byte[], byte[]> map;

    MvStoreEngine(Path dir, int cacheMb) {
        this.file = dir.resolve("mvstore.db");
        this.cacheMb = cacheMb;
        this.store = new MVStore.Builder()
                .fileName(file.toString())
                .autoCommitDisabled()
                .autoCommitBufferSize(0)
                .cacheSize(cacheMb)
                .open();
    }

    private MVMap<byte[], byte[]> map(boolean singleWriter) {
        if (map == null) {
            MVMap.Builder<byte[], byte[]> b = new MVMap.Builder<byte[], byte[]>()
                    .keyType(UnsignedBytesType.INSTANCE)
                    .valueType(ByteArrayDataType.INSTANCE);
            map = store.openMap(MAP, singleWriter ? b.singleWriter() : b);
        }
        return map;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        map(false).put(key, value);
    }

    @Override
    public void commit() {
        store.commit();
    }

    /** MVStore's fastest path for sorted input: {@link MVMap#append} into a single-writer map, one commit. */
    @Override
    public void bulkLoad(Iterator<Map.Entry<byte[], byte[]>> sorted) {
        MVMap<byte[], byte[]> m = map(true);
        while (sorted.hasNext()) {
            Map.Entry<byte[], byte[]> e = sorted.next();
            m.append(e.getKey(), e.getValue());
        }
        commit();
    }

    @Override
    public void startReading() {
        commit();
        map(false);
    }

    @Override
    public byte[] get(byte[] key) {
        return map.get(key);
    }

    @Override
    public long scan(byte[] from, long limit, Blackhole sink) {
        Cursor<byte[], byte[]> c = map.cursor(from);
        long n = 0;
        while (n < limit && c.hasNext()) {
            sink.consume(c.next());
            sink.consume(c.getValue());
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
        return "mvstore: autocommit off, cache " + cacheMb + " MiB, keysPerPage "
                + store.getKeysPerPage() + ", no compression";
    }

    @Override
    public void close() {
        store.close();
    }
}
