package dev.basalt.bench.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Sizes and removes the data directories the benchmark creates.
 *
 * <p>Stateless; any thread may call it, though sizing a directory while another thread deletes it races at
 * the file system.
 */
public final class DiskUsage {

	private DiskUsage() {
	}

	/** Sum of the apparent sizes of all regular files below {@code dir}; 0 if it does not exist. */
	public static long bytes(Path dir) {
		if (!Files.exists(dir)) {
			return 0;
		}
		try (Stream<Path> files = Files.walk(dir)) {
			return files.filter(Files::isRegularFile).mapToLong(DiskUsage::size).sum();
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot size data directory " + dir, e);
		}
	}

	private static long size(Path file) {
		try {
			return Files.size(file);
		} catch (IOException e) {
			return 0;
		}
	}

	/** Deletes {@code dir} and everything below it, if present. */
	public static void delete(Path dir) {
		if (!Files.exists(dir)) {
			return;
		}
		try (Stream<Path> files = Files.walk(dir)) {
			files.sorted(Comparator.reverseOrder()).forEach(p -> {
				try {
					Files.delete(p);
				} catch (IOException e) {
					throw new UncheckedIOException("Cannot delete " + p, e);
				}
			});
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot delete data directory " + dir, e);
		}
	}
}
