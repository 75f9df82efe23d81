package dev.basalt.bench.bsbm;

import java.util.SplittableRandom;

/**
 * The random distributions the BSBM V3 dataset specification (section 3, data generation rules)
 * prescribes, as pure functions of a {@link SplittableRandom}: the country distribution of
 * producers, vendors and reviewers, the normally distributed counts (products per producer, offers
 * per vendor, reviews per rating site and per reviewer), and the normal distributions over a range
 * (which product an offer or review is for, a product's type and numeric properties, an offer's
 * delivery days).
 *
 * <p>Stateless; any thread may call it, each with a SplittableRandom of its own (SplittableRandom is not
 * thread-safe).
 */
final class BsbmDistributions {

	/** Country codes with their weights in percent: 40% US, 10% each GB, JP, CN, 5% each of the rest. */
	static final String[] COUNTRY_CODES = { "US", "GB", "JP", "CN", "DE", "FR", "ES", "RU", "KR", "AT" };
	static final int[] COUNTRY_PERCENT = { 40, 10, 10, 10, 5, 5, 5, 5, 5, 5 };
	/** The language of a review's text is the reviewer's country's (same order as the codes). */
	static final String[] COUNTRY_LANGUAGES = { "en", "en", "ja", "zh", "de", "fr", "es", "ru", "ko", "de" };

	private BsbmDistributions() {
	}

	/** Index into {@link #COUNTRY_CODES}, drawn with the specification's weights. */
	static int country(SplittableRandom r) {
		int p = r.nextInt(100);
		for (int i = 0; i < COUNTRY_PERCENT.length; i++) {
			p -= COUNTRY_PERCENT[i];
			if (p < 0) {
				return i;
			}
		}
		throw new AssertionError("country weights sum to 100");
	}

	/**
	 * A count with mean about {@code mean} and deviation {@code mean / 3}: a draw g of N(3, 1) kept
	 * non-negative, scaled to {@code g / 3 * mean}, truncated, plus 1 (so at least 1).
	 */
	static int normalCount(SplittableRandom r, int mean) {
		return normalCountFromZero(r, mean) + 1;
	}

	/** Like {@link #normalCount} without the added 1: reviews per reviewer, which may be 0. */
	static int normalCountFromZero(SplittableRandom r, int mean) {
		double g;
		do {
			g = 3 + r.nextGaussian();
		} while (g < 0);
		return (int) (g / 3 * mean);
	}

	/**
	 * A value in 1..max from N(mu, 1) kept within [0, limit] and mapped linearly onto the range:
	 * mu 0, limit 2 gives a half-normal skewed to small values (product types, numeric properties);
	 * mu 2, limit 4 a bell over the middle of the range (the product of an offer or review).
	 */
	static int normalInRange(SplittableRandom r, double mu, int max, double limit) {
		double g;
		do {
			g = mu + r.nextGaussian();
		} while (g > limit || g < 0);
		return Math.min(max, (int) (g / limit * max) + 1);
	}

	/** True with probability {@code percent} / 100. */
	static boolean chance(SplittableRandom r, int percent) {
		return r.nextInt(100) < percent;
	}
}
