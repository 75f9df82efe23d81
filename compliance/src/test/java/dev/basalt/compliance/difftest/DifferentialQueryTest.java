package dev.basalt.compliance.difftest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.ArrayDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.eclipse.rdf4j.query.algebra.evaluation.optimizer.ParentReferenceChecker;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Differential query testing: random queries over random datasets on Basalt and on RDF4J's
 * MemoryStore must give the same answers ({@link DifferentialRunner}). The default run compares
 * {@value #DEFAULT_QUERIES} queries over {@value #DEFAULT_DATASETS} datasets with a fixed seed;
 * {@code -Dbasalt.seed=N} varies it, and the tagged-long run takes its budget from
 * {@code -Dbasalt.difftest.queries} (default one million, {@value #QUERIES_PER_DATASET} per dataset).
 * A disagreement that {@link Exclusions} does not explain is put to Jena ARQ and to MemoryStore
 * without its optimizer pipeline, and explained only by a category of {@link Arbitration}. Every
 * other disagreement is listed in the failure message and in
 * {@code target/difftest-disagreements.txt}, with the seed, dataset and query that reproduce it.
 */
class DifferentialQueryTest {
    private static final Logger LOG = LoggerFactory.getLogger(DifferentialQueryTest.class);
    static final long DEFAULT_SEED = 20_2611_25L;
    static final int DEFAULT_DATASETS = 50;
    static final int DEFAULT_QUERIES = 20_000;
    static final int QUERIES_PER_DATASET = 400;
    static final int THREADS = 2;
    static final int PROGRESS_DATASETS = 25;
    /** The default run's open disagreements, "dataset/query  note" per line (see docs/differential-testing.md). */
    static final String BASELINE = "/difftest-baseline.txt";
    static final int FORCED_JOIN_DATASETS = 10;
    /** A query hint put into every query Basalt runs, or null. */
    private String hint;

    @TempDir
    File dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void basaltAnswersRandomQueriesAsMemoryStoreDoes() throws Exception {
        long seed = Long.getLong("basalt.seed", DEFAULT_SEED);
        run(seed, DEFAULT_DATASETS, DEFAULT_QUERIES / DEFAULT_DATASETS, seed == DEFAULT_SEED ? baseline() : Set.of());
    }

    /**
     * The first {@value #FORCED_JOIN_DATASETS} datasets of the default run with merge and hash
     * joins forced on every pattern join that can take one (query hint {@code joins "hash-merge"}):
     * the same answers, so the same open disagreements.
     */
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void mergeAndHashJoinsForcedAnswerAsMemoryStoreDoes() throws Exception {
        Set<String> open = new TreeSet<>();
        for (String id : baseline()) {
            if (Integer.parseInt(id.substring(0, id.indexOf('/'))) < FORCED_JOIN_DATASETS) {
                open.add(id);
            }
        }
        hint = "[] <http://basalt.dev/hint#joins> \"hash-merge\" .";
        run(DEFAULT_SEED, FORCED_JOIN_DATASETS, QUERIES_PER_DATASET, open);
    }

    /** The ids of the default run's open disagreements. */
    private static Set<String> baseline() throws IOException {
        try (InputStream in = DifferentialQueryTest.class.getResourceAsStream(BASELINE)) {
            if (in == null) {
                throw new IOException("missing test resource " + BASELINE);
            }
            Set<String> ids = new TreeSet<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String t = line.strip();
                if (!t.isEmpty() && !t.startsWith("#")) {
                    ids.add(t.split("\\s+")[0]);
                }
            }
            return ids;
        }
    }

    @Test
    @Tag("long")
    @Timeout(value = 7, unit = TimeUnit.DAYS)
    void longRun() throws Exception {
        long queries = Long.getLong("basalt.difftest.queries", 1_000_000L);
        int datasets = (int) Math.max(1, queries / QUERIES_PER_DATASET);
        run(Long.getLong("basalt.seed", System.nanoTime()), datasets, (int) Math.max(1, queries / datasets), Set.of());
    }

    /**
     * Runs and fails on every disagreement not in {@code open}, and on every entry of {@code open}
     * that no longer disagrees (take it out of the baseline once it is fixed). Datasets run on
     * {@code -Dbasalt.difftest.threads} workers (default {@value #THREADS}); their tallies are added in
     * dataset order, so the report does not depend on the number of workers. Every
     * {@value #PROGRESS_DATASETS} datasets the report so far is written, so a long run that is stopped
     * still says what it ran.
     */
    private void run(long seed, int datasets, int queriesPerDataset, Set<String> open) throws Exception {
        int threads = Math.max(1, Integer.getInteger("basalt.difftest.threads", THREADS));
        LOG.info("differential query test: seed {} ({} datasets x {} queries, {} threads)", seed, datasets, queriesPerDataset,
                threads);
        long start = System.nanoTime();
        // Under the tests' -ea, RDF4J checks after every step of its optimizer pipeline that the query
        // tree survives Java serialization, on both stores: most of a short query's time, and a check
        // of RDF4J's own invariants, not of answers. Its switch is a static field; the module's test
        // classes run one after another, and it is restored below.
        boolean checkedBefore = ParentReferenceChecker.skip;
        ParentReferenceChecker.skip = true;
        try {
            compare(seed, datasets, queriesPerDataset, open, threads, start);
        } finally {
            ParentReferenceChecker.skip = checkedBefore;
        }
    }

    private void compare(long seed, int datasets, int queriesPerDataset, Set<String> open, int threads, long start)
            throws Exception {
        Path stores = storeRoot();
        DifferentialRunner.Tally total = new DifferentialRunner.Tally();
        int first = Integer.getInteger("basalt.difftest.dataset", 0);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            ArrayDeque<Future<DifferentialRunner.Tally>> pending = new ArrayDeque<>();
            for (int d = first; d < first + datasets; d++) {
                int dataset = d;
                pending.add(pool.submit(() -> {
                    Path storeDir = Files.createTempDirectory(stores, "basalt-" + dataset + "-");
                    try {
                        return DifferentialRunner.run(seed, dataset, queriesPerDataset, storeDir.toFile(), hint);
                    } finally {
                        deleteTree(storeDir);
                    }
                }));
                while (pending.size() > 2 * threads || (d == first + datasets - 1 && !pending.isEmpty())) {
                    total.add(pending.removeFirst().get());
                    if (total.datasets % PROGRESS_DATASETS == 0) {
                        LOG.info("{} datasets, {} queries compared, {} disagreements", total.datasets,
                                total.compared + total.agreedOnError + total.excluded, total.disagreements.size());
                        writeReport(summary(seed, total, start), total);
                    }
                }
            }
        } finally {
            pool.shutdownNow();
            if (!stores.equals(dir.toPath())) {
                deleteTree(stores);
            }
        }
        String summary = summary(seed, total, start);
        LOG.info(summary);
        writeReport(summary, total);
        List<String> unexpected = new ArrayList<>();
        for (int i = 0; i < total.disagreementIds.size(); i++) {
            if (!open.contains(total.disagreementIds.get(i))) {
                unexpected.add(total.disagreements.get(i));
            }
        }
        Set<String> fixed = new TreeSet<>(open);
        fixed.removeAll(total.disagreementIds);
        fixed.removeAll(total.skippedIds);
        assertTrue(fixed.isEmpty(), "these baselined disagreements agree now; take them out of " + BASELINE + ": " + fixed);
        assertTrue(unexpected.isEmpty(), summary + "; " + (total.disagreements.size() - unexpected.size())
                + " of them are open in " + BASELINE + ", these are not:\n\n"
                + String.join("\n", unexpected.subList(0, Math.min(20, unexpected.size()))));
    }

    /** Where the stores go: a directory in /dev/shm where there is one (the stores are scratch), else the test's. */
    private Path storeRoot() throws IOException {
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            return Files.createTempDirectory(shm, "basalt-difftest-");
        }
        return dir.toPath();
    }

    private static String summary(long seed, DifferentialRunner.Tally total, long start) {
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        long arbitrated = total.arbitrated.values().stream().mapToLong(Long::longValue).sum();
        long queries = total.compared + total.agreedOnError + total.skipped + total.excluded + arbitrated
                + total.disagreements.size();
        return String.format("seed %d: %d datasets (%d triples), %d queries: %d agreed on their answers, %d agreed "
                + "by both failing, %d skipped (over %d rows or %d s), %d excluded, %d explained by arbitration %s, "
                + "%d disagreements, in %d s, %.0f queries/s "
                + "(Basalt %d s, MemoryStore %d s, summed over the workers)", seed, total.datasets, total.triples, queries,
                total.compared, total.agreedOnError, total.skipped, DifferentialRunner.MAX_ROWS,
                DifferentialRunner.TIMEOUT_SECONDS, total.excluded, arbitrated, total.arbitrated,
                total.disagreements.size(), seconds,
                queries / Math.max(1e-3, (System.nanoTime() - start) / 1e9), total.basaltNanos / 1_000_000_000L,
                total.memoryNanos / 1_000_000_000L);
    }

    private static void writeReport(String summary, DifferentialRunner.Tally total) throws IOException {
        StringBuilder slowest = new StringBuilder("\nslowest queries (both stores):\n");
        total.slowest.descendingMap().forEach((nanos, text) -> slowest.append(nanos / 1_000_000).append(" ms ")
                .append(text.replace('\n', ' ')).append('\n'));
        Path report = Path.of("target", "difftest-disagreements.txt");
        Files.createDirectories(report.getParent());
        Files.writeString(report, summary + "\n" + slowest + "\n" + String.join("\n", total.disagreements));
    }

    private static void deleteTree(Path root) throws IOException {
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
