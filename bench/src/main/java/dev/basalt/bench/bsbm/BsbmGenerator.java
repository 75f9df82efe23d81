package dev.basalt.bench.bsbm;

import static dev.basalt.bench.bsbm.BsbmVocabulary.BSBM;
import static dev.basalt.bench.bsbm.BsbmVocabulary.COMMENT;
import static dev.basalt.bench.bsbm.BsbmVocabulary.COUNTRIES;
import static dev.basalt.bench.bsbm.BsbmVocabulary.COUNTRY_CODES;
import static dev.basalt.bench.bsbm.BsbmVocabulary.DATE;
import static dev.basalt.bench.bsbm.BsbmVocabulary.FOAF;
import static dev.basalt.bench.bsbm.BsbmVocabulary.HOMEPAGE;
import static dev.basalt.bench.bsbm.BsbmVocabulary.INST;
import static dev.basalt.bench.bsbm.BsbmVocabulary.LABEL;
import static dev.basalt.bench.bsbm.BsbmVocabulary.LANGUAGES;
import static dev.basalt.bench.bsbm.BsbmVocabulary.PUBLISHER;
import static dev.basalt.bench.bsbm.BsbmVocabulary.REV;
import static dev.basalt.bench.bsbm.BsbmVocabulary.SUBCLASS_OF;
import static dev.basalt.bench.bsbm.BsbmVocabulary.TITLE;
import static dev.basalt.bench.bsbm.BsbmVocabulary.TYPE;
import static dev.basalt.bench.bsbm.BsbmVocabulary.USD;
import static dev.basalt.bench.bsbm.BsbmVocabulary.XSD_DATE;
import static dev.basalt.bench.bsbm.BsbmVocabulary.XSD_DATETIME;
import static dev.basalt.bench.bsbm.BsbmVocabulary.XSD_INTEGER;
import static dev.basalt.bench.rdf.NTriplesSink.langString;
import static dev.basalt.bench.rdf.NTriplesSink.literal;
import static dev.basalt.bench.rdf.NTriplesSink.typed;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.SplittableRandom;

import dev.basalt.bench.rdf.NTriplesSink;
import dev.basalt.bench.rdf.Rng;
import dev.basalt.bench.rdf.TripleCounts;

/**
 * Writes a BSBM dataset as N-Triples, entity by entity, in the order of the official generator:
 * product types, product features, each producer followed by its products, each vendor followed by
 * its offers, each rating site followed by its reviewers and reviews. Memory use is independent of
 * the scale.
 */
public final class BsbmGenerator {

	private static final String STANDARDIZATION_INSTITUTION = INST + "StandardizationInstitution1";

	private final BsbmModel model;

	public BsbmGenerator(BsbmModel model) {
		this.model = model;
	}

	/** Writes the dataset to {@code file} (gzip if it ends in .gz) and returns its triple counts. */
	public TripleCounts write(Path file) {
		try (NTriplesSink out = new NTriplesSink(file)) {
			writeTypes(out);
			writeFeatures(out);
			for (int k = 1; k <= model.producers(); k++) {
				writeProducer(out, k);
				for (int p = model.producerFirstProduct[k - 1]; p < model.producerFirstProduct[k]; p++) {
					writeProduct(out, model.product(p));
				}
			}
			for (int v = 1; v <= model.vendors(); v++) {
				writeVendor(out, v);
				for (int j = model.vendorFirstOffer[v - 1]; j < model.vendorFirstOffer[v]; j++) {
					writeOffer(out, j, v);
				}
			}
			for (int s = 1; s <= model.ratingSites(); s++) {
				writeSite(out, s);
				for (int m = model.siteFirstPerson[s - 1]; m < model.siteFirstPerson[s]; m++) {
					writePerson(out, m, s);
				}
				for (int j = model.siteFirstReview[s - 1]; j < model.siteFirstReview[s]; j++) {
					writeReview(out, j, s);
				}
			}
			return out.counts();
		}
	}

