package dev.basalt.bench.bsbm;

import static dev.basalt.bench.bsbm.BsbmDistributions.chance;
import static dev.basalt.bench.bsbm.BsbmDistributions.normalCount;
import static dev.basalt.bench.bsbm.BsbmDistributions.normalCountFromZero;
import static dev.basalt.bench.bsbm.BsbmDistributions.normalInRange;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import dev.basalt.bench.rdf.Rng;

/**
 * The shape of a BSBM dataset for a product count and seed, following the BSBM V3 dataset
 * specification's data generation rules: the product type tree and features of
 * {@link BsbmHierarchy}; producers with a normally distributed number of products (mean 50,
 * deviation 50/3), 20 offers and 10 reviews per product; vendors with about 2,000 offers each,
 * rating sites with about 10,000 reviews each, split into reviewers with about 20 reviews each; and
 * the per-entity rules of {@link #product}, {@link #offer} and {@link #review}.
 *
 * <p>Only the structure is held in memory: the hierarchy and the contiguous ranges of products,
 * offers, reviews and reviewers that belong to each producer, vendor, rating site and reviewer
 * (arrays of O(products / 2) entries at most). Every entity is a pure function of (seed, kind,
 * number), see {@link Rng}, so the generator streams the data and {@link BsbmParameters} regenerates
 * what it draws query parameters from. Immutable, safe to share between threads.
 */
public final class BsbmModel {

	static final int KIND_STRUCTURE = 1;
	static final int KIND_TYPE = 2;
	static final int KIND_FEATURE = 3;
	static final int KIND_PRODUCER = 4;
	static final int KIND_PRODUCT = 5;
	static final int KIND_VENDOR = 6;
	static final int KIND_OFFER = 7;
	static final int KIND_PERSON = 9;
	static final int KIND_REVIEW = 10;

	static final int OFFERS_PER_PRODUCT = 20;
	static final int REVIEWS_PER_PRODUCT = 10;
	/** The date the queries treat as "now" (Q7, Q10), as in the BSBM test driver. */
	static final LocalDate CURRENT_DATE = LocalDate.of(2008, 6, 20);
	/** A review is written within this many days before {@link #CURRENT_DATE} and published (dc:date) between then and that date. */
	static final int REVIEW_DAYS = 365;

	final long seed;
	final int products;
	final BsbmHierarchy types;
	/** 1-based first product of producer k at index k-1, plus a sentinel at the end. */
	final int[] producerFirstProduct;
	final int[] vendorFirstOffer;
	final int[] siteFirstReview;
	final int[] siteFirstPerson;
	final int[] personFirstReview;
	final int offers;
	final int reviews;

	public BsbmModel(int products, long seed) {
		if (products < 1) {
			throw new IllegalArgumentException("BSBM needs at least one product, got " + products);
		}
		this.seed = seed;
		this.products = products;
		this.offers = products * OFFERS_PER_PRODUCT;
		this.reviews = products * REVIEWS_PER_PRODUCT;
		types = new BsbmHierarchy(products, Rng.of(seed, KIND_STRUCTURE, 0));
		producerFirstProduct = runs(Rng.of(seed, KIND_STRUCTURE, 1), products, 50);
		vendorFirstOffer = runs(Rng.of(seed, KIND_STRUCTURE, 2), offers, 2_000);
		siteFirstReview = runs(Rng.of(seed, KIND_STRUCTURE, 3), reviews, 10_000);
		SplittableRandom r = Rng.of(seed, KIND_STRUCTURE, 4);
		List<Integer> personStarts = new ArrayList<>();
		siteFirstPerson = new int[siteFirstReview.length];
		for (int s = 0; s + 1 < siteFirstReview.length; s++) {
			siteFirstPerson[s] = personStarts.size() + 1;
			int review = siteFirstReview[s];
			while (review < siteFirstReview[s + 1]) {
				personStarts.add(review);
				review = Math.min(siteFirstReview[s + 1], review + normalCountFromZero(r, 20));
			}
		}
		siteFirstPerson[siteFirstPerson.length - 1] = personStarts.size() + 1;
		personStarts.add(reviews + 1);
		personFirstReview = personStarts.stream().mapToInt(Integer::intValue).toArray();
	}

