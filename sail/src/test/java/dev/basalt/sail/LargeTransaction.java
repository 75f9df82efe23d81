package dev.basalt.sail;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;

import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * Adds {@code n} generated statements ({@link SpillData}) to a new store in {@code dir} in ONE
 * transaction at the default isolation level, commits, checks the size and a sample, and prints
 * one line {@code OK statements=... addMillis=... commitMillis=... peakHeapMiB=... peakLiveMiB=...}.
 * Run in a child JVM by {@link SpillLargeTransactionTest} with a small heap. Peak heap is the sum of
 * the heap pools' peak usage (garbage included); peak live is the largest heap occupancy right
 * after a collection.
 */
public final class LargeTransaction {
    private LargeTransaction() {
    }

    public static void main(String[] args) {
        File dir = new File(args[0]);
        int n = Integer.parseInt(args[1]);
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        SailRepository repo = TestRepos.open(dir, config);
        long t0 = System.nanoTime();
        long added;
        long committed;
        BasaltStore sail = (BasaltStore) repo.getSail();
        try (RepositoryConnection c = repo.getConnection()) {
            c.begin();
            for (int i = 0; i < n; i++) {
                c.add(SpillData.statement(i));
            }
            added = System.nanoTime();
            c.commit();
            committed = System.nanoTime();
            check(c.size() == n, "size " + c.size() + " != " + n);
            for (int i = 0; i < n; i += n / 97) {
                check(c.hasStatement(SpillData.statement(i), false), "statement " + i + " missing");
            }
            check(!c.hasStatement(SpillData.statement(n), false), "statement " + n + " present");
        }
        long spills = sail.changeSetModels().spillCount();
        check(sail.changeSetModels().openSpillStores() == 0, "spill stores left open");
        repo.shutDown();
        long peak = 0;
        long live = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
                if (pool.getCollectionUsage() != null) {
                    live = Math.max(live, pool.getCollectionUsage().getUsed());
                }
            }
        }
        System.out.printf("OK statements=%d spills=%d addMillis=%d commitMillis=%d maxHeapMiB=%d peakHeapMiB=%d peakOldAfterGcMiB=%d%n",
                n, spills, (added - t0) / 1_000_000, (committed - added) / 1_000_000,
                Runtime.getRuntime().maxMemory() >> 20, peak >> 20, live >> 20);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            System.out.println("FAILED " + message);
            System.exit(2);
        }
    }
}
