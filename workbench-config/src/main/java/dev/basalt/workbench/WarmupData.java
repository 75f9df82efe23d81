package dev.basalt.workbench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the launcher's warm-up ({@link LauncherWarmup}) loads and asks: a small product catalogue (products with
 * types, features, numeric, text and date properties, producers, vendors with countries, offers with prices and
 * delivery days, every other price in a currency datatype of the catalogue's own, reviews in two languages with
 * optional ratings; about 20,000 triples, the same every time) and
 * the kinds of request a catalogue's clients send: joins with numeric and date filters, {@code OPTIONAL} with
 * {@code !bound}, {@code UNION}, {@code ORDER BY} with {@code LIMIT}/{@code OFFSET}, casts, language filters,
 * aggregates, {@code DESCRIBE}, {@code CONSTRUCT}, {@code ASK} and small updates, with SPARQL/XML, SPARQL/JSON,
 * RDF/XML and Turtle results. Its products' descriptions are as long as a catalogue's (up to about 1.5 KB, some
 * words with characters that are escaped or take several bytes in UTF-8), and one kind of query answers tens of
 * kilobytes, so the result writers' paths for long, repeated and non-ASCII texts and for responses larger than
 * their buffers are compiled as well.
 *
 * <p>Stateless and immutable: safe to share between threads.
 */
final class WarmupData {
    static final String NS = "http://basalt.dev/launcher-warmup/";
    static final int PRODUCTS = 300;
    static final int TYPES = 20;
    static final int FEATURES = 100;
    static final int PRODUCERS = 15;
    static final int VENDORS = 10;
    static final int COUNTRIES = 8;
    static final int OFFERS = 1500;
    static final int REVIEWERS = 100;
    static final int REVIEWS = 800;
    /**
     * The datatype of every other offer's price: a currency of the catalogue's own vocabulary, as catalogues write
     * prices, so that the lexicon's and the writers' paths for literals of a datatype outside XML Schema are compiled
     * with the others (a warm-up whose literals were all of XML Schema's types had that code recompiled by the first
     * answers with such a literal).
     */
    static final String CURRENCY = "EUR";
    private static final String XSD = "http://www.w3.org/2001/XMLSchema#";
    private static final String RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
    private static final String LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>";
    private static final String COMMENT = "<http://www.w3.org/2000/01/rdf-schema#comment>";
    private static final String SUBCLASS = "<http://www.w3.org/2000/01/rdf-schema#subClassOf>";
    /**
     * The prologue of every query: the catalogue's prefix and common vocabularies, several of them with names of one
     * length (as most queries' prologues have), so that a prefixed name's declaration is looked up past others.
     */
    private static final String PREFIXES = "PREFIX w: <" + NS + ">\n"
            + "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
            + "PREFIX xsd: <" + XSD + ">\n"
            + "PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>\n"
            + "PREFIX foaf: <http://xmlns.com/foaf/0.1/>\n";
    private static final String SELECT_ACCEPT = "application/sparql-results+xml";
    private static final String SELECT_OTHER = "application/sparql-results+json";
    private static final String GRAPH_ACCEPT = "application/rdf+xml";
    private static final String GRAPH_OTHER = "text/turtle";

    private WarmupData() {
    }

    /**
     * One kind of request: its text for a random choice of constants, whether it is an update, its formats. Every
     * other text spells the catalogue's names as full IRIs rather than prefixed names, as many clients do, and every
     * other text is laid out over several lines ({@link #laidOut}), as people and test drivers write queries, so that
     * the query text's lexer takes all these paths before the first client's query.
     */
    record Request(Function<Random, String> template, boolean update, String accept, String otherAccept) {
        String text(Random random) {
            String text = template.apply(random);
            text = random.nextBoolean() ? fullIris(text) : text;
            return random.nextBoolean() ? laidOut(text, random.nextBoolean()) : text;
        }
    }

    private static final Pattern PREFIXED = Pattern.compile("(?<![A-Za-z0-9_<:])w:([A-Za-z][A-Za-z0-9]*)");
    /** The catalogue's prefix where a laid-out text declares and uses it: a hyphenated name, as many vocabularies have. */
    static final String LAID_OUT_PREFIX = "w-cat";
    private static final Pattern PREFIX_NAME = Pattern.compile("(?<![A-Za-z0-9_<:-])w:");

