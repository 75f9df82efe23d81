package dev.basalt.bench.bsbm;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

import dev.basalt.bench.rdf.Rng;

/**
 * The shape of a BSBM dataset for a product count and seed, following the BSBM V3 dataset
 * specification: a product type hierarchy whose depth and breadth grow with the scale, product
 * features attached to types, about 50 products per producer, 20 offers and 10 reviews per product,
 * about 2,000 offers per vendor, about 10,000 reviews per rating site and 20 reviews per reviewer.
 *
 * <p>Only the structure (hierarchy, feature ranges and the contiguous ranges of products, offers and
 * reviews that belong to each producer, vendor and rating site) is held in memory: a few arrays of
 * O(products / 50) entries. Every entity is a pure function of (seed, number), see {@link Rng}, so the
 * generator streams the data and {@link BsbmParameters} regenerates the entities it draws
 * query parameters from.
 */
public final class BsbmModel {

	static final int KIND_STRUCTURE = 1;
	static final int KIND_TYPE = 2;
	static final int KIND_FEATURE = 3;
	static final int KIND_PRODUCER = 4;
	static final int KIND_PRODUCT = 5;
	static final int KIND_VENDOR = 6;
	static final int KIND_OFFER = 7;
	static final int KIND_SITE = 8;
	static final int KIND_PERSON = 9;
	static final int KIND_REVIEW = 10;

	static final int OFFERS_PER_PRODUCT = 20;
	static final int REVIEWS_PER_PRODUCT = 10;
	/** The date the queries treat as "now" (Q7, Q10), as in the BSBM test driver. */
	static final LocalDate CURRENT_DATE = LocalDate.of(2008, 6, 20);

	final long seed;
	final int products;
	final int typeCount;
	/** Index 1..typeCount; parent of the root (type 1) is 0. */
	final int[] typeParent;
	final int firstLeafType;
	final int[] featureStart;
	final int[] featureCount;
	final int featureTotal;
	/** 1-based first product of producer k at index k-1, plus a sentinel at the end. */
	final int[] producerFirstProduct;
	final int[] vendorFirstOffer;
	final int[] siteFirstReview;
	final int[] siteFirstPerson;
	final int offers;
	final int reviews;
	final int persons;

	public BsbmModel(int products, long seed) {
		if (products < 1) {
			throw new IllegalArgumentException("BSBM needs at least one product, got " + products);
		}
		this.seed = seed;
		this.products = products;
		this.offers = products * OFFERS_PER_PRODUCT;
		this.reviews = products * REVIEWS_PER_PRODUCT;
		SplittableRandom r = Rng.of(seed, KIND_STRUCTURE, 0);

		// Hierarchy: depth grows with log10(products), breadth so that leaves hold ~25 products each.
		int depth = products < 1_000 ? 2 : products < 10_000 ? 3 : 4;
		double leaves = Math.max(2.0, products / 25.0);
		int branching = Math.max(2, (int) Math.ceil(Math.pow(leaves, 1.0 / depth)));
		List<Integer> parents = new ArrayList<>();
		parents.add(0); // unused index 0
		parents.add(0); // root
		int levelStart = 1;
		int levelSize = 1;
		for (int level = 1; level <= depth; level++) {
			int nextStart = parents.size();
			for (int p = levelStart; p < levelStart + levelSize; p++) {
				for (int c = 0; c < branching; c++) {
					parents.add(p);
				}
			}
			levelStart = nextStart;
			levelSize = levelSize * branching;
		}
		typeCount = parents.size() - 1;
		typeParent = parents.stream().mapToInt(Integer::intValue).toArray();
		firstLeafType = levelStart;

		featureStart = new int[typeCount + 1];
		featureCount = new int[typeCount + 1];
		int nextFeature = 1;
		for (int t = 2; t <= typeCount; t++) {
			featureStart[t] = nextFeature;
			featureCount[t] = Rng.between(r, 6, 12);
			nextFeature += featureCount[t];
		}
		featureTotal = nextFeature - 1;

		producerFirstProduct = ranges(r, products, 50, 16, 150);
		vendorFirstOffer = ranges(r, offers, 2_000, 600, 6_000);
		siteFirstReview = ranges(r, reviews, 10_000, 3_000, 30_000);
		siteFirstPerson = new int[siteFirstReview.length];
		siteFirstPerson[0] = 1;
		for (int s = 1; s < siteFirstReview.length; s++) {
			int reviewsOfSite = siteFirstReview[s] - siteFirstReview[s - 1];
			siteFirstPerson[s] = siteFirstPerson[s - 1] + Math.max(1, reviewsOfSite / 20);
		}
		persons = siteFirstPerson[siteFirstPerson.length - 1] - 1;
	}

