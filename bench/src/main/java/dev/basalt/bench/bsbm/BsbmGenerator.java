package dev.basalt.bench.bsbm;

import static dev.basalt.bench.bsbm.BsbmVocabulary.BSBM;
import static dev.basalt.bench.bsbm.BsbmVocabulary.COMMENT;
import static dev.basalt.bench.bsbm.BsbmVocabulary.COUNTRIES;
import static dev.basalt.bench.bsbm.BsbmVocabulary.DATE;
import static dev.basalt.bench.bsbm.BsbmVocabulary.FOAF;
import static dev.basalt.bench.bsbm.BsbmVocabulary.HOMEPAGE;
import static dev.basalt.bench.bsbm.BsbmVocabulary.INST;
import static dev.basalt.bench.bsbm.BsbmVocabulary.LABEL;
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
import java.util.HexFormat;
import java.util.SplittableRandom;

import dev.basalt.bench.rdf.NTriplesSink;
import dev.basalt.bench.rdf.Rng;
import dev.basalt.bench.rdf.TripleCounts;

/**
 * Writes a BSBM dataset as N-Triples, entity by entity, in the order and with the statements of the
 * official generator without forward chaining (a product is typed with its leaf type only): product
 * types, product features, each producer followed by its products, each vendor followed by its
 * offers, each rating site's reviewers each followed by their reviews. The values follow the rules
 * of {@link BsbmModel}. Memory use is independent of the scale; the output is a function of
 * (products, seed).
 *
 * <p>Thread-safe: it holds only its immutable {@link BsbmModel}; each {@link #write} call opens its own sink,
 * so calls on different threads (to different files) do not interfere.
 */
public final class BsbmGenerator {

