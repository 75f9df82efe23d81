package dev.basalt.bench.bsbm;

/**
 * IRIs of the BSBM vocabulary and of the other vocabularies its dataset uses.
 *
 * <p>Constants only; immutable.
 */
final class BsbmVocabulary {

	static final String BSBM = "http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/vocabulary/";
	static final String INST = "http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/instances/";
	static final String RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
	static final String RDFS = "http://www.w3.org/2000/01/rdf-schema#";
	static final String FOAF = "http://xmlns.com/foaf/0.1/";
	static final String DC = "http://purl.org/dc/elements/1.1/";
	static final String XSD = "http://www.w3.org/2001/XMLSchema#";
	static final String REV = "http://purl.org/stuff/rev#";
	static final String COUNTRIES = "http://downlode.org/rdf/iso-3166/countries#";

	static final String TYPE = RDF + "type";
	static final String LABEL = RDFS + "label";
	static final String COMMENT = RDFS + "comment";
	static final String SUBCLASS_OF = RDFS + "subClassOf";
	static final String PUBLISHER = DC + "publisher";
	static final String DATE = DC + "date";
	static final String TITLE = DC + "title";
	static final String HOMEPAGE = FOAF + "homepage";
	static final String XSD_INTEGER = XSD + "integer";
	static final String XSD_DATE = XSD + "date";
	static final String XSD_DATETIME = XSD + "dateTime";
	static final String USD = BSBM + "USD";

	private BsbmVocabulary() {
	}
}
