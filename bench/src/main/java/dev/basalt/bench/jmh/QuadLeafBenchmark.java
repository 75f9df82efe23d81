package dev.basalt.bench.jmh;

import dev.basalt.store.Snapshot;
import dev.basalt.store.Store;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeConfig;
import dev.basalt.store.btree.BTreeCursor;
import dev.basalt.store.btree.BTreeStats;
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

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The statement-index read path on the two leaf codings side by side: one tree of {@code quads}
 * four-id keys in SPOC order shaped like BSBM's (subjects with 6 to 20 statements over 40
 * predicates; objects IRIs, literals, inline integers and dateTimes; the default graph),
 * bulk-built once per trial with front-coded leaves ({@code coding=front}) or id-tuple leaves
 * ({@code idtuple}), and read through a snapshot with a page cache that holds the whole tree:
 * the lookup of an existing quad, the prefix scan of one subject's statements (a pattern
 * {@code (s ? ? ?)}, the engine's most frequent access), and a scan of 1000 entries. The setup
 * prints the tree's bytes per quad.
 *
 * <p>Not thread-safe: its state is shared by the benchmark's threads ({@code Scope.Benchmark}) and its
 * methods share one cursor and one random stream, so it runs with JMH's default of one thread.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class QuadLeafBenchmark {
    private static final long IRI = 0x2L << 60;
    private static final long LITERAL = 0x3L << 60;
    private static final long INTEGER = 0x7L << 60 | 1L << 59;
    private static final long DATE_TIME = 0xBL << 60 | 1L << 59;

    @Param({"front", "idtuple"})
    public String coding;

    @Param("2000000")
    public int quads;

    private Path dir;
    private Store store;
    private Snapshot snapshot;
    private BTree tree;
    private BTreeCursor cursor;
    private final List<byte[]> keys = new ArrayList<>();
    private long subjects;
    private final SplittableRandom random = new SplittableRandom(42);

    @Setup(Level.Trial)
    public void build() {
        dir = StoreFiles.newDirectory("quads-" + coding);
        StoreConfig defaults = StoreConfig.defaults();
        BTreeConfig tree = BTreeConfig.builder().idTupleWidth(coding.equals("idtuple") ? 4 : 0).build();
        store = Store.open(dir.resolve("basalt.jnl"), defaults.withJournal(defaults.journal().withDurable(false))
                .withPageCacheBytes(512L << 20).withDefaultTree(tree));
        SplittableRandom r = new SplittableRandom(7);
        long literal = 0;
        while (keys.size() < quads) {
            subjects++;
            long s = IRI | 1000 + subjects;
            int statements = 6 + r.nextInt(15);
            long p = 0;
            for (int i = 0; i < statements && keys.size() < quads; i++) {
                p += 1 + r.nextInt(2);
                long o = switch (r.nextInt(4)) {
                    case 0 -> IRI | 1000 + r.nextLong(subjects + 1);
                    case 1 -> LITERAL | ++literal;
                    case 2 -> INTEGER | (long) r.nextInt(2000) << 8;
                    default -> DATE_TIME | (1_100_000_000_000L + r.nextLong(400_000_000_000L)) << 7;
                };
                keys.add(ByteBuffer.allocate(32).putLong(s).putLong(IRI | p).putLong(o).putLong(1).array());
            }
        }
        try (WriteTransaction tx = store.begin()) {
            tx.bulkBuild("spoc", keys.stream().map(k -> Map.entry(k, new byte[0])).iterator());
            tx.commit();
        }
        snapshot = store.snapshot();
        this.tree = snapshot.tree("spoc");
        BTreeStats stats = this.tree.verify();
        cursor = this.tree.cursor(null, null);
        System.out.printf("%n[%s] %,d quads, %,d subjects: %,d bytes in %,d pages (%,d leaves, %,d leaf bytes), %.2f bytes/quad%n",
                coding, keys.size(), subjects, stats.recordBytes(), stats.pages(), stats.leafPages(), stats.leafBytes(),
                stats.recordBytes() / (double) keys.size());
    }

    @TearDown(Level.Trial)
    public void close() {
        snapshot.close();
        store.close();
        StoreFiles.delete(dir);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Warmup(iterations = 2, time = 5)
    @Measurement(iterations = 3, time = 5)
    public boolean lookup() {
        if (!tree.containsKey(keys.get(random.nextInt(keys.size())))) {
            throw new IllegalStateException("an existing quad was not found");
        }
        return true;
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Warmup(iterations = 2, time = 5)
    @Measurement(iterations = 3, time = 5)
    public int subjectScan(Blackhole sink) {
        cursor.resetPrefix(ByteBuffer.allocate(8).putLong(IRI | 1001 + random.nextLong(subjects)).array());
        int n = 0;
        while (cursor.next()) {
            sink.consume(cursor.keyView()[23]);
            n++;
        }
        if (n == 0) {
            throw new IllegalStateException("a subject scan saw no statements");
        }
        return n;
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Warmup(iterations = 2, time = 5)
    @Measurement(iterations = 3, time = 5)
    public int scan1000(Blackhole sink) {
        cursor.reset(keys.get(random.nextInt(keys.size() - 1000)), null);
        int n = 0;
        while (n < 1000 && cursor.next()) {
            sink.consume(cursor.keyView()[23]);
            n++;
        }
        return n;
    }
}