	private static final String STANDARDIZATION_INSTITUTION = INST + "StandardizationInstitution1";
	private static final LocalDate SCHEMA_FROM = LocalDate.of(2000, 6, 20);
	private static final LocalDate SCHEMA_TO = LocalDate.of(2000, 7, 23);

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
					writeOffer(out, model.offer(j));
				}
			}
			for (int m = 1; m <= model.persons(); m++) {
				writePerson(out, m);
				for (int j = model.personFirstReview[m - 1]; j < model.personFirstReview[m]; j++) {
					writeReview(out, model.review(j));
				}
			}
			return out.counts();
		}
	}

	private void writeTypes(NTriplesSink out) {
		BsbmHierarchy h = model.types;
		for (int t = 1; t <= h.typeCount; t++) {
			SplittableRandom r = Rng.of(model.seed, BsbmModel.KIND_TYPE, t);
			String s = BsbmModel.productTypeIri(t);
			out.iri(s, TYPE, BSBM + "ProductType");
			out.lit(s, LABEL, literal(t == 1 ? "Thing" : Words.text(r, 1, 3)));
			out.lit(s, COMMENT, literal(t == 1 ? "The Product Type of all Products" : Words.text(r, 20, 50)));
			if (h.parent[t] > 0) {
				out.iri(s, SUBCLASS_OF, BsbmModel.productTypeIri(h.parent[t]));
			}
			published(out, s, STANDARDIZATION_INSTITUTION, BsbmModel.dateBetween(r, SCHEMA_FROM, SCHEMA_TO));
		}
	}

	private void writeFeatures(NTriplesSink out) {
		for (int f = 1; f <= model.types.featureTotal; f++) {
			SplittableRandom r = Rng.of(model.seed, BsbmModel.KIND_FEATURE, f);
			String s = BsbmModel.featureIri(f);
			out.iri(s, TYPE, BSBM + "ProductFeature");
			out.lit(s, LABEL, literal(Words.text(r, 1, 3)));
			out.lit(s, COMMENT, literal(Words.text(r, 20, 50)));
			published(out, s, STANDARDIZATION_INSTITUTION, BsbmModel.dateBetween(r, SCHEMA_FROM, SCHEMA_TO));
		}
	}

	private void writeProducer(NTriplesSink out, int k) {
		SplittableRandom r = Rng.of(model.seed, BsbmModel.KIND_PRODUCER, k);
		String country = country(r);
		String s = BsbmModel.producerIri(k);
		out.iri(s, TYPE, BSBM + "Producer");
		out.lit(s, LABEL, literal(Words.text(r, 1, 3)));
		out.lit(s, COMMENT, literal(Words.text(r, 20, 50)));
		out.iri(s, HOMEPAGE, "http://www.Producer" + k + ".com/");
		out.iri(s, BSBM + "country", country);
		published(out, s, s, BsbmModel.dateBetween(r, LocalDate.of(2000, 8, 20), LocalDate.of(2005, 7, 23)));
	}

	private void writeProduct(NTriplesSink out, BsbmModel.Product p) {
		String s = model.productIri(p.id());
		String producer = BsbmModel.producerIri(p.producer());
		out.iri(s, TYPE, BSBM + "Product");
		out.lit(s, LABEL, literal(p.label()));
		out.lit(s, COMMENT, literal(p.comment()));
		out.iri(s, TYPE, BsbmModel.productTypeIri(p.leafType()));
		out.iri(s, BSBM + "producer", producer);
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
		for (int f : p.features()) {
			out.iri(s, BSBM + "productFeature", BsbmModel.featureIri(f));
		}
		published(out, s, producer, p.published());
	}

	private void writeVendor(NTriplesSink out, int v) {
		SplittableRandom r = Rng.of(model.seed, BsbmModel.KIND_VENDOR, v);
		String country = country(r);
		String s = BsbmModel.vendorIri(v);
		out.iri(s, TYPE, BSBM + "Vendor");
		out.lit(s, LABEL, literal(Words.text(r, 1, 3)));
		out.lit(s, COMMENT, literal(Words.text(r, 20, 50)));
		out.iri(s, HOMEPAGE, "http://www.vendor" + v + ".com/");
		out.iri(s, BSBM + "country", country);
		published(out, s, s, BsbmModel.dateBetween(r, BsbmModel.CURRENT_DATE.minusDays(97), BsbmModel.CURRENT_DATE));
	}

	private void writeOffer(NTriplesSink out, BsbmModel.Offer o) {
		String s = model.offerIri(o.id());
		String vendor = BsbmModel.vendorIri(o.vendor());
		out.iri(s, TYPE, BSBM + "Offer");
		out.iri(s, BSBM + "product", model.productIri(o.product()));
		out.iri(s, BSBM + "vendor", vendor);
		String price = o.priceCents() / 100 + "." + String.format("%02d", o.priceCents() % 100);
		out.lit(s, BSBM + "price", typed(price, USD));
		out.lit(s, BSBM + "validFrom", typed(o.validFrom() + "T00:00:00", XSD_DATETIME));
		out.lit(s, BSBM + "validTo", typed(o.validTo() + "T00:00:00", XSD_DATETIME));
		out.lit(s, BSBM + "deliveryDays", typed(Integer.toString(o.deliveryDays()), XSD_INTEGER));
		out.iri(s, BSBM + "offerWebpage", INST + "dataFromVendor" + o.vendor() + "/Offer" + o.id() + "/");
		published(out, s, vendor, o.published());
	}

	private void writePerson(NTriplesSink out, int m) {
		SplittableRandom r = Rng.of(model.seed, BsbmModel.KIND_PERSON, m);
		String country = country(r);
		String s = model.personIri(m);
		out.iri(s, TYPE, FOAF + "Person");
		out.lit(s, FOAF + "name", literal(Words.text(r, 1, 1)));
		byte[] sha1 = new byte[20];
		r.nextBytes(sha1);
		out.lit(s, FOAF + "mbox_sha1sum", literal(HexFormat.of().formatHex(sha1)));
		out.iri(s, BSBM + "country", country);
		published(out, s, BsbmModel.siteIri(model.siteOfPerson(m)),
				BsbmModel.dateBetween(r, LocalDate.of(2008, 6, 20), LocalDate.of(2008, 9, 23)));
	}

	private void writeReview(NTriplesSink out, BsbmModel.Review w) {
		String s = model.reviewIri(w.id());
		out.iri(s, TYPE, REV + "Review");
		out.iri(s, BSBM + "reviewFor", model.productIri(w.product()));
		out.iri(s, REV + "reviewer", model.personIri(w.reviewer()));
		out.lit(s, BSBM + "reviewDate", typed(w.reviewDate() + "T00:00:00", XSD_DATETIME));
		out.lit(s, TITLE, literal(w.title()));
		out.lit(s, REV + "text", langString(w.text(), w.language()));
		for (int i = 0; i < 4; i++) {
			if (w.ratings()[i] > 0) {
				out.lit(s, BSBM + "rating" + (i + 1), typed(Integer.toString(w.ratings()[i]), XSD_INTEGER));
			}
		}
		published(out, s, BsbmModel.siteIri(model.siteOfReview(w.id())), w.published());
	}

	/** The country IRI from the first draw of an entity's stream, as {@link BsbmModel#country} draws it. */
	private static String country(SplittableRandom r) {
		return COUNTRIES + BsbmDistributions.COUNTRY_CODES[BsbmDistributions.country(r)];
	}

	private static void published(NTriplesSink out, String subject, String publisher, LocalDate date) {
		out.iri(subject, PUBLISHER, publisher);
		out.lit(subject, DATE, typed(date.toString(), XSD_DATE));
	}
}
