package dev.basalt.bench.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Scratch directories for the stores under test: under {@code -Dbasalt.jmh.dir} if set, else the JVM's temp
 * dir.
 *
 * <p>Stateless; any thread may call it.
 */
final class StoreFiles {
    private StoreFiles() {
    }

    static Path newDirectory(String engine) {
        try {
            String base = System.getProperty("basalt.jmh.dir");
            Path parent = base == null ? Paths.get(System.getProperty("java.io.tmpdir")) : Files.createDirectories(Paths.get(base));
            return Files.createTempDirectory(parent, "basalt-jmh-" + engine + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One line in the run log that docs/benchmarks-store.md quotes: bytes on disk after a load. */
    static void report(String engine, String load, long keys, long afterCommit, long afterClose) {
        System.out.printf("%n[store-size] engine=%s load=%s keys=%d bytesAfterCommit=%d bytesAfterClose=%d bytesPerKey=%.1f%n",
                engine, load, keys, afterCommit, afterClose, afterClose / (double) keys);
    }
}
