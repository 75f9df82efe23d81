package dev.basalt.bench.driver;

/** Execution times of one query of the mix: count, mean, min and max, in nanoseconds. Not thread-safe. */
public final class QueryStats {

	private long count;
	private long totalNanos;
	private long minNanos = Long.MAX_VALUE;
	private long maxNanos;

	public void record(long nanos) {
		count++;
		totalNanos += nanos;
		minNanos = Math.min(minNanos, nanos);
		maxNanos = Math.max(maxNanos, nanos);
	}

	public void merge(QueryStats other) {
		count += other.count;
		totalNanos += other.totalNanos;
		minNanos = Math.min(minNanos, other.minNanos);
		maxNanos = Math.max(maxNanos, other.maxNanos);
	}

	public long count() {
		return count;
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