	private void writeTypes(NTriplesSink out) {
		for (int t = 1; t <= model.typeCount; t++) {
			SplittableRandom r = Rng.of(model.seed, BsbmModel.KIND_TYPE, t);
			String s = BsbmModel.productTypeIri(t);
			out.iri(s, TYPE, BSBM + "ProductType");
			out.lit(s, LABEL, literal(Words.text(r, 1, 3)));
			out.lit(s, COMMENT, literal(Words.text(r, 20, 50)));
			if (model.typeParent[t] > 0) {
				out.iri(s, SUBCLASS_OF, BsbmModel.productTypeIri(model.typeParent[t]));
			}
			published(out, s, STANDARDIZATION_INSTITUTION, r);
		}
	}

	private void writeFeatures(NTriplesSink out) {
		for (int f = 1; f <= model.featureTotal; f++) {
			SplittableRandom r = Rng.of(model.seed, BsbmModel.KIND_FEATURE, f);
			String s = BsbmModel.featureIri(f);
			out.iri(s, TYPE, BSBM + "ProductFeature");
			out.lit(s, LABEL, literal(Words.text(r, 1, 3)));
			out.lit(s, COMMENT, literal(Words.text(r, 20, 50)));
			published(out, s, STANDARDIZATION_INSTITUTION, r);
		}
	}

	private void writeProducer(NTriplesSink out, int k) {
		SplittableRandom r = Rng.of(model.seed, BsbmModel.KIND_PRODUCER, k);
		String s = BsbmModel.producerIri(k);
		out.iri(s, TYPE, BSBM + "Producer");
		out.lit(s, LABEL, literal(Words.text(r, 1, 3)));
		out.lit(s, COMMENT, literal(Words.text(r, 20, 80)));
		out.iri(s, HOMEPAGE, "http://www.Producer" + k + ".com/");
		out.iri(s, BSBM + "country", country(r));
		published(out, s, s, r);
	}

	private void writeProduct(NTriplesSink out, BsbmModel.Product p) {
		String s = model.productIri(p.id());
		String producer = BsbmModel.producerIri(p.producer());
		out.iri(s, TYPE, BSBM + "Product");
		for (int t : p.types()) {
			out.iri(s, TYPE, BsbmModel.productTypeIri(t));
		}
		out.lit(s, LABEL, literal(p.label()));
		out.lit(s, COMMENT, literal(p.comment()));
		out.iri(s, BSBM + "producer", producer);
		for (int f : p.features()) {
			out.iri(s, BSBM + "productFeature", BsbmModel.featureIri(f));
		}
		for (int i = 0; i < 6; i++) {
			if (p.numeric()[i] > 0) {
				out.lit(s, BSBM + "productPropertyNumeric" + (i + 1), typed(Integer.toString(p.numeric()[i]), XSD_INTEGER));
			}
		}
		for (int i = 0; i < 6; i++) {
			if (p.textual()[i] != null) {
				out.lit(s, BSBM + "productPropertyTextual" + (i + 1), literal(p.textual()[i]));
			}
		}
		out.iri(s, PUBLISHER, producer);
		out.lit(s, DATE, typed(p.published().toString(), XSD_DATE));
	}

	private void writeVendor(NTriplesSink out, int v) {
		SplittableRandom r = Rng.of(model.seed, BsbmModel.KIND_VENDOR, v);
		String s = BsbmModel.vendorIri(v);
		out.iri(s, TYPE, BSBM + "Vendor");
		out.lit(s, LABEL, literal(Words.text(r, 1, 3)));
		out.lit(s, COMMENT, literal(Words.text(r, 20, 80)));
		out.iri(s, HOMEPAGE, "http://www.Vendor" + v + ".com/");
		out.iri(s, BSBM + "country", country(r));
		published(out, s, s, r);
	}

