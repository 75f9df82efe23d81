package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.cli.CliAccess;

/**
 * A parallel load that runs out of disk fails with a clear error and loses nothing: on a small
 * tmpfs, once with the store (journal and sort runs) on it, once with only the sort runs on it, and
 * once with the store on it and input whose terms fit but whose statement indices do not (the disk
 * fills while the indices are built from merged sort runs, with leaves coded on helper threads),
 * the load fails, the store still holds exactly its preloaded statements at its last commit point,
 * verify passes, no temporary files are left, and a load that fits works afterwards. Needs root to
 * mount the tmpfs (as in CI); skipped elsewhere.
 */
class LoadDiskFullTest {
    @TempDir
    Path tmp;

    @Test
    void fullDiskUnderTheStoreLeavesItUnchanged() throws Exception {
        Path mount = mount("store-fs");
        try {
            check(mount.resolve("store"), null);
        } finally {
            unmount(mount);
        }
    }

    @Test
    void fullDiskUnderTheSortRunsLeavesTheStoreUnchanged() throws Exception {
        // sort runs are coded at about 7 bytes a quad: 300,000 statements take about 6 MB in three orders
        Path mount = mount("runs-fs", "2m");
        try {
            check(tmp.resolve("store"), mount);
        } finally {
            unmount(mount);
        }
    }

    @Test
    void fullDiskWhileBuildingTheIndicesLeavesTheStoreUnchanged() throws Exception {
        Path mount = mount("index-fs");
        try {
            // 1,000 subjects and inline integer objects: a few KB of dictionary, megabytes of quads; the
            // integers are random (40 bits), so compressed index pages cannot fit them in the tmpfs either
            Path big = tmp.resolve("many-quads.nt");
            java.util.SplittableRandom random = new java.util.SplittableRandom(7);
            try (BufferedWriter w = Files.newBufferedWriter(big, StandardCharsets.UTF_8)) {
                for (int i = 0; i < 900_000; i++) {
                    w.write("<http://example.org/s" + (i % 1000) + "> <http://example.org/p> \"" + random.nextLong(1L << 40)
                            + "\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n");
                }
            }
            boolean[] building = {false};
            check(mount.resolve("store"), Files.createDirectories(tmp.resolve("runs")), big,
                    new LoadProgress() {
                        @Override
                        public void parsing(long statements, long bytesRead, long totalBytes, java.time.Duration e) {
                        }

                        @Override
                        public void building(String index, int number, int of, java.time.Duration elapsed) {
                            building[0] = true;
                        }
                    });
            assertTrue(building[0], "the disk filled before the index build; the input has too many terms for the test");
        } finally {
            unmount(mount);
        }
    }

    private void check(Path store, Path runs) throws Exception {
        check(store, runs, generate(tmp.resolve("big.nt"), 300_000), (s, b, t, e) -> { });
    }

    /** Preloads one statement, fails to load {@code big} for want of space, and checks that nothing changed. */
    private void check(Path store, Path runs, Path big, LoadProgress bigProgress) throws Exception {
        Path pre = Files.writeString(tmp.resolve("pre.nt"), "<http://example.org/a> <http://example.org/p> \"x\" .\n");
        LoadOptions options = LoadOptions.defaults().withConfig(LoadTestData.config()).withBatchStatements(5_000)
                .withSortBufferQuads(20_000).withChunkBytes(64 << 10).withParserThreads(2).withTempDir(runs)
                .withProgress((s, b, t, e) -> { });
        BasaltLoader.load(store, List.of(pre), options);
        LoadException e = assertThrows(LoadException.class,
                () -> BasaltLoader.load(store, List.of(big), options.withProgress(bigProgress)));
        assertTrue(e.getMessage().contains("unchanged") || e.getMessage().contains("space"), e.getMessage());
        SailRepository repo = LoadTestData.open(store);
        try (RepositoryConnection c = repo.getConnection()) {
            assertEquals(1, c.size(), "only the preloaded statement");
            assertEquals(1, ((dev.basalt.sail.BasaltStore) repo.getSail()).getRetainedCommits().get(0).counter());
        } finally {
            repo.shutDown();
        }
        assertEquals(0, CliAccess.run("verify", "--store", store.toString()));
        Path tempParent = runs != null ? runs : store;
        try (Stream<Path> left = Files.list(tempParent)) {
            assertEquals(List.of(), left.filter(p -> p.getFileName().toString().startsWith("load-")).toList(),
                    "temporary sort directories are removed");
        }
        Path small = generate(tmp.resolve("small.nt"), 2_000);
        assertEquals(2_000, BasaltLoader.load(store, List.of(small), options).statementsAdded());
    }

    private static Path generate(Path file, int triples) throws Exception {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < triples; i++) {
                w.write("<http://example.org/s" + i + "> <http://example.org/p" + (i % 7) + "> \"text number " + i
                        + " with some padding to take space\" .\n");
            }
        }
        return file;
    }

    private Path mount(String name) throws Exception {
        return mount(name, "6m");
    }

    private Path mount(String name, String size) throws Exception {
        Path mount = Files.createDirectories(tmp.resolve(name));
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", mount.toString()),
                "cannot mount a tmpfs here (needs root)");
        return mount;
    }

    private static void unmount(Path mount) throws Exception {
        run("umount", mount.toString());
    }

    private static boolean run(String... cmd) throws Exception {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
