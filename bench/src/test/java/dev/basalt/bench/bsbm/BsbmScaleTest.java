package dev.basalt.bench.bsbm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The BSBM V3 rules that need more entities than a small file has, checked on the model alone
 * (nothing written): the counts per producer, vendor, rating site and reviewer, the country
 * distribution, the explore mix's parameter choice, and Q10's average answer count at 1M triples
 * against what the specification's distributions give.
 */
class BsbmScaleTest {

	@Test
	void producersVendorsSitesAndReviewersHoldNormallyDistributedCounts() {
		BsbmModel m = new BsbmModel(100_000, 808);
		double[] products = runStatistics(m.producerFirstProduct);
		assertEquals(50.5, products[0], 1.2, "products per producer, mean");
		assertEquals(50 / 3.0, products[1], 1.5, "products per producer, deviation");
		assertEquals(2_000.5, runStatistics(m.vendorFirstOffer)[0], 60, "offers per vendor");
		assertEquals(10_000.5, runStatistics(m.siteFirstReview)[0], 1_000, "reviews per rating site");
		double[] reviewer = runStatistics(m.personFirstReview);
		assertEquals(19.5, reviewer[0], 0.3, "reviews per reviewer (no added 1, some have none)");
		for (int s = 1; s <= m.ratingSites(); s++) {
			int firstPerson = m.siteFirstPerson[s - 1];
			assertEquals(m.siteFirstReview[s - 1], m.personFirstReview[firstPerson - 1], "site " + s + " starts a reviewer");
		}
	}

	/** Mean and deviation of the run lengths, the last (truncated) run left out. */
	private static double[] runStatistics(int[] starts) {
		int n = starts.length - 2;
		double sum = 0;
		double squares = 0;
		for (int i = 0; i < n; i++) {
			int length = starts[i + 1] - starts[i];
			sum += length;
			squares += (double) length * length;
		}
		double mean = sum / n;
		return new double[] { mean, Math.sqrt(squares / n - mean * mean) };
	}

	@Test
	void countriesFollowTheSpecifiedShares() {
		BsbmModel m = new BsbmModel(100_000, 808);
		int[] persons = new int[10];
		for (int p = 1; p <= m.persons(); p++) {
			persons[m.country(BsbmModel.KIND_PERSON, p)]++;
		}
		int usVendors = 0;
		for (int v = 1; v <= m.vendors(); v++) {
			usVendors += m.country(BsbmModel.KIND_VENDOR, v) == 0 ? 1 : 0;
		}
		for (int c = 0; c < 10; c++) {
			assertEquals(BsbmDistributions.COUNTRY_PERCENT[c] / 100.0, persons[c] / (double) m.persons(), 0.01,
					BsbmDistributions.COUNTRY_CODES[c] + " among " + m.persons() + " reviewers");
		}
		assertEquals(0.4, usVendors / (double) m.vendors(), 0.06, "US among " + m.vendors() + " vendors");
	}

	@Test
	void parametersAreDrawnAsTheTestDriverDrawsThem() {
		BsbmModel m = new BsbmModel(2_785, 808);
		BsbmParameters parameters = new BsbmParameters(m);
		SplittableRandom r = new SplittableRandom(1);
		int lowerLeaves = 0;
		for (int i = 0; i < 2_000; i++) {
			Map<String, String> p = parameters.draw(4, r);
			int leaf = GeneratedTriples.number(p.get("ProductType").replace(">", ""));
			assertTrue(leaf >= m.types.firstLeaf && leaf <= m.types.typeCount, "a leaf type: " + leaf);
			lowerLeaves += leaf - m.types.firstLeaf < m.types.leaves() / 2 ? 1 : 0;
			int[] path = m.types.featuresOfPath(leaf);
			int f1 = GeneratedTriples.number(p.get("ProductFeature1").replace(">", ""));
			int f2 = GeneratedTriples.number(p.get("ProductFeature2").replace(">", ""));
			int f3 = GeneratedTriples.number(p.get("ProductFeature3").replace(">", ""));
			assertTrue(f1 != f2 && f2 != f3 && f1 != f3, "distinct features");
			for (int f : new int[] { f1, f2, f3 }) {
				assertTrue(java.util.Arrays.stream(path).anyMatch(c -> c == f), f + " is a feature of type " + leaf);
			}
			int x = Integer.parseInt(p.get("x"));
			assertTrue(x >= 1 && x <= 500, "x " + x);
		}
		assertEquals(0.5, lowerLeaves / 2_000.0, 0.05, "types uniform over the leaves");
		assertEquals("\"2008-06-20T00:00:00\"^^<http://www.w3.org/2001/XMLSchema#dateTime>",
				parameters.draw(10, r).get("currentDate"));
	}

	/**
	 * Q10 asks for a product's offers from US vendors with at most 3 delivery days, valid after the
	 * current date (at most 10). The specification's distributions give each offer that chance
	 * with probability 0.4 x P(delivery <= 3) x P(valid to > now); the product of each offer is
	 * drawn N(2,1) over the products, so the answer count of a uniformly drawn product is about
	 * Poisson with a mean that depends on where the product lies. The data's average over all
	 * products (what the driver's uniform draws average to) must be within 20% of that.
	 */
	@Test
	void q10AnswersAsOftenAsOnTheSpecificationsDataAt1MTriples() {
		int products = 2_785;
		BsbmModel m = new BsbmModel(products, 808);
		double fastDelivery = StandardNormal.truncated(2, 0, 14.2, 0, 3 * 14.2 / 21);
		double validNow = 47.5 / 97;
		double perOffer = 0.4 * fastDelivery * validNow;
		double expected = 0;
		for (int p = 1; p <= products; p++) {
			double share = StandardNormal.truncated(2, 0, 4, 4.0 * (p - 1) / products, 4.0 * p / products);
			expected += expectedCappedPoisson(m.offers() * share * perOffer, 10);
		}
		expected /= products;

		boolean[] us = new boolean[m.vendors() + 1];
		for (int v = 1; v <= m.vendors(); v++) {
			us[v] = m.country(BsbmModel.KIND_VENDOR, v) == 0;
		}
		int[] answers = new int[products + 1];
		for (int j = 1; j <= m.offers(); j++) {
			BsbmModel.Offer o = m.offer(j);
			if (us[o.vendor()] && o.deliveryDays() <= 3 && o.validTo().isAfter(BsbmModel.CURRENT_DATE)) {
				answers[o.product()]++;
			}
		}
		double measured = 0;
		for (int p = 1; p <= products; p++) {
			measured += Math.min(10, answers[p]);
		}
		measured /= products;
		System.out.printf("Q10 at 2,785 products: %.3f answers on average by the specification's distributions, "
				+ "%.3f in the generated data (seed 808)%n", expected, measured);
		assertEquals(1.96, expected, 0.1);
		assertEquals(expected, measured, 0.2 * expected, "Q10 average answer count");
	}

	private static double expectedCappedPoisson(double mean, int cap) {
		double p = Math.exp(-mean);
		double sum = 0;
		double below = 0;
		for (int k = 0; k < cap; k++) {
			sum += k * p;
			below += p;
			p *= mean / (k + 1);
		}
		return sum + cap * (1 - below);
	}
}
