package dev.basalt.bench.jmh;

import org.openjdk.jmh.infra.Blackhole;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

/**
 * The few operations the storage benchmarks drive, so one benchmark method measures every engine
 * the same way. One writer thread; reads go to what the last {@link #commit} made visible.
 */
interface KeyValueEngine extends AutoCloseable {
    /** Puts into the open write transaction. */
    void put(byte[] key, byte[] value);

    /** Commits everything put since the last commit. */
    void commit();

    /** Fills the empty store from entries in ascending key order, the engine's fastest way, and commits. */
    void bulkLoad(Iterator<Map.Entry<byte[], byte[]>> sorted);

    /** Switches to reading the last commit (a snapshot where the engine has one). */
    void startReading();

    byte[] get(byte[] key);

    /** Visits up to {@code limit} entries from {@code from} (null: the first key) on; returns how many. */
    long scan(byte[] from, long limit, Blackhole sink);

    /** Bytes of the store's files on disk now. */
    long fileBytes();

    /** The engine's settings, for the run log. */
    String describe();

    @Override
    void close();

    /**
     * Opens an engine by the name used in the benchmarks' {@code engine} parameter.
     * {@code basaltWriteRetention} is Basalt's write-retention capacity in pages; MVStore ignores it.
     */
    static KeyValueEngine open(String engine, Path dir, int cacheMb, int basaltWriteRetention) {
        return switch (engine) {
            case "basalt" -> new BasaltEngine(dir, cacheMb, basaltWriteRetention);
            case "mvstore" -> new MvStoreEngine(dir, cacheMb);
            default -> throw new IllegalArgumentException("unknown engine '" + engine + "' (basalt, mvstore)");
        };
    }
}
