package dev.basalt.bench.bsbm;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import dev.basalt.bench.rdf.Rng;

/**
 * Draws the placeholder values of the Explore queries from the generated data, as the BSBM test
 * driver does: types and features are those of a randomly chosen product (so that Q1, Q3 and Q4
 * are not empty by construction), numeric bounds are uniform in 1..500, products, reviews and
 * offers are uniform over all of them, and "now" is the dataset's fixed current date.
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
			BsbmModel.Product product = model.product(Rng.between(r, 1, model.products));
			int[] types = product.types();
			int type = types[r.nextInt(types.length)];
			int[] features = product.features();
			int f1 = features[r.nextInt(features.length)];
			int f2 = features[r.nextInt(features.length)];
			p.put("ProductType", iri(BsbmModel.productTypeIri(type)));
			p.put("ProductFeature1", iri(BsbmModel.featureIri(f1)));
			if (number == 3) {
				int[] candidates = model.featuresOfPath(types);
				p.put("ProductFeature2", iri(BsbmModel.featureIri(candidates[r.nextInt(candidates.length)])));
			} else {
				p.put("ProductFeature2", iri(BsbmModel.featureIri(f2)));
			}
			p.put("ProductFeature3", iri(BsbmModel.featureIri(features[r.nextInt(features.length)])));
			p.put("x", Integer.toString(Rng.between(r, 1, 500)));
			p.put("y", Integer.toString(Rng.between(r, 1, 500)));
		}
		case 2, 5, 7, 8, 10 -> {
			p.put("ProductXYZ", iri(model.productIri(Rng.between(r, 1, model.products))));
			p.put("currentDate", "\"" + BsbmModel.CURRENT_DATE + "T00:00:00\"^^xsd:dateTime");
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

	private static String iri(String s) {
		return '<' + s + '>';
	}
}
