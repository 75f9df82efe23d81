package dev.basalt.federation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A BSBM-shaped data set small enough for a unit test: products with types, features, producers
 * and numeric properties; offers by vendors; reviews by persons with optional ratings; and a few
 * statements in named graphs (N-Quads). Subjects of one join are spread over the shards, so the
 * queries exercise both star joins on one member and joins across members.
 */
final class TinyShop {
    static final String EX = "http://example.org/shop/";
    static final String PREFIXES = """
            PREFIX ex: <http://example.org/shop/>
            PREFIX bsbm: <http://example.org/shop/vocabulary/>
            PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
            PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
            """;
    private static final String V = "<" + EX + "vocabulary/";
    private static final String TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
    private static final String LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>";

    private TinyShop() {
    }

    /** Writes shop.nt and graphs.nq into {@code dir} and returns them. */
    static List<Path> write(Path dir) throws IOException {
        StringBuilder nt = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            String p = iri("product" + i);
            line(nt, p, TYPE, V + "Product>");
            line(nt, p, TYPE, iri("ProductType" + (i % 3)));
            line(nt, p, LABEL, "\"Product " + i + "\"");
            line(nt, p, V + "producer>", iri("producer" + (i % 5)));
            line(nt, p, V + "productFeature>", iri("feature" + (i % 4)));
            line(nt, p, V + "productFeature>", iri("feature" + (4 + i % 7)));
            line(nt, p, V + "numeric1>", "\"" + (i * 37 % 100) + "\"^^<http://www.w3.org/2001/XMLSchema#integer>");
            if (i % 2 == 0) {
                line(nt, p, V + "textual1>", "\"text of " + i + "\"@en");
            }
        }
        for (int k = 0; k < 5; k++) {
            line(nt, iri("producer" + k), LABEL, "\"Producer " + k + "\"");
            line(nt, iri("producer" + k), V + "country>", iri("country" + (k % 2)));
        }
        for (int v = 0; v < 4; v++) {
            line(nt, iri("vendor" + v), TYPE, V + "Vendor>");
            line(nt, iri("vendor" + v), LABEL, "\"Vendor " + v + "\"");
            line(nt, iri("vendor" + v), V + "country>", iri("country" + (v % 2)));
        }
        for (int o = 0; o < 180; o++) {
            String offer = iri("offer" + o);
            line(nt, offer, V + "product>", iri("product" + (o % 60)));
            line(nt, offer, V + "vendor>", iri("vendor" + (o % 4)));
            line(nt, offer, V + "price>", "\"" + (100 + o * 13 % 900) + "." + (o % 100 < 10 ? "0" : "") + (o % 100)
                    + "\"^^<http://www.w3.org/2001/XMLSchema#decimal>");
        }
        for (int r = 0; r < 120; r++) {
            String review = iri("review" + r);
            line(nt, review, V + "reviewFor>", iri("product" + (r % 60)));
            line(nt, review, V + "reviewer>", iri("person" + (r % 12)));
            line(nt, review, V + "title>", "\"Review " + r + "\"@en");
            if (r % 3 != 0) {
                line(nt, review, V + "rating1>", "\"" + (r % 10) + "\"^^<http://www.w3.org/2001/XMLSchema#integer>");
            }
        }
        for (int p = 0; p < 12; p++) {
            line(nt, iri("person" + p), V + "name>", "\"Person " + p + "\"");
        }
        StringBuilder nq = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            nq.append(iri("product" + i)).append(' ').append(V).append("tag> \"tag").append(i % 3).append("\" ")
                    .append(iri("graph" + (i % 2))).append(" .\n");
        }
        Path triples = dir.resolve("shop.nt");
        Path quads = dir.resolve("graphs.nq");
        Files.writeString(triples, nt);
        Files.writeString(quads, nq);
        return List.of(triples, quads);
    }

    /** BSBM-like queries; the answers are compared as sorted solution sets. */
    static List<String> queries() {
        return List.of(
                // explore Q1: type, features, numeric filter (a star on one subject)
                """
                SELECT DISTINCT ?product ?label WHERE {
                  ?product rdfs:label ?label ; a ex:ProductType1 ; bsbm:productFeature ex:feature5 ;
                           bsbm:numeric1 ?n . FILTER (?n > 20) }""",
                // explore Q2: one product's details with its producer (across shards) and an OPTIONAL
                """
                SELECT ?label ?producerLabel ?feature ?text WHERE {
                  ex:product6 rdfs:label ?label ; bsbm:producer ?p ; bsbm:productFeature ?feature .
                  ?p rdfs:label ?producerLabel .
                  OPTIONAL { ex:product6 bsbm:textual1 ?text } }""",
                // explore Q8-like: reviews of a product with optional ratings and the reviewer's name
                """
                SELECT ?review ?title ?name ?rating WHERE {
                  ?review bsbm:reviewFor ex:product7 ; bsbm:title ?title ; bsbm:reviewer ?person .
                  ?person bsbm:name ?name .
                  OPTIONAL { ?review bsbm:rating1 ?rating } }""",
                // explore Q7-like: offers of a product from vendors of one country (three subjects)
                """
                SELECT ?offer ?price ?vendorLabel WHERE {
                  ?offer bsbm:product ?product ; bsbm:vendor ?vendor ; bsbm:price ?price .
                  ?product a ex:ProductType2 .
                  ?vendor rdfs:label ?vendorLabel ; bsbm:country ex:country1 .
                  FILTER (?price < 600) }""",
                // aggregate over all shards
                """
                SELECT ?producer (COUNT(?product) AS ?n) (AVG(?num) AS ?avg) WHERE {
                  ?product bsbm:producer ?producer ; bsbm:numeric1 ?num } GROUP BY ?producer""",
                // UNION with a regex FILTER
                """
                SELECT ?x ?label WHERE {
                  { ?x a bsbm:Product } UNION { ?x a bsbm:Vendor }
                  ?x rdfs:label ?label FILTER (regex(?label, "1")) }""",
                // the same pattern twice (BSBM Q1 when its two feature parameters are equal)
                """
                SELECT DISTINCT ?product ?label WHERE {
                  ?product rdfs:label ?label ; bsbm:productFeature ex:feature5 ; bsbm:productFeature ex:feature5 ;
                           a ex:ProductType1 } ORDER BY ?label LIMIT 10""",
                // explore Q3: an OPTIONAL used as negation with FILTER(!bound(...))
                """
                SELECT ?product ?label WHERE {
                  ?product rdfs:label ?label ; a ex:ProductType1 ; bsbm:numeric1 ?n . FILTER (?n > 10)
                  OPTIONAL { ?product bsbm:productFeature ex:feature5 . ?product rdfs:label ?testVar }
                  FILTER (!bound(?testVar)) }""",
                // explore Q7: two OPTIONALs side by side, one holding a nested OPTIONAL, all across shards
                """
                SELECT ?label ?offer ?price ?vendor ?review ?name ?rating WHERE {
                  ex:product7 rdfs:label ?label .
                  OPTIONAL { ?offer bsbm:product ex:product7 ; bsbm:vendor ?vendor ; bsbm:price ?price .
                             ?vendor bsbm:country ex:country1 . FILTER (?price > 500) }
                  OPTIONAL { ?review bsbm:reviewFor ex:product7 ; bsbm:reviewer ?person . ?person bsbm:name ?name .
                             OPTIONAL { ?review bsbm:rating1 ?rating } } }""",
                // named graphs spread over the shards
                """
                SELECT ?g ?product ?tag WHERE { GRAPH ?g { ?product bsbm:tag ?tag } }""",
                // a join on a value (not a subject) between two shards' subjects, with MINUS
                """
                SELECT ?a ?b WHERE {
                  ?a bsbm:producer ?p . ?b bsbm:producer ?p . ?a bsbm:numeric1 ?n .
                  FILTER (?n = 11) MINUS { ?b a ex:ProductType0 } }""",
                // stars with filters inside and outside, an OPTIONAL with its own filter, a join on a subject
                """
                SELECT ?review ?title ?product ?n ?rating WHERE {
                  ?review bsbm:reviewFor ?product ; bsbm:title ?title . FILTER (langMatches(lang(?title), "en"))
                  ?product bsbm:numeric1 ?n ; rdfs:label ?label . FILTER (?n < 40 && regex(?label, "Product"))
                  OPTIONAL { ?review bsbm:rating1 ?rating FILTER (?rating > 4) }
                  FILTER (?n != 3 || bound(?rating)) }""",
                // a constant subject with OPTIONALs, joined to a star bound on its subject
                """
                SELECT ?label ?text ?country WHERE {
                  ex:product8 rdfs:label ?label ; bsbm:producer ?producer .
                  OPTIONAL { ex:product8 bsbm:textual1 ?text }
                  OPTIONAL { ex:product8 bsbm:numeric9 ?never }
                  ?producer bsbm:country ?country ; rdfs:label ?producerLabel . FILTER (!bound(?never)) }""");
    }

    private static String iri(String local) {
        return "<" + EX + local + ">";
    }

    private static void line(StringBuilder out, String s, String p, String o) {
        out.append(s).append(' ').append(p).append(' ').append(o).append(" .\n");
    }
}
