package dev.basalt.bench.bsbm;

import java.util.List;
import java.util.Map;

import dev.basalt.bench.driver.QueryTemplate;

/**
 * The twelve queries of the BSBM V3 Explore use case (the benchmark's definition, reproduced from its
 * specification) with {@code %Name%} placeholders, each with the prefix declarations of the
 * specification's text and no others, and the two query mixes.
 *
 * <p>Immutable: constants only, safe to share between threads.
 */
public final class BsbmQueries {

	/** The prefixes the specification's query texts declare, by name. */
	private static final Map<String, String> NAMESPACES = Map.of(
			"bsbm-inst", "http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/instances/",
			"bsbm", "http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/vocabulary/",
			"bsbm-export", "http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/vocabulary/export/",
			"rdfs", "http://www.w3.org/2000/01/rdf-schema#",
			"rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
			"xsd", "http://www.w3.org/2001/XMLSchema#",
			"dc", "http://purl.org/dc/elements/1.1/",
			"rev", "http://purl.org/stuff/rev#",
			"foaf", "http://xmlns.com/foaf/0.1/");

	public static final List<QueryTemplate> ALL = List.of(
			q(1, "bsbm-inst bsbm rdfs rdf", "Products of a type with two features", """
					SELECT DISTINCT ?product ?label
					WHERE {
					  ?product rdfs:label ?label .
					  ?product a %ProductType% .
					  ?product bsbm:productFeature %ProductFeature1% .
					  ?product bsbm:productFeature %ProductFeature2% .
					  ?product bsbm:productPropertyNumeric1 ?value1 .
					  FILTER (?value1 > %x%)
					}
					ORDER BY ?label
					LIMIT 10
					"""),
			q(2, "bsbm-inst bsbm rdfs dc", "Details of a product", """
					SELECT ?label ?comment ?producer ?productFeature ?propertyTextual1 ?propertyTextual2 ?propertyTextual3
					       ?propertyNumeric1 ?propertyNumeric2 ?propertyTextual4 ?propertyTextual5 ?propertyNumeric4
					WHERE {
					  %ProductXYZ% rdfs:label ?label .
					  %ProductXYZ% rdfs:comment ?comment .
					  %ProductXYZ% bsbm:producer ?p .
					  ?p rdfs:label ?producer .
					  %ProductXYZ% dc:publisher ?p .
					  %ProductXYZ% bsbm:productFeature ?f .
					  ?f rdfs:label ?productFeature .
					  %ProductXYZ% bsbm:productPropertyTextual1 ?propertyTextual1 .
					  %ProductXYZ% bsbm:productPropertyTextual2 ?propertyTextual2 .
					  %ProductXYZ% bsbm:productPropertyTextual3 ?propertyTextual3 .
					  %ProductXYZ% bsbm:productPropertyNumeric1 ?propertyNumeric1 .
					  %ProductXYZ% bsbm:productPropertyNumeric2 ?propertyNumeric2 .
					  OPTIONAL { %ProductXYZ% bsbm:productPropertyTextual4 ?propertyTextual4 }
					  OPTIONAL { %ProductXYZ% bsbm:productPropertyTextual5 ?propertyTextual5 }
					  OPTIONAL { %ProductXYZ% bsbm:productPropertyNumeric4 ?propertyNumeric4 }
					}
					"""),
			q(3, "bsbm-inst bsbm rdfs rdf", "Products with one feature but not another", """
					SELECT ?product ?label
					WHERE {
					  ?product rdfs:label ?label .
					  ?product a %ProductType% .
					  ?product bsbm:productFeature %ProductFeature1% .
					  ?product bsbm:productPropertyNumeric1 ?p1 .
					  FILTER ( ?p1 > %x% )
					  ?product bsbm:productPropertyNumeric3 ?p3 .
					  FILTER (?p3 < %y% )
					  OPTIONAL {
					    ?product bsbm:productFeature %ProductFeature2% .
					    ?product rdfs:label ?testVar }
					  FILTER (!bound(?testVar))
					}
					ORDER BY ?label
					LIMIT 10
					"""),
			q(4, "bsbm-inst bsbm rdfs rdf", "Products matching two feature sets (UNION)", """
					SELECT DISTINCT ?product ?label ?propertyTextual
					WHERE {
					  {
					    ?product rdfs:label ?label .
					    ?product rdf:type %ProductType% .
					    ?product bsbm:productFeature %ProductFeature1% .
					    ?product bsbm:productFeature %ProductFeature2% .
					    ?product bsbm:productPropertyTextual1 ?propertyTextual .
					    ?product bsbm:productPropertyNumeric1 ?p1 .
					    FILTER ( ?p1 > %x% )
					  } UNION {
					    ?product rdfs:label ?label .
					    ?product rdf:type %ProductType% .
					    ?product bsbm:productFeature %ProductFeature1% .
					    ?product bsbm:productFeature %ProductFeature3% .
					    ?product bsbm:productPropertyTextual1 ?propertyTextual .
					    ?product bsbm:productPropertyNumeric2 ?p2 .
					    FILTER ( ?p2 > %y% )
					  }
					}
					ORDER BY ?label
					OFFSET 5
					LIMIT 10
					"""),
			q(5, "rdfs rdf bsbm", "Products similar to a product", """
					SELECT DISTINCT ?product ?productLabel
					WHERE {
					  ?product rdfs:label ?productLabel .
					  FILTER (%ProductXYZ% != ?product)
					  %ProductXYZ% bsbm:productFeature ?prodFeature .
					  ?product bsbm:productFeature ?prodFeature .
					  %ProductXYZ% bsbm:productPropertyNumeric1 ?origProperty1 .
					  ?product bsbm:productPropertyNumeric1 ?simProperty1 .
					  FILTER (?simProperty1 < (?origProperty1 + 120) && ?simProperty1 > (?origProperty1 - 120))
					  %ProductXYZ% bsbm:productPropertyNumeric2 ?origProperty2 .
					  ?product bsbm:productPropertyNumeric2 ?simProperty2 .
					  FILTER (?simProperty2 < (?origProperty2 + 170) && ?simProperty2 > (?origProperty2 - 170))
					}
					ORDER BY ?productLabel
					LIMIT 5
					"""),
			q(6, "rdfs rdf bsbm", "Products whose label contains a word (regex)", """
					SELECT ?product ?label
					WHERE {
					  ?product rdfs:label ?label .
					  ?product rdf:type bsbm:Product .
					  FILTER regex(?label, "%word1%")
					}
					"""),
			q(7, "rdfs rev foaf bsbm dc", "Offers and reviews of a product", """
					SELECT ?productLabel ?offer ?price ?vendor ?vendorTitle ?review ?revTitle
					       ?reviewer ?revName ?rating1 ?rating2
					WHERE {
					  %ProductXYZ% rdfs:label ?productLabel .
					  OPTIONAL {
					    ?offer bsbm:product %ProductXYZ% .
					    ?offer bsbm:price ?price .
					    ?offer bsbm:vendor ?vendor .
					    ?vendor rdfs:label ?vendorTitle .
					    ?vendor bsbm:country <http://downlode.org/rdf/iso-3166/countries#DE> .
					    ?offer dc:publisher ?vendor .
					    ?offer bsbm:validTo ?date .
					    FILTER (?date > %currentDate% )
					  }
					  OPTIONAL {
					    ?review bsbm:reviewFor %ProductXYZ% .
					    ?review rev:reviewer ?reviewer .
					    ?reviewer foaf:name ?revName .
					    ?review dc:title ?revTitle .
					    OPTIONAL { ?review bsbm:rating1 ?rating1 . }
					    OPTIONAL { ?review bsbm:rating2 ?rating2 . }
					  }
					}
					"""),
			q(8, "bsbm dc rev foaf", "Recent English reviews of a product", """
					SELECT ?title ?text ?reviewDate ?reviewer ?reviewerName ?rating1 ?rating2 ?rating3 ?rating4
					WHERE {
					  ?review bsbm:reviewFor %ProductXYZ% .
					  ?review dc:title ?title .
					  ?review rev:text ?text .
					  FILTER langMatches( lang(?text), "EN" )
					  ?review bsbm:reviewDate ?reviewDate .
					  ?review rev:reviewer ?reviewer .
					  ?reviewer foaf:name ?reviewerName .
					  OPTIONAL { ?review bsbm:rating1 ?rating1 . }
					  OPTIONAL { ?review bsbm:rating2 ?rating2 . }
					  OPTIONAL { ?review bsbm:rating3 ?rating3 . }
					  OPTIONAL { ?review bsbm:rating4 ?rating4 . }
					}
					ORDER BY DESC(?reviewDate)
					LIMIT 20
					"""),
			q(9, "rev", "Describe the reviewer of a review", """
					DESCRIBE ?x
					WHERE { %ReviewXYZ% rev:reviewer ?x }
					"""),
			q(10, "bsbm xsd dc", "Cheap fast-delivered US offers of a product", """
					SELECT DISTINCT ?offer ?price
					WHERE {
					  ?offer bsbm:product %ProductXYZ% .
					  ?offer bsbm:vendor ?vendor .
					  ?offer dc:publisher ?vendor .
					  ?vendor bsbm:country <http://downlode.org/rdf/iso-3166/countries#US> .
					  ?offer bsbm:deliveryDays ?deliveryDays .
					  FILTER (?deliveryDays <= 3)
					  ?offer bsbm:price ?price .
					  ?offer bsbm:validTo ?date .
					  FILTER (?date > %currentDate% )
					}
					ORDER BY xsd:double(str(?price))
					LIMIT 10
					"""),
			q(11, "", "Everything about an offer (UNION of both directions)", """
					SELECT ?property ?hasValue ?isValueOf
					WHERE {
					  { %OfferXYZ% ?property ?hasValue }
					  UNION
					  { ?isValueOf ?property %OfferXYZ% }
					}
					"""),
			q(12, "rdfs rev foaf bsbm bsbm-export dc", "Export an offer (CONSTRUCT)", """
					CONSTRUCT {
					  %OfferXYZ% bsbm-export:product ?productURI .
					  %OfferXYZ% bsbm-export:productlabel ?productlabel .
					  %OfferXYZ% bsbm-export:vendor ?vendorname .
					  %OfferXYZ% bsbm-export:vendorhomepage ?vendorhomepage .
					  %OfferXYZ% bsbm-export:offerURL ?offerURL .
					  %OfferXYZ% bsbm-export:price ?price .
					  %OfferXYZ% bsbm-export:deliveryDays ?deliveryDays .
					  %OfferXYZ% bsbm-export:validuntil ?validTo }
					WHERE {
					  %OfferXYZ% bsbm:product ?productURI .
					  ?productURI rdfs:label ?productlabel .
					  %OfferXYZ% bsbm:vendor ?vendorURI .
					  ?vendorURI rdfs:label ?vendorname .
					  ?vendorURI foaf:homepage ?vendorhomepage .
					  %OfferXYZ% bsbm:offerWebpage ?offerURL .
					  %OfferXYZ% bsbm:price ?price .
					  %OfferXYZ% bsbm:deliveryDays ?deliveryDays .
					  %OfferXYZ% bsbm:validTo ?validTo
					}
					"""));

