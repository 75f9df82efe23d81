package dev.basalt.store;

import java.nio.file.Path;

/** Child JVM of {@link TwoProcessTest}: holds a store open until its stdin closes. */
public final class LockChild {
    private LockChild() {
    }

    public static void main(String[] args) throws Exception {
        try (Store store = Store.open(Path.of(args[0]), StoreConfig.defaults())) {
            System.out.println("OPEN " + store.stats().journal().commitCounter());
            System.out.flush();
            while (System.in.read() >= 0) {
                Thread.onSpinWait();
            }
        }
    }
}