    /**
     * {@code text} (written on one line but for its prologue) laid out as people and test drivers write queries: a
     * comment line first, each pattern and clause on its own line, indented by nesting with two spaces or
     * ({@code tabs}) a tab, and the catalogue's prefix named {@value #LAID_OUT_PREFIX}. What is inside string
     * literals is left as it is, so the query means the same.
     */
    static String laidOut(String text, boolean tabs) {
        String indentUnit = tabs ? "\t" : "  ";
        String renamed = PREFIX_NAME.matcher(text).replaceAll(LAID_OUT_PREFIX + ":");
        StringBuilder out = new StringBuilder(renamed.length() + 128).append("# launcher warm-up\n");
        int depth = 0;
        char quote = 0;
        for (int i = 0; i < renamed.length(); i++) {
            char c = renamed.charAt(i);
            char next = i + 1 < renamed.length() ? renamed.charAt(i + 1) : 0;
            if (quote != 0) {
                out.append(c);
                quote = c == quote ? 0 : quote;
            } else if (c == '"' || c == '\'') {
                out.append(c);
                quote = c;
            } else if (c == '{' && next == ' ') {
                depth++;
                out.append("{\n").append(indentUnit.repeat(depth));
                i++;
            } else if (c == ' ' && next == '}') {
                depth = Math.max(0, depth - 1);
                out.append('\n').append(indentUnit.repeat(depth));
            } else if (c == '.' && next == ' ' && i > 0 && renamed.charAt(i - 1) == ' ') {
                out.append(".\n").append(indentUnit.repeat(depth));
                i++;
            } else {
                out.append(c);
            }
        }
        return out.append('\n').toString();
    }

    /** {@code text} with each prefixed name {@code w:Name} written as the full IRI it stands for. */
    static String fullIris(String text) {
        return PREFIXED.matcher(text).replaceAll(m -> Matcher.quoteReplacement("<" + NS + m.group(1) + ">"));
    }

    /** The catalogue as N-Triples. */
    static String ntriples() {
        Random r = new Random(34);
        StringBuilder b = new StringBuilder(2_000_000);
        for (int t = 0; t < TYPES; t++) {
            triple(b, iri("Type" + t), RDF_TYPE, iri("ProductType"));
            triple(b, iri("Type" + t), LABEL, text("type " + t));
            if (t > 0) {
                triple(b, iri("Type" + t), SUBCLASS, iri("Type" + (t - 1) / 4));
            }
        }
        for (int f = 0; f < FEATURES; f++) {
            triple(b, iri("Feature" + f), LABEL, text("feature " + f));
        }
        for (int p = 0; p < PRODUCERS; p++) {
            triple(b, iri("Producer" + p), LABEL, text("producer " + p));
            triple(b, iri("Producer" + p), iri("country"), iri("Country" + p % COUNTRIES));
        }
        for (int v = 0; v < VENDORS; v++) {
            triple(b, iri("Vendor" + v), LABEL, text("vendor " + v));
            triple(b, iri("Vendor" + v), iri("country"), iri("Country" + r.nextInt(COUNTRIES)));
        }
        for (int i = 0; i < PRODUCTS; i++) {
            String p = iri("Product" + i);
            triple(b, p, RDF_TYPE, iri("Product"));
            triple(b, p, RDF_TYPE, iri("Type" + r.nextInt(TYPES)));
            triple(b, p, LABEL, text("product " + word(r) + " " + i));
            triple(b, p, COMMENT, text(words(r, 20 + r.nextInt(200))));
            triple(b, p, iri("producer"), iri("Producer" + r.nextInt(PRODUCERS)));
            for (int k = 0; k < 3 + r.nextInt(6); k++) {
                triple(b, p, iri("feature"), iri("Feature" + r.nextInt(FEATURES)));
            }
            for (int k = 1; k <= 3; k++) {
                triple(b, p, iri("num" + k), typed(Integer.toString(1 + r.nextInt(2000)), "integer"));
                if (k < 3 || r.nextBoolean()) {
                    triple(b, p, iri("text" + k), text(word(r) + " " + word(r)));
                }
            }
            triple(b, p, iri("date"), typed(date(r), "dateTime"));
        }
        for (int o = 0; o < OFFERS; o++) {
            String offer = iri("Offer" + o);
            triple(b, offer, RDF_TYPE, iri("Offer"));
            triple(b, offer, iri("product"), iri("Product" + r.nextInt(PRODUCTS)));
            triple(b, offer, iri("vendor"), iri("Vendor" + r.nextInt(VENDORS)));
            String price = (5 + r.nextInt(10_000)) + "." + r.nextInt(100);
            triple(b, offer, iri("price"), o % 2 == 0 ? typed(price, "double") : "\"" + price + "\"^^" + iri(CURRENCY));
            triple(b, offer, iri("validTo"), typed(date(r), "dateTime"));
            triple(b, offer, iri("deliveryDays"), typed(Integer.toString(1 + r.nextInt(7)), "integer"));
            triple(b, offer, iri("webpage"), iri("page/offer" + o));
        }
        for (int p = 0; p < REVIEWERS; p++) {
            triple(b, iri("Reviewer" + p), iri("name"), text("reviewer " + p));
            triple(b, iri("Reviewer" + p), iri("country"), iri("Country" + r.nextInt(COUNTRIES)));
            triple(b, iri("Reviewer" + p), iri("contact_sha1"), text(Integer.toHexString(r.nextInt()) + "0f1e2d3c"));
            triple(b, iri("Reviewer" + p), iri("joined"), typed(date(r).substring(0, 10), "date"));
        }
        for (int v = 0; v < REVIEWS; v++) {
            String review = iri("Review" + v);
            String lang = r.nextInt(4) == 0 ? "de" : "en";
            triple(b, review, RDF_TYPE, iri("Review"));
            triple(b, review, iri("reviewFor"), iri("Product" + r.nextInt(PRODUCTS)));
            triple(b, review, iri("reviewer"), iri("Reviewer" + r.nextInt(REVIEWERS)));
            triple(b, review, iri("title"), "\"" + word(r) + " " + word(r) + "\"@" + lang);
            triple(b, review, iri("text"), "\"" + words(r, 10 + r.nextInt(120)) + "\"@" + lang);
            triple(b, review, iri("reviewDate"), typed(date(r), "dateTime"));
            for (int k = 1; k <= 2; k++) {
                if (r.nextInt(3) > 0) {
                    triple(b, review, iri("rating" + k), typed(Integer.toString(1 + r.nextInt(10)), "integer"));
                }
            }
        }
        return b.toString();
    }