	/**
	 * The Explore mix of the BSBM V3 test driver ({@code queries/explore/querymix.txt}): 25 queries,
	 * Q5 twice, Q6 not at all (V3 dropped it from the mix; it stays a template and is cross-checked).
	 */
	public static final List<Integer> FULL_MIX = List.of(1, 2, 2, 3, 2, 2, 4, 2, 2, 5, 7, 7, 5, 7, 7, 8, 9, 9, 8, 9,
			9, 10, 10, 11, 12);

	/** The full mix without Q5 (and Q6), as bigdata/Blazegraph reported BSBM: 23 queries. */
	public static final List<Integer> REDUCED_MIX = FULL_MIX.stream().filter(q -> q != 5 && q != 6).toList();

	public static final Map<String, List<Integer>> MIXES = Map.of("full", FULL_MIX, "reduced", REDUCED_MIX);

	private BsbmQueries() {
	}

	/** Query {@code number} with the prefix declarations named in {@code prefixes}, in that order. */
	private static QueryTemplate q(int number, String prefixes, String title, String body) {
		StringBuilder text = new StringBuilder();
		for (String prefix : prefixes.split(" ")) {
			if (!prefix.isEmpty()) {
				text.append("PREFIX ").append(prefix).append(": <").append(NAMESPACES.get(prefix)).append(">\n");
			}
		}
		return new QueryTemplate("Q" + number, title, text.append('\n').append(body).toString());
	}

	public static QueryTemplate byNumber(int number) {
		return ALL.get(number - 1);
	}
}