	private void writeOffer(NTriplesSink out, int j, int v) {
		SplittableRandom r = Rng.of(model.seed, BsbmModel.KIND_OFFER, j);
		String s = model.offerIri(j);
		String vendor = BsbmModel.vendorIri(v);
		int product = Rng.between(r, 1, model.products);
		out.iri(s, TYPE, BSBM + "Offer");
		out.iri(s, BSBM + "product", model.productIri(product));
		out.iri(s, BSBM + "vendor", vendor);
		int cents = Rng.between(r, 500, 1_000_000);
		out.lit(s, BSBM + "price", typed(cents / 100 + "." + String.format("%02d", cents % 100), USD));
		LocalDate from = BsbmModel.CURRENT_DATE.minusDays(Rng.between(r, 0, 365));
		out.lit(s, BSBM + "validFrom", typed(from + "T00:00:00", XSD_DATETIME));
		out.lit(s, BSBM + "validTo", typed(from.plusDays(Rng.between(r, 10, 365)) + "T00:00:00", XSD_DATETIME));
		out.lit(s, BSBM + "deliveryDays", typed(Integer.toString(Rng.between(r, 1, 21)), XSD_INTEGER));
		out.iri(s, BSBM + "offerWebpage", "http://www.Vendor" + v + ".com/Offer" + j + "/");
		published(out, s, vendor, r);
	}

	private void writeSite(NTriplesSink out, int site) {
		SplittableRandom r = Rng.of(model.seed, BsbmModel.KIND_SITE, site);
		String s = BsbmModel.siteIri(site);
		out.iri(s, TYPE, BSBM + "RatingSite");
		out.lit(s, LABEL, literal(Words.text(r, 1, 3)));
		out.iri(s, HOMEPAGE, "http://www.RatingSite" + site + ".com/");
	}

	private void writePerson(NTriplesSink out, int m, int site) {
		SplittableRandom r = Rng.of(model.seed, BsbmModel.KIND_PERSON, m);
		String s = model.personIri(m);
		out.iri(s, TYPE, FOAF + "Person");
		out.lit(s, FOAF + "name", literal(Words.text(r, 1, 2)));
		out.lit(s, FOAF + "mbox_sha1sum", literal(String.format("%016x%016x%08x", r.nextLong(), r.nextLong(), r.nextInt())));
		out.iri(s, BSBM + "country", country(r));
		published(out, s, BsbmModel.siteIri(site), r);
	}

	private void writeReview(NTriplesSink out, int j, int site) {
		SplittableRandom r = Rng.of(model.seed, BsbmModel.KIND_REVIEW, j);
		String s = model.reviewIri(j);
		int product = Rng.between(r, 1, model.products);
		int person = Rng.between(r, model.siteFirstPerson[site - 1], model.siteFirstPerson[site] - 1);
		out.iri(s, TYPE, BSBM + "Review");
		out.iri(s, BSBM + "reviewFor", model.productIri(product));
		out.iri(s, REV + "reviewer", model.personIri(person));
		LocalDate reviewed = BsbmModel.CURRENT_DATE.minusDays(Rng.between(r, 0, 1000));
		out.lit(s, BSBM + "reviewDate", typed(reviewed + "T00:00:00", XSD_DATETIME));
		out.lit(s, TITLE, literal(Words.text(r, 4, 12)));
		out.lit(s, REV + "text", langString(Words.text(r, 50, 200), LANGUAGES[r.nextInt(LANGUAGES.length)]));
		for (int i = 1; i <= 4; i++) {
			if (r.nextDouble() < 0.7) {
				out.lit(s, BSBM + "rating" + i, typed(Integer.toString(Rng.between(r, 1, 10)), XSD_INTEGER));
			}
		}
		out.iri(s, PUBLISHER, BsbmModel.siteIri(site));
		out.lit(s, DATE, typed(reviewed.plusDays(Rng.between(r, 0, 30)).toString(), XSD_DATE));
	}

	private static String country(SplittableRandom r) {
		return COUNTRIES + COUNTRY_CODES[r.nextInt(COUNTRY_CODES.length)];
	}

	private static void published(NTriplesSink out, String subject, String publisher, SplittableRandom r) {
		out.iri(subject, PUBLISHER, publisher);
		out.lit(subject, DATE, typed(BsbmModel.CURRENT_DATE.minusDays(Rng.between(r, 30, 3000)).toString(), XSD_DATE));
	}
}