	/** Splits 1..total into consecutive runs of normally distributed length; returns run starts + sentinel. */
	private static int[] ranges(SplittableRandom r, int total, double mean, double deviation, int max) {
		List<Integer> starts = new ArrayList<>();
		int next = 1;
		while (next <= total) {
			starts.add(next);
			next += Rng.normal(r, mean, deviation, 1, max);
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
		return typeCount;
	}

	public int productFeatures() {
		return featureTotal;
	}

	public int offers() {
		return offers;
	}

	public int reviews() {
		return reviews;
	}

	public int persons() {
		return persons;
	}

	/** Owner (1-based) of the item {@code n} given run starts from {@link #ranges}. */
	static int owner(int[] firstOfRun, int n) {
		int i = Arrays.binarySearch(firstOfRun, n);
		return i >= 0 ? i + 1 : -i - 1;
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

	/** The types from the root's child down to {@code leaf} (the root itself is left out). */
	int[] typePath(int leaf) {
		List<Integer> path = new ArrayList<>();
		for (int t = leaf; t > 1; t = typeParent[t]) {
			path.add(0, t);
		}
		return path.stream().mapToInt(Integer::intValue).toArray();
	}

	/** A product's structural attributes and values; deterministic in (seed, id). */
	Product product(int id) {
		SplittableRandom r = Rng.of(seed, KIND_PRODUCT, id);
		int leaf = Rng.between(r, firstLeafType, typeCount);
		int[] types = typePath(leaf);
		TreeSet<Integer> features = new TreeSet<>();
		for (int t : types) {
			for (int f = featureStart[t]; f < featureStart[t] + featureCount[t]; f++) {
				if (r.nextDouble() < 0.6) {
					features.add(f);
				}
			}
		}
		if (features.isEmpty()) {
			features.add(featureStart[leaf]);
		}
		String label = Words.text(r, 1, 3);
		String comment = Words.text(r, 50, 150);
		int[] numeric = new int[6];
		String[] textual = new String[6];
		for (int i = 0; i < 6; i++) {
			double presence = i < 3 ? 1.0 : i < 5 ? 0.5 : 0.25;
			boolean present = r.nextDouble() < presence;
			numeric[i] = present ? Rng.between(r, 1, 2000) : 0;
		}
		for (int i = 0; i < 6; i++) {
			double presence = i < 3 ? 1.0 : i < 5 ? 0.5 : 0.25;
			textual[i] = r.nextDouble() < presence ? Words.text(r, 3, 15) : null;
		}
		LocalDate published = CURRENT_DATE.minusDays(Rng.between(r, 30, 3000));
		return new Product(id, producerOf(id), types, features.stream().mapToInt(Integer::intValue).toArray(),
				label, comment, numeric, textual, published);
	}

	/** All features of the types on {@code leaf}'s path: the candidates for a product of that type. */
	int[] featuresOfPath(int[] types) {
		int n = 0;
		for (int t : types) {
			n += featureCount[t];
		}
		int[] out = new int[n];
		int i = 0;
		for (int t : types) {
			for (int f = featureStart[t]; f < featureStart[t] + featureCount[t]; f++) {
				out[i++] = f;
			}
		}
		return out;
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
	record Product(int id, int producer, int[] types, int[] features, String label, String comment,
			int[] numeric, String[] textual, LocalDate published) {
	}
}