    /** The kinds of request the warm-up sends in turn, the update first. */
    static List<Request> queries() {
        return withMixedVocabularyGraphs(List.of(
                new Request(r -> {
                    int n = r.nextInt(50);
                    return PREFIXES + "DELETE WHERE { w:Extra" + n + " ?p ?o } ; INSERT DATA { w:Extra" + n
                            + " rdfs:label \"extra " + n + "\" ; w:num1 " + r.nextInt(2000) + " }";
                }, true, null, null),
                select(r -> "SELECT DISTINCT ?product ?label WHERE { ?product rdfs:label ?label ; a w:Type"
                        + r.nextInt(TYPES) + " ; w:feature w:Feature" + r.nextInt(FEATURES) + " ; w:num1 ?v . FILTER (?v > "
                        + r.nextInt(1000) + ") } ORDER BY ?label LIMIT 10"),
                select(r -> "SELECT ?label ?comment ?producer ?f ?t1 ?t3 ?n1 WHERE { w:Product" + r.nextInt(PRODUCTS)
                        + " rdfs:label ?label ; rdfs:comment ?comment ; w:producer ?p ; w:feature ?fi ; w:text1 ?t1 ; "
                        + "w:num1 ?n1 . ?p rdfs:label ?producer . ?fi rdfs:label ?f . OPTIONAL { w:Product"
                        + r.nextInt(PRODUCTS) + " w:text3 ?t3 } }"),
                select(r -> "SELECT ?product ?label WHERE { ?product rdfs:label ?label ; a w:Type" + r.nextInt(TYPES)
                        + " ; w:num1 ?p1 ; w:num3 ?p3 . FILTER (?p1 > " + r.nextInt(1000) + " && ?p3 < "
                        + (1000 + r.nextInt(1000)) + ") OPTIONAL { ?product w:feature w:Feature" + r.nextInt(FEATURES)
                        + " . ?product rdfs:label ?other } FILTER (!bound(?other)) } ORDER BY ?label LIMIT 10"),
                select(r -> "SELECT DISTINCT ?product ?label ?n WHERE { { ?product rdfs:label ?label ; a w:Type"
                        + r.nextInt(TYPES) + " ; w:num1 ?n . FILTER (?n > " + r.nextInt(1500) + ") } UNION { ?product "
                        + "rdfs:label ?label ; w:feature w:Feature" + r.nextInt(FEATURES) + " ; w:num2 ?n } } "
                        + "ORDER BY ?label OFFSET 5 LIMIT 10"),
                select(r -> "SELECT DISTINCT ?product ?label WHERE { ?product rdfs:label ?label ; w:feature ?f ; "
                        + "w:num1 ?a ; w:num2 ?b . w:Product" + r.nextInt(PRODUCTS) + " w:feature ?f ; w:num1 ?oa ; "
                        + "w:num2 ?ob . FILTER (?product != w:Product" + r.nextInt(PRODUCTS) + " && ?a < (?oa + 300) && "
                        + "?a > (?oa - 300) && ?b < (?ob + 400) && ?b > (?ob - 400)) } ORDER BY ?label LIMIT 5"),
                select(r -> "SELECT ?label ?offer ?price ?vendor ?review ?title ?r1 WHERE { w:Product"
                        + r.nextInt(PRODUCTS) + " rdfs:label ?label . OPTIONAL { ?offer w:product w:Product"
                        + r.nextInt(PRODUCTS) + " ; w:price ?price ; w:vendor ?v ; w:validTo ?to . ?v rdfs:label ?vendor "
                        + "; w:country w:Country" + r.nextInt(COUNTRIES) + " . FILTER (?to > \"2025-0" + (1 + r.nextInt(9))
                        + "-01T00:00:00\"^^xsd:dateTime) } OPTIONAL { ?review w:reviewFor w:Product" + r.nextInt(PRODUCTS)
                        + " ; w:title ?title . OPTIONAL { ?review w:rating1 ?r1 } } }"),
                select(r -> "SELECT ?title ?text ?date ?name ?r1 ?r2 WHERE { ?review w:reviewFor w:Product"
                        + r.nextInt(PRODUCTS) + " ; w:title ?title ; w:text ?text ; w:reviewDate ?date ; w:reviewer ?rv . "
                        + "?rv w:name ?name . FILTER langMatches(lang(?text), \"EN\") OPTIONAL { ?review w:rating1 ?r1 } "
                        + "OPTIONAL { ?review w:rating2 ?r2 } } ORDER BY DESC(?date) LIMIT 20"),
                graph(r -> "DESCRIBE ?x WHERE { w:Review" + r.nextInt(REVIEWS)
                        + (r.nextBoolean() ? " w:reviewer" : " w:reviewFor") + " ?x }"),
                select(r -> "SELECT DISTINCT ?offer ?price WHERE { ?offer w:product w:Product" + r.nextInt(PRODUCTS)
                        + " ; w:vendor ?v ; w:deliveryDays ?d ; w:price ?price ; w:validTo ?to . ?v w:country w:Country"
                        + r.nextInt(COUNTRIES) + " . FILTER (?d <= " + (1 + r.nextInt(6)) + " && ?to > \"2024-0"
                        + (1 + r.nextInt(9)) + "-01T00:00:00\"^^xsd:dateTime) } ORDER BY xsd:double(str(?price)) LIMIT 10"),
                select(r -> "SELECT ?property ?value ?of WHERE { { w:Offer" + r.nextInt(OFFERS) + " ?property ?value } "
                        + "UNION { ?of ?property w:Offer" + r.nextInt(OFFERS) + " } }"),
                graph(r -> "CONSTRUCT { w:Offer" + r.nextInt(OFFERS) + " w:product ?p ; w:price ?price ; w:vendor ?v . "
                        + "?v rdfs:label ?vl } WHERE { w:Offer" + r.nextInt(OFFERS) + " w:product ?p ; w:price ?price ; "
                        + "w:vendor ?v . ?v rdfs:label ?vl }"),
                select(r -> "SELECT ?product ?label ?comment WHERE { ?product a w:Product ; rdfs:label ?label ; "
                        + "rdfs:comment ?comment } ORDER BY ?label OFFSET " + r.nextInt(PRODUCTS - 40) + " LIMIT 40"),
                select(r -> "SELECT ?type (COUNT(?product) AS ?n) (AVG(?v) AS ?avg) WHERE { ?product a ?type ; w:num"
                        + (1 + r.nextInt(3)) + " ?v ; w:producer w:Producer" + r.nextInt(PRODUCERS) + " } GROUP BY ?type "
                        + "ORDER BY DESC(?n) LIMIT 5"),
                new Request(r -> PREFIXES + "ASK { ?offer w:product w:Product" + r.nextInt(PRODUCTS) + " ; w:deliveryDays "
                        + (1 + r.nextInt(7)) + " }", false, "application/sparql-results+xml", "text/boolean")));
    }

