package dev.basalt.store;

import dev.basalt.store.journal.CommitPoint;

import java.nio.file.Path;

/**
 * Child JVM of {@link CrashRecoveryTest}: opens the store and commits the {@link Workload} one
 * commit after another, appending "n" to the acknowledgement file only after commit n returned (is
 * durable), until killed. The file, not stdout, carries the acknowledgements: a write to a file is
 * in the kernel when it returns and survives SIGKILL, while a killed child's unread pipe output is
 * discarded by the parent's Process.destroyForcibly.
 */
public final class CrashChild {
    private CrashChild() {
    }

    public static void main(String[] args) throws java.io.IOException {
        Path file = Path.of(args[0]);
        Workload w = new Workload(Long.parseLong(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        try (Store store = Store.open(file, StoreConfig.defaults());
             java.io.FileOutputStream acks = new java.io.FileOutputStream(args[4], true)) {
            System.out.println("READY " + store.stats().journal().commitCounter());
            System.out.flush();
            while (true) {
                try (WriteTransaction tx = store.begin()) {
                    long next = store.stats().journal().commitCounter() + 1;
                    w.apply(next, tx.tree(Workload.TREE));
                    tx.setProperty("commit", Long.toString(next).getBytes());
                    CommitPoint p = tx.commit();
                    acks.write((p.counter() + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    System.out.println("ACK " + p.counter());
                    System.out.flush();
                }
            }
        }
    }
}
