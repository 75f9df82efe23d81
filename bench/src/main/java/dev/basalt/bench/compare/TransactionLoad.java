package dev.basalt.bench.compare;

import java.io.File;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;

import dev.basalt.sail.BasaltStore;

/**
 * One Repository API load of an N-Triples file into a new Basalt store in ONE transaction at a
 * given isolation level ({@code conn.begin(level); conn.add(file); conn.commit()}), with the
 * store's default configuration (durable commits). Prints one line: isolation, statements,
 * seconds, triples/s, peak heap and the collections of each garbage collector. Run it in a fresh JVM per isolation
 * level so that runs do not share a heap or a JIT history:
 *
 * <pre>
 * java -Xmx1g -cp sail/target/basalt.jar:bench/target/classes dev.basalt.bench.compare.TransactionLoad FILE DIR LEVEL
 * </pre>
 *
 * {@code DIR} must not exist; it is deleted afterwards.
 *
 * <p>Runs on the main thread only.
 */
public final class TransactionLoad {
	private TransactionLoad() {
	}

	public static void main(String[] args) throws IOException {
		if (args.length != 3) {
			System.err.println("usage: TransactionLoad FILE.nt STORE_DIR ISOLATION_LEVEL");
			System.exit(2);
		}
		File file = new File(args[0]);
		Path dir = Path.of(args[1]);
		IsolationLevels level = IsolationLevels.valueOf(args[2].toUpperCase(Locale.ROOT));
		if (Files.exists(dir)) {
			System.err.println(dir + " exists; give a new directory");
			System.exit(2);
		}
		SailRepository repo = new SailRepository(new BasaltStore(dir.toFile()));
		repo.init();
		long size;
		long t0 = System.nanoTime();
		try (RepositoryConnection c = repo.getConnection()) {
			c.begin(level);
			c.add(file, RDFFormat.NTRIPLES);
			c.commit();
			long t1 = System.nanoTime();
			size = c.size();
			report(level, size, (t1 - t0) / 1e9);
		} finally {
			repo.shutDown();
			try (Stream<Path> walk = Files.walk(dir)) {
				walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
			}
		}
	}

	private static void report(IsolationLevels level, long size, double seconds) {
		StringBuilder gcs = new StringBuilder();
		for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
			gcs.append(" [").append(gc.getName()).append("]=").append(gc.getCollectionCount());
		}
		long peak = 0;
		for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
			if (pool.getType() == MemoryType.HEAP) {
				peak += pool.getPeakUsage().getUsed();
			}
		}
		System.out.printf(Locale.ROOT, "%s statements=%d seconds=%.1f triplesPerSecond=%.0f peakHeapMiB=%d collections:%s%n",
				level, size, seconds, size / seconds, peak >> 20, gcs);
	}
}
