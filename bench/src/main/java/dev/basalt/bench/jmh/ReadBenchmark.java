package dev.basalt.bench.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Reads from a store holding {@code keys} sequential keys, loaded once per trial by inserting
 * them in key order with a commit every {@code commitEvery} puts (the same load in every engine):
 * point lookups of random existing keys, scans of 1000 consecutive entries from random existing
 * keys (both in operations per second) and a full scan (seconds per scan). One reader thread.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class ReadBenchmark {
    static final int SCAN_LENGTH = 1000;

    @Param({"basalt", "mvstore"})
    public String engine;

    @Param("10000000")
    public long keys;

    @Param("100000")
    public int commitEvery;

    /** Basalt's page cache and MVStore's cache, in MiB. */
    @Param("128")
    public int cacheMb;

    /**
     * Basalt's write-retention capacity in pages (its default is 1024). MVStore with auto-commit
     * off keeps every page changed since the last commit in memory; 65536 pages lets Basalt hold
     * about one commit interval's worth too. MVStore ignores it.
     */
    @Param("65536")
    public int basaltWriteRetention;

    private Path dir;
    private KeyValueEngine store;
    private final SplittableRandom random = new SplittableRandom(42);

    @Setup(Level.Trial)
    public void load() {
        dir = StoreFiles.newDirectory(engine);
        store = KeyValueEngine.open(engine, dir, cacheMb, basaltWriteRetention);
        for (long i = 0; i < keys; i++) {
            store.put(Keys.sequential(i), Keys.value(i));
            if ((i + 1) % commitEvery == 0) {
                store.commit();
            }
        }
        store.startReading();
        System.out.println("\n[engine] " + store.describe());
    }

    @TearDown(Level.Trial)
    public void closeAndDelete() {
        store.close();
        StoreFiles.delete(dir);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Warmup(iterations = 2, time = 10)
    @Measurement(iterations = 3, time = 10)
    public byte[] pointLookup() {
        byte[] v = store.get(Keys.sequential(random.nextLong(keys)));
        if (v == null) {
            throw new IllegalStateException("an existing key was not found");
        }
        return v;
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Warmup(iterations = 2, time = 10)
    @Measurement(iterations = 3, time = 10)
    public long rangeScan1000(Blackhole sink) {
        long n = store.scan(Keys.sequential(random.nextLong(keys - SCAN_LENGTH)), SCAN_LENGTH, sink);
        if (n != SCAN_LENGTH) {
            throw new IllegalStateException("scan saw " + n + " entries, expected " + SCAN_LENGTH);
        }
        return n;
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Warmup(iterations = 2)
    @Measurement(iterations = 5)
    public long fullScan(Blackhole sink) {
        long n = store.scan(null, Long.MAX_VALUE, sink);
        if (n != keys) {
            throw new IllegalStateException("full scan saw " + n + " entries, expected " + keys);
        }
        return n;
    }
}
