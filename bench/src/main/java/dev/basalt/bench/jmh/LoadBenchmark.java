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
import org.openjdk.jmh.annotations.Timeout;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Loads {@code keys} entries into a new, empty store per iteration and commits; one invocation is
 * one whole load, so the score is seconds per load (keys / score = entries per second). Inserts
 * commit every {@code commitEvery} puts and once at the end, in every engine; bulk build is one
 * call of the engine's sorted-load path and one commit. The bytes on disk after each load are
 * logged as {@code [store-size]} lines. There is no warm-up iteration: a load of millions of
 * entries runs long past the JIT's warm-up, and a 10M-key load takes minutes on a shared machine.
 * The iteration time-out is an hour, not JMH's 10 minutes: at the time-out JMH interrupts the
 * benchmark thread, and an interrupt closes the engines' file channels.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@Warmup(iterations = 0)
@Measurement(iterations = 3)
@Timeout(time = 60, timeUnit = TimeUnit.MINUTES)
public class LoadBenchmark {
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

    @Setup(Level.Iteration)
    public void openEmpty() {
        dir = StoreFiles.newDirectory(engine);
        store = KeyValueEngine.open(engine, dir, cacheMb, basaltWriteRetention);
    }

    @TearDown(Level.Iteration)
    public void closeAndDelete(BenchmarkParams params) {
        long afterCommit = store.fileBytes();
        store.close();
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        StoreFiles.report(engine, method, keys, afterCommit, store.fileBytes());
        StoreFiles.delete(dir);
    }

    @Benchmark
    public void sequentialInsert() {
        for (long i = 0; i < keys; i++) {
            store.put(Keys.sequential(i), Keys.value(i));
            if ((i + 1) % commitEvery == 0) {
                store.commit();
            }
        }
        store.commit();
    }

    @Benchmark
    public void randomInsert() {
        for (long i = 0; i < keys; i++) {
            store.put(Keys.randomOrder(i), Keys.value(i));
            if ((i + 1) % commitEvery == 0) {
                store.commit();
            }
        }
        store.commit();
    }

    @Benchmark
    public void bulkBuild() {
        store.bulkLoad(Keys.ascending(keys));
    }
}
