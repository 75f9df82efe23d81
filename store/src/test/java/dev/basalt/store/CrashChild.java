package dev.basalt.store;

import dev.basalt.store.journal.CommitPoint;

import java.nio.file.Path;

/**
 * Child JVM of {@link CrashRecoveryTest}: opens the store and commits the {@link Workload} one
 * commit after another, printing "ACK n" only after commit n returned (is durable), until killed.
 */
public final class CrashChild {
    private CrashChild() {
    }

    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        Workload w = new Workload(Long.parseLong(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        try (Store store = Store.open(file, StoreConfig.defaults())) {
            System.out.println("READY " + store.stats().journal().commitCounter());
            System.out.flush();
            while (true) {
                try (WriteTransaction tx = store.begin()) {
                    long next = store.stats().journal().commitCounter() + 1;
                    w.apply(next, tx.tree(Workload.TREE));
                    tx.setProperty("commit", Long.toString(next).getBytes());
                    CommitPoint p = tx.commit();
                    System.out.println("ACK " + p.counter());
                    System.out.flush();
                }
            }
        }
    }
}
