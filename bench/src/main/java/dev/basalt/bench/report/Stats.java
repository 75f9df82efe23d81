package dev.basalt.bench.report;

import java.util.Arrays;
import java.util.List;

/**
 * Median and range of a handful of repeated measurements.
 *
 * <p>Immutable; safe to share between threads.
 */
public record Stats(double median, double min, double max, int n) {

	public static Stats of(List<Double> values) {
		if (values.isEmpty()) {
			return new Stats(Double.NaN, Double.NaN, Double.NaN, 0);
		}
		double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
		Arrays.sort(v);
		int n = v.length;
		double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		return new Stats(median, v[0], v[n - 1], n);
	}
}
