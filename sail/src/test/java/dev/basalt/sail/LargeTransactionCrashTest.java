package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.cli.CliAccess;
import dev.basalt.sail.load.KillableChild;

/**
 * Kills a child JVM with SIGKILL while it builds a large transaction (pending changes spilled to
 * disk) or commits it, and checks each time that the store opens at its last commit point exactly
 * (same size, same commit counter, verify passing), and that the spill files of the dead process
 * do not survive the next open. A transaction whose commit() returned is all there.
 */
class LargeTransactionCrashTest {
    private static final int STATEMENTS = 200_000;

    @TempDir
    Path tmp;

    @Test
    void killedLargeTransactionsLeaveTheLastCommit() throws Exception {
        long seed = Long.getLong("basalt.seed", System.nanoTime());
        Random rnd = new Random(seed);
        Path store = tmp.resolve("store");
        long expectedSize = 0;
        for (int kill = 0; kill < 4; kill++) {
            String ctx = "seed=" + seed + " kill #" + kill;
            long[] before = sizeAndCommit(store);
            assertEquals(expectedSize, before[0], ctx);
            AtomicLong events = new AtomicLong();
            AtomicBoolean committing = new AtomicBoolean();
            AtomicBoolean done = new AtomicBoolean();
            KillableChild child = KillableChild.start(line -> read(line, events, committing, done),
                    LargeTransactionChild.class, store.toString(), Integer.toString(STATEMENTS));
            // kill while adding (a random batch) or, every other time, right after commit() began
            long target = kill % 2 == 0 ? 1 + rnd.nextInt(STATEMENTS / 20_000) : Long.MAX_VALUE;
            child.awaitUntil(() -> events.get() >= target || committing.get(),
                    System.nanoTime() + TimeUnit.SECONDS.toNanos(300));
            Thread.sleep(rnd.nextInt(100));
            child.kill(ctx);
            long[] after = sizeAndCommit(store);
            assertEquals(0, CliAccess.run("verify", "--store", store.toString()), ctx + ": verify failed");
            if (after[1] == before[1]) {
                assertEquals(before[0], after[0], ctx + ": size changed without a commit (killed at event "
                        + events.get() + ", committing " + committing.get() + ")");
            } else {
                // the commit became durable before the kill landed: all of it is there
                assertTrue(committing.get(), ctx + ": a commit point appeared before commit() was called");
                assertEquals(before[1] + 1, after[1], ctx);
                assertEquals(before[0] + STATEMENTS, after[0], ctx + ": a partial transaction is visible");
                expectedSize = after[0];
            }
            assertTrue(!done.get() || after[1] == before[1] + 1, ctx + ": commit() returned but the commit is missing");
            assertTrue(!java.nio.file.Files.exists(store.resolve("spill"))
                    || java.nio.file.Files.list(store.resolve("spill")).findAny().isEmpty(),
                    ctx + ": spill files of the killed process survived the next open");
        }
    }

    /** Size and newest commit counter, opening and closing the store (which also clears spill leftovers). */
    private static long[] sizeAndCommit(Path store) {
        SailRepository repo = TestRepos.open(store.toFile(), new dev.basalt.sail.config.BasaltStoreConfig());
        try (RepositoryConnection c = repo.getConnection()) {
            BasaltStore sail = (BasaltStore) repo.getSail();
            var commits = sail.getRetainedCommits();
            return new long[] { c.size(), commits.isEmpty() ? 0 : commits.get(commits.size() - 1).counter() };
        } finally {
            repo.shutDown();
        }
    }

    /** Records "EVENT n" (batches added), "COMMITTING" and "DONE" (commit() returned) lines of the child's output. */
    private static void read(String line, AtomicLong events, AtomicBoolean committing, AtomicBoolean done) {
        if (line.startsWith("EVENT ")) {
            events.set(Long.parseLong(line.substring(6)));
        } else if (line.equals("COMMITTING")) {
            committing.set(true);
        } else if (line.equals("DONE")) {
            done.set(true);
        }
    }
}
