package dev.basalt.bench.bsbm;

import static dev.basalt.bench.bsbm.GeneratedTriples.localName;
import static dev.basalt.bench.bsbm.GeneratedTriples.number;
import static dev.basalt.bench.bsbm.GeneratedTriples.one;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data generation rules of the BSBM V3 dataset specification, checked on a generated data set
 * of 1,000 products (about 360,000 triples, seed 808) read back from its N-Triples: each stated
 * distribution's mean or shares against the specification's value, with tolerances of about four
 * standard errors of the sample (the seed is fixed, so the outcome is too).
 */
class BsbmSpecificationTest {

	private static final int PRODUCTS = 1_000;
	private static final LocalDate TODAY = BsbmModel.CURRENT_DATE;
	/** Share of a half-normal on [0, 2] below 1, and of a normal N(2, 1) on [0, 4] within [1, 3]. */
	private static final double HALF_NORMAL_LOWER_HALF = StandardNormal.truncated(0, 0, 2, 0, 1);
	private static final double BELL_MIDDLE_HALF = StandardNormal.truncated(2, 0, 4, 1, 3);

	@TempDir
	static Path tmp;
	static BsbmModel model;
	static GeneratedTriples data;

	@BeforeAll
	static void generate() throws Exception {
		model = new BsbmModel(PRODUCTS, 808);
		Path file = tmp.resolve("bsbm.nt");
		new BsbmGenerator(model).write(file);
		data = new GeneratedTriples(file);
	}

	@Test
	void theTypeTreeHasTheSpecifiedLevelsAndBranching() {
		assertArrayEquals(new int[] { 2, 2 }, BsbmHierarchy.branchingFactors(10));
		assertArrayEquals(new int[] { 6, 8, 2 }, BsbmHierarchy.branchingFactors(2_785), "1M triples");
		assertArrayEquals(new int[] { 8, 8, 8 }, BsbmHierarchy.branchingFactors(28_480), "10M triples");
		assertArrayEquals(new int[] { 10, 8, 8, 2 }, BsbmHierarchy.branchingFactors(284_826), "100M triples");
		List<Map<String, List<String>>> types = data.ofType("ProductType");
		assertEquals(1 + 6 + 48 + 96, types.size());
		Map<Integer, Integer> children = new HashMap<>();
		types.forEach(t -> {
			String parent = one(t, "subClassOf");
			if (parent != null) {
				children.merge(number(parent), 1, Integer::sum);
			}
		});
		for (int t = 1; t < model.types.firstLeaf; t++) {
			assertEquals(new int[] { 6, 8, 2 }[model.types.level[t]], children.get(t), "children of type " + t);
		}
	}

	@Test
	void eachTypeHasFeaturesInItsLevelsRange() {
		BsbmHierarchy h = model.types;
		assertEquals(h.featureTotal, data.ofType("ProductFeature").size());
		int[][] range = { {}, { 14, 30 }, { 21, 45 }, { 21, 45 } }; // 35 i / 5 .. 75 i / 5, i = 2, 3, 3
		double[] sum = new double[4];
		int[] n = new int[4];
		for (int t = 2; t <= h.typeCount; t++) {
			int[] r = range[h.level[t]];
			assertTrue(h.featureCount[t] >= r[0] && h.featureCount[t] <= r[1], "type " + t + ": " + h.featureCount[t]);
			sum[h.level[t]] += h.featureCount[t];
			n[h.level[t]]++;
		}
		assertEquals(22, sum[1] / n[1], 4, "level 1 mean of uniform 14..30 over 6 types");
		assertEquals(33, sum[3] / n[3], 1.5, "leaf mean of uniform 21..45 over 96 types");
	}

