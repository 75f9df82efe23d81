package dev.basalt.bench.bsbm;

/** The standard normal distribution's CDF (Abramowitz and Stegun 26.2.17, error below 7.5e-8), for expected shares. */
final class StandardNormal {

	private StandardNormal() {
	}

	static double cdf(double x) {
		if (x < 0) {
			return 1 - cdf(-x);
		}
		double t = 1 / (1 + 0.2316419 * x);
		double poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
		return 1 - Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI) * poly;
	}

	/** P(a <= X < b) for X ~ N(mu, 1) conditioned on X in [lo, hi]. */
	static double truncated(double mu, double lo, double hi, double a, double b) {
		double from = Math.max(a, lo);
		double to = Math.min(b, hi);
		if (to <= from) {
			return 0;
		}
		return (cdf(to - mu) - cdf(from - mu)) / (cdf(hi - mu) - cdf(lo - mu));
	}
}
