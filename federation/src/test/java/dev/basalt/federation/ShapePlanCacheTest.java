package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.util.Values;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.federated.structures.QueryInfo;
import org.eclipse.rdf4j.rio.helpers.NTriplesUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link ShapePlanCache} through {@link PreparedQueries}: every query of a known shape gets exactly the plan the
 * planner makes of its own parse (the same tree, stars' SPARQL, routes and member LIMIT), whether its plan was a
 * kept plan filled with its constants or planned in full; a kept plan is never used for a query whose plan
 * differs (another shape, other equalities between constants, a constant the planner treats apart).
 */
class ShapePlanCacheTest {
    private static final String PREFIXES = """
            PREFIX ex: <http://example.org/shop/>
            PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
            PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
            PREFIX owl: <http://www.w3.org/2002/07/owl#>
            """;
    private static ExecutorService pool;
    private static StarEvaluator stars;

    @BeforeAll
    static void stars() {
        pool = Executors.newSingleThreadExecutor();
        List<MemberSource> none = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String name = "shard-" + i;
            none.add(new MemberSource() {
                @Override
                public String name() {
                    return name;
                }

                @Override
                public List<BindingSet> select(String query, QueryInfo info, long timeoutMillis) {
                    throw new AssertionError("plans only: no member is asked");
                }
            });
        }
        stars = new StarEvaluator(pool, 4, ReplicatedVocabulary.schema(), none);
        stars.setReplicatedRange(Set.of("http://example.org/shop/vendor"));
    }

    @AfterAll
    static void close() {
        pool.shutdownNow();
    }

    private static PreparedQueries prepared() {
        return new PreparedQueries(query -> DirectEvaluation.plan(query, stars),
                StarPushdown.decidesOn(stars.replication(), stars::replicatedRange), 64);
    }

    /** Q3's shape: one star with filters, an OPTIONAL part, ORDER BY and LIMIT sent to the members. */
    private static String q3(int type, int feature1, int feature2, int x, int y) {
        return PREFIXES + """
                SELECT ?product ?label WHERE {
                  ?product rdfs:label ?label .
                  ?product a ex:ProductType%d .
                  ?product ex:productFeature ex:ProductFeature%d .
                  ?product ex:numeric1 ?p1 . FILTER ( ?p1 > %d )
                  ?product ex:numeric3 ?p3 . FILTER ( ?p3 < %d )
                  OPTIONAL { ?product ex:productFeature ex:ProductFeature%d . ?product rdfs:label ?testVar }
                  FILTER (!bound(?testVar))
                } ORDER BY ?label LIMIT 10""".formatted(type, feature1, x, y, feature2);
    }

    /** Q2's shape: one constant subject written many times, joined with the producer's star. */
    private static String q2(String product) {
        return PREFIXES + """
                SELECT ?label ?comment ?producer WHERE {
                  ex:%1$s rdfs:label ?label . ex:%1$s rdfs:comment ?comment .
                  ex:%1$s ex:producer ?p . ?p rdfs:label ?producer .
                  OPTIONAL { ex:%1$s ex:textual4 ?t4 } }""".formatted(product);
    }

    @Test
    void everyQueryOfAShapeGetsItsOwnPlan() {
        PreparedQueries prepared = prepared();
        List<String> queries = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            queries.add(q3(i + 1, 10 + i, 20 + i, 100 * i, 7 + i));
            queries.add(q2("product" + (i * 37)));
        }
        queries.add(q3(3, 15, 15, 5, 6)); // both features equal: another pattern of equal constants
        queries.add(q3(4, 16, 16, 8, 9));
        for (String query : queries) {
            assertSamePlan(query, prepared.prepare(query).planCopy());
        }
        assertTrue(prepared.shapePlanHits() >= 8, "most queries filled a kept plan: " + prepared.shapePlanHits());
        TupleExpr plan = prepared.prepare(q3(9, 1, 2, 3, 4)).planCopy();
        StarGroup star = StarGroup.in(plan).get(0);
        assertTrue(star.body().contains("<http://example.org/shop/ProductFeature1>")
                && star.body().contains("<http://example.org/shop/ProductFeature2>")
                && star.body().contains("\"3\"^^<" + XSD.INTEGER.stringValue() + ">"), star.body());
        assertTrue(star.memberRows() == 10 && star.memberOrder().equals("ASC(?label)"), star.getSignature());
        assertTrue(!star.body().contains("x-basalt-slot") && !plan.toString().contains("x-basalt-slot"), plan.toString());
    }

    @Test
    void aConstantSubjectKeepsItsOwnerAndEqualConstantsMakeOneStar() {
        PreparedQueries prepared = prepared();
        String twoSubjects = PREFIXES + "SELECT * WHERE { ex:a rdfs:label ?l . ex:b ex:price ?p }";
        String oneSubject = PREFIXES + "SELECT * WHERE { ex:c rdfs:label ?l . ex:c ex:price ?p }";
        String twoAgain = PREFIXES + "SELECT * WHERE { ex:d rdfs:label ?l . ex:e ex:price ?p }";
        prepared.prepare(twoSubjects);
        assertEquals(1, StarGroup.in(assertSamePlan(oneSubject, prepared.prepare(oneSubject).planCopy())).size());
        TupleExpr two = assertSamePlan(twoAgain, prepared.prepare(twoAgain).planCopy());
        assertEquals(2, StarGroup.in(two).size());
        for (StarGroup star : StarGroup.in(two)) {
            assertTrue(star.subjectValue().stringValue().endsWith("/d") || star.subjectValue().stringValue().endsWith("/e"));
            assertEquals(stars.ownerOf(star.subjectValue().stringValue()), stars.routeAlone(star).get(0));
        }
    }

    @Test
    void aConstantThePlannerTreatsApartIsPartOfTheKey() {
        PreparedQueries prepared = prepared();
        // owl:Class is a replicated class: its star goes to one member; ex:Product's to every member
        String replicated = PREFIXES + "SELECT * WHERE { ?c a owl:Class ; rdfs:label ?l }";
        String plain = PREFIXES + "SELECT * WHERE { ?c a ex:Product ; rdfs:label ?l }";
        String plainAgain = PREFIXES + "SELECT * WHERE { ?c a ex:Offer ; rdfs:label ?l }";
        String replicatedAgain = PREFIXES + "SELECT * WHERE { ?c a owl:Restriction ; rdfs:label ?l }";
        for (String query : List.of(replicated, plain, plainAgain, replicatedAgain, plain)) {
            TupleExpr plan = assertSamePlan(query, prepared.prepare(query).planCopy());
            boolean one = query.contains("a owl:");
            assertEquals(one, StarGroup.in(plan).get(0).replicated(), query);
        }
        // a predicate whose objects are replicated subjects joins the vendor's star into the offer's
        String joined = PREFIXES + "SELECT * WHERE { ?o <http://example.org/shop/vendor> ?v . ?v rdfs:label ?n }";
        String apart = PREFIXES + "SELECT * WHERE { ?o <http://example.org/shop/product> ?v . ?v rdfs:label ?n }";
        prepared.prepare(joined);
        assertEquals(2, StarGroup.in(assertSamePlan(apart, prepared.prepare(apart).planCopy())).size());
        assertEquals(1, StarGroup.in(assertSamePlan(joined, prepared.prepare(joined + " ").planCopy())).size());
    }

    @Test
    void anotherShapeNeverGetsAKeptPlan() {
        PreparedQueries prepared = prepared();
        String greater = PREFIXES + "SELECT * WHERE { ?s ex:price ?p FILTER (?p > 5) }";
        String less = PREFIXES + "SELECT * WHERE { ?s ex:price ?p FILTER (?p < 6) }";
        String greaterAgain = PREFIXES + "SELECT * WHERE { ?s ex:price ?p FILTER (?p > 7) }";
        for (String query : List.of(greater, less, greaterAgain, less.replace("6", "8"))) {
            assertSamePlan(query, prepared.prepare(query).planCopy());
        }
        // FedX answers a query with a path: the shape's kept answer is "no plan"
        String path = PREFIXES + "SELECT * WHERE { ex:a ex:next+ ?x }";
        prepared.prepare(path);
        assertNull(prepared.prepare(path.replace("ex:a", "ex:b")).planCopy());
    }

    @Test
    void constructDescribeAndAskShapesGetTheirOwnPlans() {
        // a CONSTRUCT template binds its constants in extensions named after their values: renamed when filled
        PreparedQueries prepared = prepared();
        long before = prepared.shapePlanHits();
        for (int i = 0; i < 4; i++) {
            String construct = PREFIXES + """
                    CONSTRUCT { ex:offer%1$d ex:price ?price . ex:offer%1$d ex:vendor ?v . ?v rdfs:label ?l }
                    WHERE { ex:offer%1$d ex:price ?price ; ex:vendor ?v . ?v rdfs:label ?l }""".formatted(i);
            String describe = PREFIXES + "DESCRIBE ex:review" + i;
            String ask = PREFIXES + "ASK { ?s ex:price ?p FILTER (?p > " + (10 * i) + ") }";
            for (String query : List.of(construct, describe, ask)) {
                assertSamePlan(query, prepared.prepare(query).planCopy());
            }
        }
        // the 3rd and 4th CONSTRUCT and ASK (the 1st of a shape is parsed, the 2nd makes the kept plan); the front
        // door keeps no template of a DESCRIBE shape (the parser names its projection anew each time), so each
        // DESCRIBE is parsed and planned
        assertEquals(4, prepared.shapePlanHits() - before);
    }

    @Test
    void starTextIsTheWriterOfNTriples() throws Exception {
        List<Value> values = List.of(Values.iri("http://example.org/a"), org.eclipse.rdf4j.model.impl.SimpleValueFactory.getInstance().createIRI("http://example.org/a b"),
                Values.iri("http://example.org/é"), Values.literal("plain"), Values.literal("with \"quote\""),
                Values.literal("tab\there"), Values.literal("été"), Values.literal(42), Values.literal(4.5),
                Values.literal("x", "en"), Values.literal("5", Values.iri("http://example.org/dt")),
                Values.literal("back\\slash"));
        for (Value value : values) {
            assertEquals(NTriplesUtil.toNTriplesString(value), SparqlText.value(value), value.toString());
        }
        IRI type = Values.iri(ReplicatedVocabulary.TYPE);
        assertTrue(StarPushdown.decidesOn(stars.replication(), stars::replicatedRange).test(type));
    }

    /**
     * The front's plans without shape plans: each text planned from its parse (the front door's, by shape
     * after the first query of a shape, as the front gives it).
     */
    private final PreparedQueries reference = new PreparedQueries(query -> DirectEvaluation.plan(query, stars), 64);

    /** Asserts that {@code plan} is the plan the front makes of {@code query}'s own parse, and returns it. */
    private TupleExpr assertSamePlan(String query, TupleExpr plan) {
        TupleExpr own = reference.prepare(query).planCopy();
        if (own == null) {
            assertNull(plan, query);
            return null;
        }
        assertNotNull(plan, query);
        // the parser names a DESCRIBE's projection anew in every parse (and the two fronts parse each shape once)
        assertEquals(ShapePlanCache.canonical(own).replaceAll("_describe_\\w+", "_describe_"),
                ShapePlanCache.canonical(plan).replaceAll("_describe_\\w+", "_describe_"), query);
        List<StarGroup> mine = StarGroup.in(plan);
        List<StarGroup> theirs = StarGroup.in(own);
        for (int i = 0; i < mine.size(); i++) {
            assertEquals(theirs.get(i).body(), mine.get(i).body(), query);
            assertEquals(theirs.get(i).subjectValue(), mine.get(i).subjectValue(), query);
            assertEquals(theirs.get(i).replicated(), mine.get(i).replicated(), query);
            assertEquals(theirs.get(i).getBindingNames(), mine.get(i).getBindingNames(), query);
            assertEquals(theirs.get(i).memberRows(), mine.get(i).memberRows(), query);
        }
        return plan;
    }
}