	@Test
	void productsFollowTheTypeFeatureAndPropertyRules() {
		List<Map<String, List<String>>> products = data.ofType("Product");
		assertEquals(PRODUCTS, products.size());
		int lowerLeaves = 0;
		long chosen = 0;
		long candidates = 0;
		int[] numericPresent = new int[6];
		int[] textualPresent = new int[6];
		double numericSum = 0;
		int numericCount = 0;
		int numericLowerHalf = 0;
		for (Map<String, List<String>> p : products) {
			List<String> types = p.get("type");
			assertEquals(2, types.size(), "bsbm:Product and one leaf type, no forward chaining");
			int leaf = types.stream().filter(t -> t.contains("ProductType")).mapToInt(GeneratedTriples::number)
					.findFirst().orElseThrow();
			assertTrue(leaf >= model.types.firstLeaf, "a leaf type: " + leaf);
			lowerLeaves += leaf - model.types.firstLeaf < model.types.leaves() / 2 ? 1 : 0;
			int[] path = model.types.featuresOfPath(leaf);
			List<String> features = p.getOrDefault("productFeature", List.of());
			features.forEach(f -> assertTrue(Arrays.stream(path).anyMatch(c -> c == number(f)), f + " of type " + leaf));
			chosen += features.size();
			candidates += path.length;
			for (int i = 0; i < 6; i++) {
				String value = one(p, "productPropertyNumeric" + (i + 1));
				if (value != null) {
					int v = Integer.parseInt(value);
					assertTrue(v >= 1 && v <= 2_000, value);
					numericPresent[i]++;
					numericSum += v;
					numericCount++;
					numericLowerHalf += v <= 1_000 ? 1 : 0;
				}
				textualPresent[i] += one(p, "productPropertyTextual" + (i + 1)) != null ? 1 : 0;
			}
			assertWords(one(p, "label"), 1, 3);
			assertWords(one(p, "comment"), 50, 150);
			assertWithin(LocalDate.parse(one(p, "date")), LocalDate.of(2000, 10, 20), LocalDate.of(2007, 1, 23));
		}
		assertEquals(HALF_NORMAL_LOWER_HALF, lowerLeaves / (double) PRODUCTS, 0.05, "leaf types skewed to low numbers");
		assertEquals(0.25, chosen / (double) candidates, 0.01, "each feature of the type path with 25%");
		double[] presence = { 1, 1, 1, 0.5, 0.55, 0.2 };
		for (int i = 0; i < 6; i++) {
			assertEquals(presence[i], numericPresent[i] / (double) PRODUCTS, 0.05, "numeric " + (i + 1));
			assertEquals(presence[i], textualPresent[i] / (double) PRODUCTS, 0.05, "textual " + (i + 1));
		}
		double halfNormalMean = (Math.exp(0) - Math.exp(-2)) / Math.sqrt(2 * Math.PI) / (StandardNormal.cdf(2) - 0.5);
		assertEquals(1_000 * halfNormalMean + 0.5, numericSum / numericCount, 25, "half-normal over 1..2000");
		assertEquals(HALF_NORMAL_LOWER_HALF, numericLowerHalf / (double) numericCount, 0.03);
	}

	@Test
	void offersFollowTheProductPriceDateAndDeliveryRules() {
		List<Map<String, List<String>>> offers = data.ofType("Offer");
		assertEquals(PRODUCTS * 20, offers.size());
		int middleProducts = 0;
		double priceSum = 0;
		double validToAfterPublish = 0;
		double validFromBeforePublish = 0;
		int validNow = 0;
		int[] deliveryDays = new int[22];
		for (Map<String, List<String>> o : offers) {
			int product = number(one(o, "product"));
			middleProducts += product > PRODUCTS / 4 && product <= 3 * PRODUCTS / 4 ? 1 : 0;
			double price = Double.parseDouble(one(o, "price"));
			assertTrue(price >= 5 && price <= 10_000, "price " + price);
			priceSum += price;
			LocalDate published = LocalDate.parse(one(o, "date"));
			assertWithin(published, TODAY.minusDays(97), TODAY);
			LocalDate validFrom = LocalDate.parse(one(o, "validFrom").substring(0, 10));
			LocalDate validTo = LocalDate.parse(one(o, "validTo").substring(0, 10));
			long after = ChronoUnit.DAYS.between(published, validTo);
			long before = ChronoUnit.DAYS.between(validFrom, published);
			assertTrue(after >= 7 && after <= 90 && before >= 0 && before <= 90, after + " / " + before);
			validToAfterPublish += after;
			validFromBeforePublish += before;
			validNow += validTo.isAfter(TODAY) ? 1 : 0;
			deliveryDays[Integer.parseInt(one(o, "deliveryDays"))]++;
			assertEquals(one(o, "vendor"), one(o, "publisher"));
		}
		int n = offers.size();
		assertEquals(BELL_MIDDLE_HALF, middleProducts / (double) n, 0.015, "products drawn N(2,1) over 0..4");
		assertEquals(5_002.5, priceSum / n, 100, "price uniform in 5..10000");
		assertEquals(48.5, validToAfterPublish / n, 0.7, "valid to 7..90 days after publication");
		assertEquals(45, validFromBeforePublish / n, 0.7, "valid from 0..90 days before publication");
		assertEquals(47.5 / 97, validNow / (double) n, 0.015, "valid after the current date");
		for (int k = 1; k <= 21; k++) {
			double expected = StandardNormal.truncated(2, 0, 14.2, (k - 1) * 14.2 / 21, k * 14.2 / 21);
			assertEquals(expected, deliveryDays[k] / (double) n, 0.012, "share of " + k + " delivery days");
		}
	}

