package dev.basalt.bench.rdf;

import java.util.SplittableRandom;

/**
 * Deterministic random streams keyed by (seed, entity kind, entity number). A generator that draws
 * an entity's attributes from {@code Rng.of(seed, KIND, n)} can regenerate that entity later — the
 * query parameter generator does exactly that — without keeping the dataset in memory.
 *
 * <p>Stateless; any thread may call it. The SplittableRandoms it makes are not thread-safe: each belongs to
 * one thread.
 */
public final class Rng {

	private Rng() {
	}

	public static SplittableRandom of(long seed, int kind, long number) {
		return new SplittableRandom(mix(seed * 0x9E3779B97F4A7C15L + kind * 0xC2B2AE3D27D4EB4FL + number));
	}

	/** Stafford variant 13 of the MurmurHash3 finaliser. */
	private static long mix(long z) {
		z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
		z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
		return z ^ (z >>> 31);
	}

	/** Uniform in [lo, hi], both inclusive. */
	public static int between(SplittableRandom r, int lo, int hi) {
		return lo + r.nextInt(hi - lo + 1);
	}

	/** Normally distributed with the given mean and deviation, clamped to [lo, hi] and rounded. */
	public static int normal(SplittableRandom r, double mean, double deviation, int lo, int hi) {
		double u1 = Math.max(r.nextDouble(), 1e-12);
		double u2 = r.nextDouble();
		double g = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
		long v = Math.round(mean + g * deviation);
		return (int) Math.max(lo, Math.min(hi, v));
	}
}