    /**
     * {@code kinds} and a CONSTRUCT whose answer is built as a catalogue's public answers are:
     * predicates and classes of several vocabularies (Dublin Core, FOAF, the review vocabulary, RDF), some declared in
     * the query's prologue and some not, blank nodes, and literals with language tags, datatypes and none, so that
     * the RDF/XML writer's code for each of these compiles in the warm-up (a warm-up whose answers used one declared
     * namespace had its compiled code thrown away by the first answers of other shapes).
     */
    private static List<Request> withMixedVocabularyGraphs(List<Request> kinds) {
        List<Request> all = new ArrayList<>(kinds);
        all.add(new Request(r -> "PREFIX rev: <http://purl.org/stuff/rev#>\n" + PREFIXES + "CONSTRUCT { ?review "
                + "rdf:type rev:Review ; <http://purl.org/dc/elements/1.1/title> ?title ; rev:text ?text ; "
                + "rev:reviewer ?reviewer ; <http://purl.org/dc/elements/1.1/date> ?date ; rev:rating ?rating . "
                + "?reviewer a foaf:Person ; foaf:name ?name ; <http://purl.org/stuff/rev#joined> ?joined ; "
                + "<http://example.org/vocabulary/country> ?country ; rev:hasReview _:entry . _:entry rev:of ?review } "
                + "WHERE { ?review w:reviewFor w:Product" + r.nextInt(PRODUCTS) + " ; w:title ?title ; w:text ?text ; "
                + "w:reviewer ?reviewer ; w:reviewDate ?date . ?reviewer w:name ?name ; w:joined ?joined ; "
                + "w:country ?country . OPTIONAL { ?review w:rating1 ?rating } }", false, GRAPH_ACCEPT, GRAPH_OTHER));
        return List.copyOf(all);
    }

