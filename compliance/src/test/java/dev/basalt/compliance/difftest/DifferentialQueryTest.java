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
import java.util.concurrent.TimeUnit;

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
 * Every disagreement is listed in the failure message and in
 * {@code target/difftest-disagreements.txt}, with the seed, dataset and query that reproduce it.
 */
class DifferentialQueryTest {
    private static final Logger LOG = LoggerFactory.getLogger(DifferentialQueryTest.class);
    static final long DEFAULT_SEED = 20_2611_25L;
    static final int DEFAULT_DATASETS = 50;
    static final int DEFAULT_QUERIES = 1_500;
    static final int QUERIES_PER_DATASET = 400;
    /** The default run's open disagreements, "dataset/query  note" per line (see docs/differential-testing.md). */
    static final String BASELINE = "/difftest-baseline.txt";

    @TempDir
    File dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void basaltAnswersRandomQueriesAsMemoryStoreDoes() throws IOException {
        long seed = Long.getLong("basalt.seed", DEFAULT_SEED);
        run(seed, DEFAULT_DATASETS, DEFAULT_QUERIES / DEFAULT_DATASETS, seed == DEFAULT_SEED ? baseline() : Set.of());
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
    void longRun() throws IOException {
        long queries = Long.getLong("basalt.difftest.queries", 1_000_000L);
        int datasets = (int) Math.max(1, queries / QUERIES_PER_DATASET);
        run(Long.getLong("basalt.seed", System.nanoTime()), datasets, (int) Math.max(1, queries / datasets), Set.of());
    }

    /**
     * Runs and fails on every disagreement not in {@code open}, and on every entry of {@code open}
     * that no longer disagrees (take it out of the baseline once it is fixed).
     */
    private void run(long seed, int datasets, int queriesPerDataset, Set<String> open) throws IOException {
        LOG.info("differential query test: seed {} ({} datasets x {} queries)", seed, datasets, queriesPerDataset);
        long start = System.nanoTime();
        DifferentialRunner.Tally total = new DifferentialRunner.Tally();
        int first = Integer.getInteger("basalt.difftest.dataset", 0);
        for (int d = first; d < first + datasets; d++) {
            Path storeDir = Files.createTempDirectory(dir.toPath(), "basalt");
            total.add(DifferentialRunner.run(seed, d, queriesPerDataset, storeDir.toFile()));
            deleteTree(storeDir);
            if ((d + 1) % 100 == 0) {
                LOG.info("{} datasets, {} queries compared, {} disagreements", d + 1, total.compared + total.agreedOnError,
                        total.disagreements.size());
            }
        }
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        String summary = String.format("seed %d: %d datasets (%d triples), %d queries agreed on their answers, %d agreed "
                + "by both failing, %d skipped (over %d rows or %d s), %d excluded, %d disagreements, in %d s (Basalt %d s, "
                + "MemoryStore %d s)", seed,
                total.datasets, total.triples, total.compared, total.agreedOnError, total.skipped, DifferentialRunner.MAX_ROWS,
                DifferentialRunner.TIMEOUT_SECONDS, total.excluded, total.disagreements.size(), seconds,
                total.basaltNanos / 1_000_000_000L, total.memoryNanos / 1_000_000_000L);
        LOG.info(summary);
        StringBuilder slowest = new StringBuilder("\nslowest queries (both stores):\n");
        total.slowest.descendingMap().forEach((nanos, text) -> slowest.append(nanos / 1_000_000).append(" ms ")
                .append(text.replace('\n', ' ')).append('\n'));
        Path report = Path.of("target", "difftest-disagreements.txt");
        Files.createDirectories(report.getParent());
        Files.writeString(report, summary + "\n" + slowest + "\n" + String.join("\n", total.disagreements));
        List<String> unexpected = new ArrayList<>();
        for (int i = 0; i < total.disagreementIds.size(); i++) {
            if (!open.contains(total.disagreementIds.get(i))) {
                unexpected.add(total.disagreements.get(i));
            }
        }
        Set<String> fixed = new TreeSet<>(open);
        fixed.removeAll(total.disagreementIds);
        assertTrue(fixed.isEmpty(), "these baselined disagreements agree now; take them out of " + BASELINE + ": " + fixed);
        assertTrue(unexpected.isEmpty(), summary + "; " + (total.disagreements.size() - unexpected.size())
                + " of them are open in " + BASELINE + ", these are not:\n\n"
                + String.join("\n", unexpected.subList(0, Math.min(20, unexpected.size()))));
    }

    private static void deleteTree(Path root) throws IOException {
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
