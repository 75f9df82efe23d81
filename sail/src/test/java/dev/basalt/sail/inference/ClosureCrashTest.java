package dev.basalt.sail.inference;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.config.InferenceMode;
import dev.basalt.sail.load.KillableChild;

/**
 * Kills a child JVM with SIGKILL while it runs random transactions on a durable owl-rl store, then
 * reopens the store (same rule set, so nothing is recomputed on open) and checks that the stored
 * closure equals the closure of the explicit statements computed from scratch: the inferred
 * changes of a transaction commit atomically with its explicit ones.
 */
class ClosureCrashTest {
    @TempDir
    Path tmp;

    @Test
    void closureSurvivesKillDuringTransactions() throws Exception {
        long seed = Long.getLong("basalt.seed", System.nanoTime());
        Random rnd = new Random(seed);
        Path store = tmp.resolve("store");
        for (int kill = 0; kill < 3; kill++) {
            String ctx = "seed=" + seed + " kill #" + kill;
            AtomicLong committed = new AtomicLong(-1);
            KillableChild child = KillableChild.start(line -> read(line, committed), ClosureCrashChild.class,
                    store.toString(), Long.toString(rnd.nextLong()));
            long target = 20 + rnd.nextInt(60);
            child.awaitUntil(() -> committed.get() >= target, System.nanoTime() + TimeUnit.SECONDS.toNanos(120));
            assertTrue(child.isAlive(), ctx + ": the child ended by itself");
            Thread.sleep(rnd.nextInt(20));
            child.kill(ctx);
            assertTrue(committed.get() >= 0, ctx + ": the child committed nothing before the kill");
            SailRepository repo = InferenceRepos.open(store.toFile(), InferenceMode.OWL_RL);
            try {
                ClosureModelTest.checkClosure(repo, InferenceMode.OWL_RL, ctx + " (" + committed.get() + " commits):");
            } finally {
                repo.shutDown();
            }
        }
    }

    /** Records "COMMITTED n" lines of the child's output. */
    private static void read(String line, AtomicLong committed) {
        if (line.startsWith("COMMITTED ")) {
            committed.set(Long.parseLong(line.substring(10)));
        }
    }
}