    private static Request select(Function<Random, String> body) {
        return new Request(r -> PREFIXES + body.apply(r), false, SELECT_ACCEPT, SELECT_OTHER);
    }

    private static Request graph(Function<Random, String> body) {
        return new Request(r -> PREFIXES + body.apply(r), false, GRAPH_ACCEPT, GRAPH_OTHER);
    }

    /** Words of the catalogue's texts: ASCII, and some with characters that are escaped or take 2-4 bytes in UTF-8. */
    private static final String[] WORDS = { "alpha", "bright", "copper", "delta", "ember", "fjord", "granite",
            "harbor", "indigo", "juniper", "kestrel", "lumen", "meadow", "nickel", "onyx", "prairie", "caf\u00e9",
            "\u00dcberblick", "R&D", "x<y>z", "\u6771\u4eac", "\uD834\uDD1Eclef" };

    private static String word(Random r) {
        return WORDS[r.nextInt(WORDS.length)];
    }

    /** {@code n} words separated by spaces: a description as long as a catalogue's (BSBM's comments: about 1 KB). */
    private static String words(Random r, int n) {
        StringBuilder b = new StringBuilder(8 * n);
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : " ").append(word(r));
        }
        return b.toString();
    }

    private static String date(Random r) {
        return String.format("20%02d-%02d-%02dT%02d:00:00", 20 + r.nextInt(8), 1 + r.nextInt(12), 1 + r.nextInt(28),
                r.nextInt(24));
    }

    private static String iri(String local) {
        return "<" + NS + local + ">";
    }

    private static String text(String s) {
        return "\"" + s + "\"";
    }

    private static String typed(String lexical, String xsdType) {
        return "\"" + lexical + "\"^^<" + XSD + xsdType + ">";
    }

    private static void triple(StringBuilder b, String s, String p, String o) {
        b.append(s).append(' ').append(p).append(' ').append(o).append(" .\n");
    }
}