	/** Splits 1..total into runs of {@link BsbmDistributions#normalCount} length; run starts + sentinel. */
	private static int[] runs(SplittableRandom r, int total, int mean) {
		List<Integer> starts = new ArrayList<>();
		for (int next = 1; next <= total; next += normalCount(r, mean)) {
			starts.add(next);
		}
		starts.add(total + 1);
		return starts.stream().mapToInt(Integer::intValue).toArray();
	}

	public int products() {
		return products;
	}

	public int producers() {
		return producerFirstProduct.length - 1;
	}

	public int vendors() {
		return vendorFirstOffer.length - 1;
	}

	public int ratingSites() {
		return siteFirstReview.length - 1;
	}

	public int productTypes() {
		return types.typeCount;
	}

	public int productFeatures() {
		return types.featureTotal;
	}

	public int offers() {
		return offers;
	}

	public int reviews() {
		return reviews;
	}

	public int persons() {
		return personFirstReview.length - 1;
	}

	/** Owner (1-based) of the item {@code n} given run starts from {@link #runs}. */
	static int owner(int[] firstOfRun, int n) {
		int i = Arrays.binarySearch(firstOfRun, n);
		if (i >= 0) {
			while (i + 1 < firstOfRun.length && firstOfRun[i + 1] == n) {
				i++; // reviewers without reviews start where the next one does
			}
			return i + 1;
		}
		return -i - 1;
	}

	int producerOf(int product) {
		return owner(producerFirstProduct, product);
	}

	int vendorOf(int offer) {
		return owner(vendorFirstOffer, offer);
	}

	int siteOfReview(int review) {
		return owner(siteFirstReview, review);
	}

	int siteOfPerson(int person) {
		return owner(siteFirstPerson, person);
	}

	int reviewerOf(int review) {
		return owner(personFirstReview, review);
	}

	/** Index into {@link BsbmDistributions#COUNTRY_CODES}: the first draw of a producer's, vendor's or person's stream. */
	int country(int kind, int number) {
		return BsbmDistributions.country(Rng.of(seed, kind, number));
	}

	/**
	 * A product: a leaf type drawn half-normally over the leaves (low numbers more often), each
	 * feature of its type and of the type's ancestors with probability 25%, numeric properties 1-3
	 * and textual properties 1-3 always, properties 4-6 by one of three patterns (40%: 4 and 5;
	 * 20%: 4 each half the time, 5 each a quarter of the time; 40%: 5 each a quarter, 6 each half
	 * the time), numeric values half-normal over 1..2000, publication between 2000-10-20 and
	 * 2007-01-23.
	 */
	Product product(int id) {
		SplittableRandom r = Rng.of(seed, KIND_PRODUCT, id);
		String label = Words.text(r, 1, 3);
		String comment = Words.text(r, 50, 150);
		int leaf = types.firstLeaf + normalInRange(r, 0, types.leaves(), 2) - 1;
		int draw = r.nextInt(100);
		int pattern = draw < 40 ? 1 : draw < 60 ? 2 : 3;
		int[] numeric = new int[6];
		String[] textual = new String[6];
		for (int i = 0; i < 6; i++) {
			boolean hasNumber;
			boolean hasText;
			if (i < 3) {
				hasNumber = hasText = true;
			} else if (i == 3) {
				hasNumber = pattern == 1 || pattern == 2 && chance(r, 50);
				hasText = pattern == 1 || pattern == 2 && chance(r, 50);
			} else if (i == 4) {
				hasNumber = pattern == 1 || chance(r, 25);
				hasText = pattern == 1 || chance(r, 25);
			} else {
				hasNumber = pattern == 3 && chance(r, 50);
				hasText = pattern == 3 && chance(r, 50);
			}
			numeric[i] = hasNumber ? normalInRange(r, 0, 2000, 2) : 0;
			textual[i] = hasText ? Words.text(r, 3, 15) : null;
		}
		int[] candidates = types.featuresOfPath(leaf);
		int[] features = Arrays.stream(candidates).filter(f -> chance(r, 25)).sorted().toArray();
		LocalDate published = dateBetween(r, LocalDate.of(2000, 10, 20), LocalDate.of(2007, 1, 23));
		return new Product(id, producerOf(id), leaf, features, label, comment, numeric, textual, published);
	}

