package dev.basalt.store;

import java.nio.file.Path;

/** Child JVM of {@link StoreCompactorTest}: compacts the journal given as argument, then exits. */
final class CompactChild {
    private CompactChild() {
    }

    public static void main(String[] args) {
        StoreCompactor.compact(Path.of(args[0]), StoreCompactorTest.config());
        System.exit(0);
    }
}
