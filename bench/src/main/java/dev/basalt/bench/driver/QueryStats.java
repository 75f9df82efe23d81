package dev.basalt.bench.driver;

/**
 * Executions of one query of the mix: how many, their times (mean, min and max, in nanoseconds) and
 * the results they returned in total, which lets two runs with the same seed be compared for
 * answers, not only for speed. Not thread-safe.
 */
public final class QueryStats {

	private long count;
	private long totalNanos;
	private long minNanos = Long.MAX_VALUE;
	private long maxNanos;
	private long results;

	public void record(long nanos, long resultCount) {
		count++;
		results += resultCount;
		totalNanos += nanos;
		minNanos = Math.min(minNanos, nanos);
		maxNanos = Math.max(maxNanos, nanos);
	}

	public void merge(QueryStats other) {
		count += other.count;
		results += other.results;
		totalNanos += other.totalNanos;
		minNanos = Math.min(minNanos, other.minNanos);
		maxNanos = Math.max(maxNanos, other.maxNanos);
	}

	public long count() {
		return count;
	}

	/** Results summed over all executions (solutions, statements, or 1 per true ASK). */
	public long results() {
		return results;
	}

	public double meanMillis() {
		return count == 0 ? Double.NaN : totalNanos / 1e6 / count;
	}

	public double minMillis() {
		return count == 0 ? Double.NaN : minNanos / 1e6;
	}

	public double maxMillis() {
		return count == 0 ? Double.NaN : maxNanos / 1e6;
	}
}
