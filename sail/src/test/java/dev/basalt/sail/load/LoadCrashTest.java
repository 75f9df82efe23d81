package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.cli.CliAccess;

/**
 * Kills a child JVM with SIGKILL at random moments of a bulk load of 100k triples, 50 times (500
 * in the long run): while parsing on several threads and spilling sorted runs, while building an
 * index, around the commit. It checks each time that
 * the store opens at its last commit point: the preloaded statements exactly (size and checksum),
 * a passing verify (checksums, B+tree invariants, space audit, every index order holding the same
 * quads). A last run is left to finish and must add every statement.
 */
class LoadCrashTest {
    private static final int TRIPLES = 100_000;

    @TempDir
    Path tmp;

    @Test
    void killedLoadsLeaveTheLastCommit() throws Exception {
        killedLoads(Integer.getInteger("basalt.load.kills", 50), false);
    }

    /** Into a store without terms, whose dictionary the load builds bottom-up. */
    @Test
    void killedLoadsIntoAnEmptyStoreLeaveIt() throws Exception {
        killedLoads(Integer.getInteger("basalt.load.kills", 50) / 2, true);
    }

    @Test
    @Tag("long")
    void killedLoadsLeaveTheLastCommitLong() throws Exception {
        killedLoads(Integer.getInteger("basalt.load.longKills", 500), false);
        killedLoads(Integer.getInteger("basalt.load.longKills", 500) / 2, true);
    }

    /** Creates the store: with two statements, or (empty) only opened and shut down by a repository. */
    private void preload(Path store, Path pre, boolean empty) {
        if (empty) {
            LoadTestData.open(store).shutDown();
        } else {
            BasaltLoader.load(store, List.of(pre), LoadOptions.defaults().withConfig(LoadTestData.config())
                    .withProgress((s, b, t, e) -> { }));
        }
    }

    private void killedLoads(int kills, boolean empty) throws Exception {
        long seed = Long.getLong("basalt.seed", System.nanoTime());
        Random rnd = new Random(seed);
        Path store = tmp.resolve(empty ? "empty-store" : "store");
        Path pre = Files.writeString(tmp.resolve("pre.nt"), "<http://example.org/a> <http://example.org/p> \"x\" .\n"
                + "<http://example.org/a> <http://example.org/q> <http://example.org/b> .\n");
        preload(store, pre, empty);
        long[] before = sizeAndChecksum(store);
        Path big = generate(tmp.resolve("big.nt"));
        // events: one per batch (LoadChild.BATCH statements), one per index (4), one for the commit
        int events = TRIPLES / LoadChild.BATCH + 5;
        for (int kill = 0; kill < kills; kill++) {
            String ctx = "seed=" + seed + " kill #" + kill;
            AtomicLong seen = new AtomicLong();
            AtomicLong done = new AtomicLong(-1);
            KillableChild child = KillableChild.start(line -> readEvent(line, seen, done), LoadChild.class,
                    store.toString(), big.toString());
            long target = 1 + rnd.nextInt(events);
            child.awaitUntil(() -> seen.get() >= target, System.nanoTime() + TimeUnit.SECONDS.toNanos(240));
            Thread.sleep(rnd.nextInt(60));
            int exit = child.kill(ctx);
            if (done.get() < 0 && sizeAndChecksum(store)[2] == before[2] + 1) {
                // the commit landed before the kill, but its DONE line was still in the pipe, which
                // Process.destroyForcibly discards: then the whole load must be there
                assertEquals(before[0] + TRIPLES, sizeAndChecksum(store)[0], ctx + ": a partial load is visible");
                done.set(before[2] + 1);
            }
            if (done.get() >= 0) {
                // it finished before the kill: start over from the preloaded state
                Files.walk(store).sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                preload(store, pre, empty);
                before = sizeAndChecksum(store);
                continue;
            }
            assertEquals(KillableChild.SIGKILL_EXIT, exit, ctx + ": the child did not die by SIGKILL (did it fail?)");
            assertEquals(0, CliAccess.run("verify", "--store", store.toString()), ctx + ": verify failed");
            long[] after = sizeAndChecksum(store);
            assertEquals(before[0], after[0], ctx + ": size changed (killed after event " + seen.get() + ")");
            assertEquals(before[1], after[1], ctx + ": checksum changed");
            assertEquals(before[2], after[2], ctx + ": commit point changed");
        }
        AtomicLong done = new AtomicLong(-1);
        KillableChild last = KillableChild.start(line -> readEvent(line, new AtomicLong(), done), LoadChild.class,
                store.toString(), big.toString());
        assertEquals(0, last.awaitExit(300, "seed=" + seed + ": the last load did not finish"));
        assertEquals(before[2] + 1, done.get());
        assertEquals(before[0] + TRIPLES, sizeAndChecksum(store)[0]);
        assertEquals(0, CliAccess.run("verify", "--store", store.toString()));
    }

    /** Size, checksum of all statements, and the commit counter. */
    private static long[] sizeAndChecksum(Path store) {
        SailRepository repo = LoadTestData.open(store);
        try (RepositoryConnection c = repo.getConnection()) {
            return new long[] { c.size(), LoadTestData.checksum(repo),
                    ((dev.basalt.sail.BasaltStore) repo.getSail()).getRetainedCommits().get(0).counter() };
        } finally {
            repo.shutDown();
        }
    }

    private static Path generate(Path file) throws Exception {
        Random rnd = new Random(7);
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < TRIPLES; i++) {
                int s = i / 5;
                w.write("<http://example.org/s" + s + "> <http://example.org/p" + (i % 5) + "> ");
                switch (i % 5) {
                    case 0 -> w.write("<http://example.org/o" + rnd.nextInt(50_000) + ">");
                    case 1 -> w.write("\"" + rnd.nextInt(1_000_000) + "\"^^<http://www.w3.org/2001/XMLSchema#integer>");
                    case 2 -> w.write("\"label of " + s + "\"@en");
                    case 3 -> w.write("\"some text " + rnd.nextLong() + "\"");
                    default -> w.write("<http://example.org/type" + (s % 20) + ">");
                }
                w.write(" .\n");
            }
        }
        assertTrue(Files.size(file) > 0);
        return file;
    }

    /** Records "EVENT n" (the child's progress) and "DONE c" (its commit) lines of the child's output. */
    private static void readEvent(String line, AtomicLong seen, AtomicLong done) {
        if (line.startsWith("EVENT ")) {
            seen.set(Long.parseLong(line.substring(6)));
        } else if (line.startsWith("DONE ")) {
            done.set(Long.parseLong(line.substring(5)));
        }
    }

}