	@Test
	void reviewsFollowTheProductDateRatingAndLanguageRules() {
		List<Map<String, List<String>>> reviews = data.ofType("Review");
		assertEquals(PRODUCTS * 10, reviews.size());
		int middleProducts = 0;
		int english = 0;
		int[] present = new int[4];
		double ratingSum = 0;
		int ratings = 0;
		double ageSum = 0;
		for (Map<String, List<String>> w : reviews) {
			int product = number(one(w, "reviewFor"));
			middleProducts += product > PRODUCTS / 4 && product <= 3 * PRODUCTS / 4 ? 1 : 0;
			String country = localName(one(data.subject(one(w, "reviewer")), "country"));
			int c = Arrays.asList(BsbmDistributions.COUNTRY_CODES).indexOf(country);
			String language = one(w, "text@");
			assertEquals(BsbmDistributions.COUNTRY_LANGUAGES[c], language, "the reviewer's country's language");
			english += language.equals("en") ? 1 : 0;
			LocalDate reviewed = LocalDate.parse(one(w, "reviewDate").substring(0, 10));
			assertWithin(reviewed, TODAY.minusDays(365), TODAY);
			assertWithin(LocalDate.parse(one(w, "date")), reviewed, TODAY.plusDays(1));
			ageSum += ChronoUnit.DAYS.between(reviewed, TODAY);
			for (int i = 0; i < 4; i++) {
				String r = one(w, "rating" + (i + 1));
				if (r != null) {
					int v = Integer.parseInt(r);
					assertTrue(v >= 1 && v <= 10, r);
					present[i]++;
					ratingSum += v;
					ratings++;
				}
			}
			assertWords(one(w, "title"), 4, 15);
			assertWords(one(w, "text"), 50, 200);
		}
		int n = reviews.size();
		assertEquals(BELL_MIDDLE_HALF, middleProducts / (double) n, 0.02, "products drawn N(2,1) over 0..4");
		assertEquals(0.5, english / (double) n, 0.08, "US and GB reviewers write English (clustered by reviewer)");
		assertEquals(182.5, ageSum / n, 5, "review dates uniform over the year before now");
		for (int i = 0; i < 4; i++) {
			assertEquals(0.7, present[i] / (double) n, 0.02, "rating " + (i + 1) + " present");
		}
		assertEquals(5.5, ratingSum / ratings, 0.08, "ratings uniform in 1..10");
	}

	@Test
	void producersVendorsAndReviewersHaveCountriesOfTheSpecifiedSet() {
		for (String type : List.of("Producer", "Vendor", "Person")) {
			data.ofType(type).forEach(e -> assertTrue(
					Arrays.asList(BsbmDistributions.COUNTRY_CODES).contains(localName(one(e, "country"))), type));
		}
		int us = 0;
		List<Map<String, List<String>>> persons = data.ofType("Person");
		for (Map<String, List<String>> p : persons) {
			us += one(p, "country").endsWith("#US") ? 1 : 0;
		}
		assertEquals(0.4, us / (double) persons.size(), 0.09, "US reviewers among " + persons.size());
	}

	private static void assertWords(String text, int min, int max) {
		int words = text.split(" ").length;
		assertTrue(words >= min && words <= max, words + " words: " + text);
	}

	/** {@code from <= date < to}. */
	private static void assertWithin(LocalDate date, LocalDate from, LocalDate to) {
		assertTrue(!date.isBefore(from) && date.isBefore(to), date + " not in [" + from + ", " + to + ")");
	}
}
