package dev.basalt.bench.lubm;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Consumer;

import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.repository.RepositoryConnection;

import dev.basalt.bench.driver.QueryExecutor;
import dev.basalt.bench.driver.QueryTemplate;

/**
 * The 14 LUBM queries timed on one connection: each query once unmeasured (its answer count, within
 * a time limit), then {@code runs} measured runs whose median wall and process CPU times are kept.
 * A query not answered within the limit gets count -1 and no times; with no runs nothing is run and
 * every count is -2.
 *
 * <p>Not thread-safe: one instance is filled by one thread, on one connection, and read afterwards.
 */
public final class LubmQueryTimes {
	/** Median wall milliseconds per query (NaN when not measured). */
	final double[] millis = new double[LubmQueries.ALL.size()];
	/** Median process CPU milliseconds per query, all threads (NaN when not measured). */
	final double[] cpuMillis = new double[millis.length];
	/** Answers per query; -1 timed out, -2 not run. */
	final long[] counts = new long[millis.length];

	private LubmQueryTimes() {
		Arrays.fill(millis, Double.NaN);
		Arrays.fill(cpuMillis, Double.NaN);
		Arrays.fill(counts, -2);
	}

	/** No query run: every count -2. */
	static LubmQueryTimes notRun() {
		return new LubmQueryTimes();
	}

	/**
	 * Runs the queries on {@code c}: per query one unmeasured run within {@code timeoutSeconds}, then
	 * {@code runs} measured ones; a line to {@code out} for each query that times out (and, when
	 * {@code verbose}, for each query measured).
	 */
	public static LubmQueryTimes run(RepositoryConnection c, int runs, int timeoutSeconds, boolean verbose,
			Consumer<String> out) {
		LubmQueryTimes t = new LubmQueryTimes();
		for (int q = 0; q < t.millis.length && runs > 0; q++) {
			QueryTemplate query = LubmQueries.ALL.get(q);
			long first = System.nanoTime();
			try {
				t.counts[q] = QueryExecutor.count(c, query.text(), timeoutSeconds);
			} catch (QueryEvaluationException e) {
				out.accept("  " + query.name() + ": no answer within " + timeoutSeconds + " s");
				t.counts[q] = -1;
				continue;
			}
			double firstMillis = (System.nanoTime() - first) / 1e6;
			double[] wall = new double[runs];
			double[] cpu = new double[runs];
			for (int r = 0; r < runs; r++) {
				long s = System.nanoTime();
				long cs = processCpuNanos();
				QueryExecutor.count(c, query.text());
				wall[r] = (System.nanoTime() - s) / 1e6;
				cpu[r] = (processCpuNanos() - cs) / 1e6;
			}
			Arrays.sort(wall);
			Arrays.sort(cpu);
			t.millis[q] = wall[runs / 2];
			t.cpuMillis[q] = cpu[runs / 2];
			if (verbose) {
				out.accept(String.format(Locale.ROOT, "  %s: %,d answers; first run %.1f ms, median of %d %.1f ms, %.0f ms CPU",
						query.name(), t.counts[q], firstMillis, runs, t.millis[q], t.cpuMillis[q]));
			}
		}
		return t;
	}

	/** One markdown table row cell for query {@code q}: "ms, CPU ms (answers)", or why not. */
	String cell(int q) {
		return counts[q] == -2 ? " not run |" : counts[q] < 0 ? " timed out |"
				: String.format(Locale.ROOT, " %.1f, %.0f (%,d) |", millis[q], cpuMillis[q], counts[q]);
	}

	/**
	 * User plus system CPU time of this process, all threads (the collector's included), or -1
	 * where the platform does not tell.
	 */
	static long processCpuNanos() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getProcessCpuTime();
		}
		return -1;
	}
}
