package dev.basalt.store;

import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Child JVM of {@link OnlineCompactionCrashTest}: one thread commits {@link Workload} steps (the step
 * number is the property "step"; it appends "n" to the acknowledgement file after step n's commit
 * returned), while the main thread compacts the store online again and again, until killed.
 */
public final class OnlineCompactChild {
    private OnlineCompactChild() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        Workload w = new Workload(Long.parseLong(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        try (Store store = Store.open(file, StoreConfig.defaults());
             FileOutputStream acks = new FileOutputStream(args[4], true)) {
            Thread writer = new Thread(() -> {
                try {
                    while (true) {
                        try (WriteTransaction tx = store.begin()) {
                            byte[] last = tx.property("step");
                            long next = (last == null ? 0 : Long.parseLong(new String(last, StandardCharsets.US_ASCII))) + 1;
                            w.apply(next, tx.tree(Workload.TREE));
                            tx.setProperty("step", Long.toString(next).getBytes(StandardCharsets.US_ASCII));
                            tx.commit();
                            acks.write((next + "\n").getBytes(StandardCharsets.US_ASCII));
                            System.out.println("ACK " + next);
                            System.out.flush();
                        }
                    }
                } catch (Exception e) {
                    e.printStackTrace();
                    System.exit(3);
                }
            }, "writer");
            writer.setDaemon(true);
            writer.start();
            OnlineCompactor.Options o = new OnlineCompactor.Options(Duration.ofMillis(2), Duration.ofSeconds(1), 3);
            while (true) {
                OnlineCompactor.Result r = OnlineCompactor.compact(store, o, () -> { });
                System.out.println("COMPACTED " + r.bytesBefore() + " " + r.bytesAfter() + " " + r.keysRewritten() + " "
                        + r.pagesRepacked());
                System.out.flush();
            }
        }
    }
}
