package dev.basalt.bench.store;

import java.util.Arrays;
import java.util.Locale;

import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;

/**
 * Latency of the smallest write: one new statement added in a transaction of its own and
 * committed through the Repository API ({@code begin}, {@code add}, {@code commit}), the commit as
 * durable as the repository's store is configured (a Basalt store forces its journal at every commit
 * by default). Each statement has a subject and a literal object that no earlier statement of the
 * same {@code run} has, so every commit adds a statement and two terms to the dictionary; the time
 * of one commit is from {@code begin} to the return of {@code commit}.
 *
 * <p>Stateless; any thread may call it, but the commits of one call run one after the other on the
 * calling thread, and a repository measured from two threads at once measures their contention.
 */
public final class CommitLatency {

	/**
	 * Order statistics of a set of commit times, in milliseconds; made once, then only read (any
	 * thread may read it).
	 */
	public record Summary(int commits, double medianMs, double p90Ms, double p99Ms, double maxMs, double meanMs) {

		/** "N commits: median M ms, 90th percentile P ms, ..." in one line. */
		public String describe() {
			return String.format(Locale.ROOT, "%d commits: median %.2f ms, 90th percentile %.2f ms, 99th percentile "
					+ "%.2f ms, max %.2f ms, mean %.2f ms", commits, medianMs, p90Ms, p99Ms, maxMs, meanMs);
		}
	}

	private static final ValueFactory VF = SimpleValueFactory.getInstance();

	private CommitLatency() {
	}

	/**
	 * Commits {@code n} single-statement transactions to {@code repository}, statement {@code i}
	 * made from {@code run} and {@code first + i}, and returns each commit's time in nanoseconds,
	 * in commit order.
	 */
	public static long[] commit(Repository repository, String run, int first, int n) {
		long[] nanos = new long[n];
		for (int i = 0; i < n; i++) {
			nanos[i] = commitOne(repository, run, first + i);
		}
		return nanos;
	}

	/** Commits one statement made from {@code run} and {@code i}; returns the nanoseconds it took. */
	public static long commitOne(Repository repository, String run, int i) {
		try (RepositoryConnection c = repository.getConnection()) {
			long t0 = System.nanoTime();
			c.begin();
			c.add(VF.createIRI("http://example.org/insert/" + run + "/s" + i), VF.createIRI("http://example.org/insert/p"),
					VF.createLiteral("inserted statement " + run + " " + i));
			c.commit();
			return System.nanoTime() - t0;
		}
	}

	/**
	 * Median, 90th and 99th percentile (nearest rank), maximum and mean of {@code nanos}, which must
	 * not be empty; the array is not changed.
	 */
	public static Summary summarize(long[] nanos) {
		if (nanos.length == 0) {
			throw new IllegalArgumentException("no commit times to summarize");
		}
		long[] sorted = nanos.clone();
		Arrays.sort(sorted);
		double sum = 0;
		for (long t : sorted) {
			sum += t;
		}
		return new Summary(sorted.length, rank(sorted, 0.5), rank(sorted, 0.9), rank(sorted, 0.99),
				sorted[sorted.length - 1] / 1e6, sum / sorted.length / 1e6);
	}

	/** The nearest-rank {@code q} quantile of {@code sorted}, in milliseconds. */
	static double rank(long[] sorted, double q) {
		int index = (int) Math.ceil(q * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e6;
	}
}
