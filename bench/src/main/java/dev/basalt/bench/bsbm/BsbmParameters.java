package dev.basalt.bench.bsbm;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import dev.basalt.bench.rdf.Rng;

/**
 * Draws the placeholder values of the Explore queries as the BSBM V3 test driver does: a product
 * type uniformly among the leaf types; distinct product features uniformly among the features of
 * that type and its ancestors (so Q1, Q3 and Q4 may well have no answer, as with the driver);
 * numeric bounds uniform in 1..500; products, reviews and offers uniform over all of them; "now"
 * the dataset's fixed current date; the regex word (Q6) a word of a uniformly drawn product's
 * label. Thread-safe: it only reads its {@link BsbmModel}, whose fields are final and filled when it is made; the
 * randomness is the caller's, one SplittableRandom per client thread.
 */
public final class BsbmParameters {

	private final BsbmModel model;

	public BsbmParameters(BsbmModel model) {
		this.model = model;
	}

	/** The placeholder bindings (already rendered as SPARQL terms) for query {@code number}. */
	public Map<String, String> draw(int number, SplittableRandom r) {
		Map<String, String> p = new HashMap<>();
		switch (number) {
		case 1, 3, 4 -> {
			BsbmHierarchy types = model.types;
			int leaf = Rng.between(r, types.firstLeaf, types.typeCount);
			p.put("ProductType", iri(BsbmModel.productTypeIri(leaf)));
			int[] features = distinct(types.featuresOfPath(leaf), number == 4 ? 3 : 2, r);
			for (int i = 0; i < features.length; i++) {
				p.put("ProductFeature" + (i + 1), iri(BsbmModel.featureIri(features[i])));
			}
			p.put("x", Integer.toString(Rng.between(r, 1, 500)));
			p.put("y", Integer.toString(Rng.between(r, 1, 500)));
		}
		case 2, 5, 7, 8, 10 -> {
			p.put("ProductXYZ", iri(model.productIri(Rng.between(r, 1, model.products))));
			p.put("currentDate", "\"" + BsbmModel.CURRENT_DATE + "T00:00:00\"^^<http://www.w3.org/2001/XMLSchema#dateTime>");
		}
		case 6 -> {
			String label = model.product(Rng.between(r, 1, model.products)).label();
			String[] words = label.split(" ");
			p.put("word1", words[r.nextInt(words.length)]);
		}
		case 9 -> p.put("ReviewXYZ", iri(model.reviewIri(Rng.between(r, 1, model.reviews))));
		case 11, 12 -> p.put("OfferXYZ", iri(model.offerIri(Rng.between(r, 1, model.offers))));
		default -> throw new IllegalArgumentException("BSBM Explore has queries 1..12, not " + number);
		}
		return p;
	}

	/**
	 * {@code n} distinct values of {@code candidates}, drawn uniformly without replacement; with
	 * fewer candidates than {@code n} (only in datasets of a few products) the draws repeat.
	 */
	private static int[] distinct(int[] candidates, int n, SplittableRandom r) {
		int[] pool = candidates.clone();
		int[] out = new int[n];
		for (int i = 0; i < n; i++) {
			int left = pool.length - i % pool.length;
			int j = r.nextInt(left);
			out[i] = pool[j];
			pool[j] = pool[left - 1];
			pool[left - 1] = out[i];
		}
		return out;
	}

	private static String iri(String s) {
		return '<' + s + '>';
	}
}
