package dev.basalt.bench.store;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.sail.Sail;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The bench's {@code commit-latency} command: {@link CommitLatency} on an existing store, opened
 * as the bench opens Basalt ({@link StoreSetups#BASALT}, default and durable settings), with the
 * time to open it, the process's CPU per measured commit and the bytes on disk before and after.
 *
 * <p>Not thread-safe: picocli fills and runs it on the main thread, which makes every commit.
 */
@Command(name = "commit-latency", mixinStandardHelpOptions = true,
		description = "Opens an existing Basalt store through the Repository API (default, durable settings) and "
				+ "commits single-statement transactions one after the other: median, 90th and 99th percentile "
				+ "commit time. The commits stay in the store.")
public final class CommitLatencyCommand implements Callable<Integer> {
	@Option(names = "--store", required = true, description = "directory of a Basalt store")
	Path store;
	@Option(names = "--commits", defaultValue = "200", description = "measured commits (default: ${DEFAULT-VALUE})")
	int commits;
	@Option(names = "--warmup", defaultValue = "20", description = "commits before the measured ones, not "
			+ "counted (default: ${DEFAULT-VALUE})")
	int warmup;

	@Override
	public Integer call() {
		if (commits < 1 || warmup < 0) {
			throw new ParameterException(new CommandLine(this), "--commits must be at least 1 and "
					+ "--warmup at least 0");
		}
		String run = Long.toString(System.currentTimeMillis(), 36);
		long bytesBefore = DiskUsage.bytes(store);
		long t0 = System.nanoTime();
		Sail sail = StoreSetups.BASALT.createSail(store);
		Repository repository = StoreSetups.BASALT.repository(sail);
		repository.init();
		try {
			System.out.printf(Locale.ROOT, "%s: opened in %.2f s, %,d bytes on disk%n", store,
					(System.nanoTime() - t0) / 1e9, bytesBefore);
			CommitLatency.commit(repository, run + "w", 0, warmup);
			long t1 = System.nanoTime();
			long cpu0 = processCpuNanos();
			long[] nanos = CommitLatency.commit(repository, run, 0, commits);
			System.out.printf(Locale.ROOT, "%d warm-up commits, then %d measured in %.2f s, process CPU "
					+ "%.2f ms per commit%n", warmup, commits, (System.nanoTime() - t1) / 1e9,
					(processCpuNanos() - cpu0) / 1e6 / commits);
			System.out.println(store + ": " + CommitLatency.summarize(nanos).describe());
		} finally {
			repository.shutDown();
		}
		long bytesAfter = DiskUsage.bytes(store);
		System.out.printf(Locale.ROOT, "%s: %,d bytes on disk after the commits (%+,d)%n", store,
				bytesAfter, bytesAfter - bytesBefore);
		return 0;
	}

	private static long processCpuNanos() {
		return ManagementFactory.getOperatingSystemMXBean() instanceof
				com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : 0;
	}
}
