package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.federated.structures.QueryInfo;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.util.Values;
import org.eclipse.rdf4j.model.vocabulary.RDFS;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.parser.QueryParserUtil;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.rio.helpers.NTriplesUtil;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LIMIT and OFFSET sent to the members ({@link MemberLimit}), in process: TinyShop over two in-memory
 * members that refuse, as {@code --max-member-rows} does, to answer more than {@value #MAX_ROWS} rows.
 * Queries over one star with LIMIT, OFFSET and ORDER BY answer as one store does although the star's
 * whole answer is larger than a member may send; a member whose cut answer holds too few rows of
 * subjects it owns is asked again; shapes where a member's cut answer could change the result keep
 * the whole answer.
 */
class MemberLimitTest {
    static final int MAX_ROWS = 200;

    @TempDir
    static Path dir;

    static SailRepository reference;
    static final List<SailRepository> members = new ArrayList<>();
    static final List<AtomicInteger> requests = List.of(new AtomicInteger(), new AtomicInteger());
    static ExecutorService pool;
    static StarEvaluator stars;

    @BeforeAll
    static void load() throws Exception {
        reference = new SailRepository(new MemoryStore());
        SubjectHashPartition partition = new SubjectHashPartition(2);
        List<MemberSource> sources = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            SailRepository member = new SailRepository(new MemoryStore());
            member.init();
            members.add(member);
            sources.add(new Capped("shard-" + i, member, requests.get(i), i == 0)); // shard 0 sent, then read
        }
        try (RepositoryConnection all = reference.getConnection()) {
            for (Path file : TinyShop.write(dir)) {
                RDFFormat format = file.toString().endsWith(".nq") ? RDFFormat.NQUADS : RDFFormat.NTRIPLES;
                for (Statement st : Rio.parse(Files.newInputStream(file), "", format)) {
                    if (st.getContext() != null) {
                        continue; // default graph only: the stars read it
                    }
                    all.add(st);
                    try (RepositoryConnection c = members.get(partition.shardOf(st.getSubject().stringValue()))
                            .getConnection()) {
                        c.add(st);
                        if (st.getSubject().stringValue().contains("/product") && st.getPredicate().equals(RDFS.LABEL)
                                && partition.shardOf(st.getSubject().stringValue()) == 1) {
                            // shard 0 also holds a label of each of shard 1's products that shard 1 does not: a
                            // member answers for subjects it does not own (replicated subjects, derived
                            // statements, a star's OPTIONAL that another member's statements would fill),
                            // and the front drops those rows
                            try (RepositoryConnection copy = members.get(0).getConnection()) {
                                copy.add(st.getSubject(), RDFS.LABEL, Values.literal("A copy of " + st.getObject()
                                        .stringValue()));
                            }
                        }
                    }
                }
            }
        }
        pool = Executors.newFixedThreadPool(4);
        stars = new StarEvaluator(pool, 4, ReplicatedVocabulary.schema(), sources);
        stars.setFirstAskRows(1); // each member asked for exactly LIMIT + OFFSET rows first
    }

    @AfterAll
    static void close() {
        pool.shutdownNow();
        members.forEach(SailRepository::shutDown);
        reference.shutDown();
    }

    @Test
    void withoutALimitTheStarIsTooLargeForTheMembers() {
        TupleExpr plan = plan("SELECT * WHERE { ?s ?p ?o }");
        assertEquals(-1, star(plan).memberRows());
        assertThrows(ResultWriter.TooLarge.class, () -> ordered(plan));
    }

    @Test
    void aLimitOverTheWholeDataAnswers() {
        List<String> all = unordered("SELECT * WHERE { ?s ?p ?o }");
        assertTrue(all.size() > 3 * MAX_ROWS, all.size() + " statements");
        for (String query : List.of("SELECT * WHERE { ?s ?p ?o } LIMIT 1", "SELECT ?s ?o WHERE { ?s ?p ?o } LIMIT 7 OFFSET 5",
                "SELECT * WHERE { ?s ?p ?o } OFFSET 30 LIMIT 10")) {
            TupleExpr plan = plan(query);
            assertTrue(star(plan).memberRows() > 0, query);
            List<String> got = ordered(plan);
            List<String> want = ordered(reference, query);
            assertEquals(want.size(), got.size(), query);
            assertEquals(got.size(), new java.util.HashSet<>(got).size(), "no solution twice: " + query);
            List<String> allProjected = unordered(query.replaceAll("(LIMIT|OFFSET) \\d+", ""));
            assertTrue(allProjected.containsAll(got), "solutions of the query: " + query);
        }
    }

    @Test
    void orderedSlicesAnswerLikeOneStore() {
        for (String query : List.of(
                "SELECT ?p ?l WHERE { ?p rdfs:label ?l } ORDER BY ?l LIMIT 5",
                "SELECT ?p ?l WHERE { ?p rdfs:label ?l } ORDER BY DESC(?l) LIMIT 4 OFFSET 9",
                "SELECT ?o ?price WHERE { ?o bsbm:price ?price ; bsbm:vendor ex:vendor2 } ORDER BY ?price ?o OFFSET 3 LIMIT 6",
                "SELECT ?p ?n WHERE { ?p bsbm:numeric1 ?n OPTIONAL { ?p bsbm:textual1 ?t } FILTER (!bound(?t)) }"
                        + " ORDER BY DESC(?n) ?p LIMIT 5",
                "SELECT ?p ?half WHERE { ?p bsbm:numeric1 ?n BIND (?n / 2 AS ?half) } ORDER BY ?n ?p LIMIT 3")) {
            TupleExpr plan = plan(query);
            StarGroup star = star(plan);
            assertTrue(star.memberRows() > 0 && !star.memberOrder().isEmpty(), star.getSignature());
            List<String> want = ordered(reference, query);
            assertFalse(want.isEmpty(), query);
            assertEquals(want, ordered(plan), query);
        }
    }

    @Test
    void aMemberWhoseCutAnswerHoldsTooFewOwnedRowsIsAskedAgain() {
        // shard 0's first three labels are copies of shard 1's products', which the front drops
        String query = "SELECT ?p ?l WHERE { ?p rdfs:label ?l } ORDER BY ?l LIMIT 3";
        SubjectHashPartition partition = new SubjectHashPartition(2);
        List<String> firstThree = new ArrayList<>();
        try (RepositoryConnection c = members.get(0).getConnection();
                TupleQueryResult rows = c.prepareTupleQuery(TinyShop.PREFIXES + query).evaluate()) {
            rows.forEach(row -> firstThree.add(row.getValue("p").stringValue()));
        }
        assertTrue(firstThree.stream().allMatch(p -> partition.shardOf(p) == 1), "shard 0's first rows: " + firstThree);
        int before = requests.get(0).get();
        assertEquals(ordered(reference, query), ordered(plan(query)));
        assertTrue(requests.get(0).get() - before >= 2, "shard 0 was asked again");
    }

    @Test
    void slicesOverOtherShapesKeepTheWholeAnswer() {
        for (String query : List.of(
                "SELECT DISTINCT ?f WHERE { ?p bsbm:productFeature ?f } ORDER BY ?f LIMIT 3",
                "SELECT ?p ?l WHERE { ?p rdfs:label ?l ; bsbm:producer ?k . ?k rdfs:label ?kl } ORDER BY ?p LIMIT 3",
                "SELECT ?p (STR(?l) AS ?s) WHERE { ?p rdfs:label ?l } ORDER BY ?s ?p LIMIT 3",
                "SELECT ?k (COUNT(?p) AS ?n) WHERE { ?p bsbm:producer ?k } GROUP BY ?k ORDER BY ?k LIMIT 2")) {
            TupleExpr plan = plan(query);
            assertNotNull(plan, query);
            for (StarGroup star : StarGroup.in(plan)) {
                assertEquals(-1, star.memberRows(), query + ": " + star.getSignature());
            }
            assertEquals(unordered(reference, query), sorted(ordered(plan)), query);
        }
    }

    private static TupleExpr plan(String query) {
        TupleExpr plan = DirectEvaluation.plan(QueryParserUtil.parseQuery(QueryLanguage.SPARQL, TinyShop.PREFIXES + query,
                null), stars);
        assertNotNull(plan, query);
        return plan;
    }

    private static StarGroup star(TupleExpr plan) {
        List<StarGroup> found = StarGroup.in(plan);
        assertEquals(1, found.size(), plan.toString());
        return found.get(0);
    }

    /** The front's answer, in its order. */
    private static List<String> ordered(TupleExpr plan) {
        FrontQuery query = new FrontQuery(Duration.ofSeconds(30));
        List<String> rows = new ArrayList<>();
        try (CloseableIteration<BindingSet> result = DirectEvaluation.evaluate(plan, stars, query)) {
            while (result.hasNext()) {
                rows.add(row(result.next()));
            }
        } finally {
            query.cancelAhead();
        }
        return rows;
    }

    private static List<String> ordered(SailRepository repository, String query) {
        List<String> rows = new ArrayList<>();
        try (RepositoryConnection c = repository.getConnection();
                TupleQueryResult result = c.prepareTupleQuery(TinyShop.PREFIXES + query).evaluate()) {
            result.forEach(solution -> rows.add(row(solution)));
        }
        return rows;
    }

    private static List<String> unordered(String query) {
        return unordered(reference, query);
    }

    private static List<String> unordered(SailRepository repository, String query) {
        return sorted(ordered(repository, query));
    }

    private static List<String> sorted(List<String> rows) {
        List<String> copy = new ArrayList<>(rows);
        copy.sort(null);
        return copy;
    }

    private static String row(BindingSet solution) {
        TreeMap<String, String> row = new TreeMap<>();
        solution.forEach(b -> row.put(b.getName(), NTriplesUtil.toNTriplesString(b.getValue())));
        return row.toString();
    }

    /** A member in process that, as {@code --max-member-rows} does, refuses an answer of more than {@value #MAX_ROWS} rows. */
    /** A member in memory; with {@code splits}, a request is sent first and answered when read ({@link MemberSource.Sent}). */
    private record Capped(String name, SailRepository member, AtomicInteger requests, boolean splits)
            implements MemberSource {
        @Override
        public MemberSource.Sent send(String query, long timeoutMillis) {
            if (!splits) {
                return null;
            }
            return new MemberSource.Sent() {
                @Override
                public List<BindingSet> read() {
                    return select(query, null, timeoutMillis);
                }

                @Override
                public void abort() {
                }
            };
        }

        @Override
        public List<BindingSet> select(String query, QueryInfo info, long timeoutMillis) {
            requests.incrementAndGet();
            try (RepositoryConnection c = member.getConnection()) {
                List<BindingSet> rows = QueryResults.asList(c.prepareTupleQuery(QueryLanguage.SPARQL, query).evaluate());
                if (rows.size() > MAX_ROWS) {
                    throw new ResultWriter.TooLarge("member " + name + " answered more than " + MAX_ROWS + " rows");
                }
                return rows;
            }
        }
    }
}