	/**
	 * An offer: the product drawn normally over the product numbers (mean in the middle, 4
	 * deviations across), price uniform in 5..10,000 USD, published at a uniform instant of the 97
	 * days before the current date, valid from 0-90 days before to 7-90 days after that instant,
	 * delivery days N(2, 1) on [0, 14.2] scaled onto 1..21 (mean about 3.8).
	 */
	Offer offer(int id) {
		SplittableRandom r = Rng.of(seed, KIND_OFFER, id);
		int product = normalInRange(r, 2, products, 4);
		long cents = Math.round((5 + r.nextDouble() * (10_000 - 5)) * 100);
		double published = -97 * r.nextDouble();
		LocalDate validFrom = CURRENT_DATE.plusDays((long) Math.floor(published - r.nextInt(91)));
		LocalDate validTo = CURRENT_DATE.plusDays((long) Math.floor(published + 7 + r.nextInt(84)));
		int deliveryDays = normalInRange(r, 2, 21, 14.2);
		LocalDate date = CURRENT_DATE.plusDays((long) Math.floor(published));
		return new Offer(id, product, vendorOf(id), cents, validFrom, validTo, deliveryDays, date);
	}

	/**
	 * A review: the product drawn like an offer's, the review date at a uniform instant of the year
	 * before the current date, title 4-15 words, text 50-200 words in the reviewer's country's
	 * language, each of 4 ratings present with probability 70% and uniform in 1..10, published
	 * between the review date and the current date.
	 */
	Review review(int id) {
		SplittableRandom r = Rng.of(seed, KIND_REVIEW, id);
		int product = normalInRange(r, 2, products, 4);
		int reviewer = reviewerOf(id);
		double reviewed = -REVIEW_DAYS * r.nextDouble();
		String title = Words.text(r, 4, 15);
		String text = Words.text(r, 50, 200);
		int[] ratings = new int[4];
		for (int i = 0; i < 4; i++) {
			ratings[i] = chance(r, 70) ? 1 + r.nextInt(10) : 0;
		}
		double published = reviewed + r.nextDouble() * -reviewed;
		String language = BsbmDistributions.COUNTRY_LANGUAGES[country(KIND_PERSON, reviewer)];
		return new Review(id, product, reviewer, CURRENT_DATE.plusDays((long) Math.floor(reviewed)), title, text,
				language, ratings, CURRENT_DATE.plusDays((long) Math.floor(published)));
	}

	/** A uniform day in [from, to). */
	static LocalDate dateBetween(SplittableRandom r, LocalDate from, LocalDate to) {
		return from.plusDays(r.nextLong(to.toEpochDay() - from.toEpochDay()));
	}

	static String productTypeIri(int t) {
		return BsbmVocabulary.INST + "ProductType" + t;
	}

	static String featureIri(int f) {
		return BsbmVocabulary.INST + "ProductFeature" + f;
	}

	static String producerIri(int k) {
		return BsbmVocabulary.INST + "dataFromProducer" + k + "/Producer" + k;
	}

	String productIri(int id) {
		return BsbmVocabulary.INST + "dataFromProducer" + producerOf(id) + "/Product" + id;
	}

	static String vendorIri(int v) {
		return BsbmVocabulary.INST + "dataFromVendor" + v + "/Vendor" + v;
	}

	String offerIri(int j) {
		return BsbmVocabulary.INST + "dataFromVendor" + vendorOf(j) + "/Offer" + j;
	}

	static String siteIri(int s) {
		return BsbmVocabulary.INST + "dataFromRatingSite" + s + "/RatingSite" + s;
	}

	String personIri(int m) {
		return BsbmVocabulary.INST + "dataFromRatingSite" + siteOfPerson(m) + "/Reviewer" + m;
	}

	String reviewIri(int j) {
		return BsbmVocabulary.INST + "dataFromRatingSite" + siteOfReview(j) + "/Review" + j;
	}

	/** A generated product. Absent optional numeric values are 0, absent texts null. */
	record Product(int id, int producer, int leafType, int[] features, String label, String comment, int[] numeric,
			String[] textual, LocalDate published) {
	}

	/** A generated offer; the price in US cents. */
	record Offer(int id, int product, int vendor, long priceCents, LocalDate validFrom, LocalDate validTo,
			int deliveryDays, LocalDate published) {
	}

	/** A generated review; absent ratings are 0. */
	record Review(int id, int product, int reviewer, LocalDate reviewDate, String title, String text,
			String language, int[] ratings, LocalDate published) {
	}
}
