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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.federated.structures.QueryInfo;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.QueryInterruptedException;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.impl.IteratingTupleQueryResult;
import org.eclipse.rdf4j.query.parser.ParsedQuery;
import org.eclipse.rdf4j.query.parser.QueryParserUtil;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The front's own evaluation ({@link DirectEvaluation}) in process: TinyShop partitioned by subject over
 * three in-memory members reached through counting {@link MemberSource}s. Star-only queries must
 * answer like one store; stars that no row binds go to each member in one request
 * ({@link StarBatch}: a UNION of stars, OPTIONAL stars beside a constant-subject star); a query past its
 * timeout must stop with the timeout error, also while the front joins and sorts member rows and while a
 * member does not answer.
 */
class DirectEvaluationTest {
    @TempDir
    static Path dir;

    static SailRepository reference;
    static final List<SailRepository> members = new ArrayList<>();
    static final AtomicInteger requests = new AtomicInteger();
    static ExecutorService pool;
    static StarEvaluator stars;

    @BeforeAll
    static void load() throws Exception {
        reference = new SailRepository(new MemoryStore());
        SubjectHashPartition partition = new SubjectHashPartition(3);
        List<MemberSource> sources = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            SailRepository member = new SailRepository(new MemoryStore());
            member.init();
            members.add(member);
            sources.add(new Counting("shard-" + i, member, 0));
        }
        try (RepositoryConnection all = reference.getConnection()) {
            for (Path file : TinyShop.write(dir)) {
                RDFFormat format = file.toString().endsWith(".nq") ? RDFFormat.NQUADS : RDFFormat.NTRIPLES;
                for (Statement st : Rio.parse(Files.newInputStream(file), "", format)) {
                    all.add(st);
                    try (RepositoryConnection c = members.get(partition.shardOf(st.getSubject().stringValue()))
                            .getConnection()) {
                        c.add(st);
                    }
                }
            }
        }
        pool = Executors.newFixedThreadPool(6);
        stars = new StarEvaluator(pool, 4, ReplicatedVocabulary.schema(), sources);
    }

    @AfterAll
    static void close() {
        pool.shutdownNow();
        members.forEach(SailRepository::shutDown);
        reference.shutDown();
    }

    @Test
    void starOnlyQueriesAnswerLikeOneStore() {
        int planned = 0;
        for (String query : TinyShop.queries()) {
            String text = TinyShop.PREFIXES + query;
            TupleExpr plan = DirectEvaluation.plan(parse(text), stars);
            if (plan == null) {
                continue;
            }
            planned++;
            assertEquals(solutions(text), direct(plan, Duration.ofSeconds(30)), query);
        }
        assertTrue(planned >= 8, planned + " of the TinyShop queries were star-only");
    }

    @Test
    void aUnionOfStarsTakesOneRequestPerMember() {
        String union = TinyShop.PREFIXES + "SELECT * WHERE { { ?p rdfs:label ?l ; bsbm:numeric1 ?n FILTER (?n > 50) }"
                + " UNION { ?p rdfs:label ?l ; bsbm:textual1 ?t } }";
        assertRequests(union, 3); // two stars on every member: six requests one by one
    }

    @Test
    void optionalStarsBesideAConstantSubjectTakeOneRequestPerMember() {
        String optionals = TinyShop.PREFIXES + "SELECT * WHERE { ex:product7 rdfs:label ?label"
                + " OPTIONAL { ?offer bsbm:product ex:product7 ; bsbm:price ?price FILTER (?price > 500) }"
                + " OPTIONAL { ?review bsbm:reviewFor ex:product7 ; bsbm:title ?title"
                + " OPTIONAL { ?review bsbm:rating1 ?rating } } }";
        assertRequests(optionals, 3); // one to the owner and two to every member: seven one by one
        // a constant-subject star and a variable-subject star (BSBM Q11): four one by one
        assertRequests(TinyShop.PREFIXES + "SELECT * WHERE { { ex:offer5 ?p ?o } UNION { ?s ?p ex:offer5 } }", 3);
    }

    @Test
    void aStarBoundByRowsIsStillAskedWithThem() {
        // the producer's star depends on the product's rows: asked after them, to its owner only
        String text = TinyShop.PREFIXES + TinyShop.queries().get(1);
        TupleExpr plan = DirectEvaluation.plan(parse(text), stars);
        int before = requests.get();
        assertEquals(solutions(text), direct(plan, Duration.ofSeconds(30)));
        assertEquals(2, requests.get() - before, "the product's owner, then the producer's owner");
    }

    @Test
    void aQueryPastItsTimeoutStopsWhileTheFrontJoinsAndSortsRows() {
        // five label stars joined on nothing: 69^5 rows (1.5 billion) for the front to join and sort, minutes
        // of work; the members answer at once (the same stars in a smaller query just answered)
        String five = "SELECT * WHERE { ?a rdfs:label ?v . ?b rdfs:label ?w . ?c rdfs:label ?x . ?d rdfs:label ?y ."
                + " ?e rdfs:label ?z } ORDER BY ?v ?w ?x ?y ?z LIMIT 5";
        String two = "SELECT * WHERE { ?a rdfs:label ?v . ?b rdfs:label ?w } ORDER BY ?v ?w LIMIT 5";
        assertEquals(solutions(TinyShop.PREFIXES + two), direct(DirectEvaluation.plan(parse(TinyShop.PREFIXES + two),
                stars), Duration.ofSeconds(30)));
        TupleExpr plan = DirectEvaluation.plan(parse(TinyShop.PREFIXES + five), stars);
        assertNotNull(plan);
        long started = System.nanoTime();
        QueryInterruptedException e = assertThrows(QueryInterruptedException.class,
                () -> direct(plan, Duration.ofMillis(1000)));
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(millis < 10_000, "stopped after " + millis + " ms");
        assertTrue(e.getMessage().contains("timeout of 1000 ms"), e.getMessage());
    }

    @Test
    void aMemberThatDoesNotAnswerFailsTheQueryAtItsTimeout() {
        List<MemberSource> sources = new ArrayList<>();
        // the healthy members answer this query before it runs with the hung member (their first answer, parse
        // and class loading included, can take longer than a short timeout on a loaded machine: then the query
        // timed out on them, not on the member that does not answer); the timeout leaves them seconds besides
        String text = TinyShop.PREFIXES + TinyShop.queries().get(0);
        assertEquals(solutions(text), direct(DirectEvaluation.plan(parse(text), stars), Duration.ofSeconds(30)));
        long timeoutMillis = 3_000;
        long hungMillis = 600_000;
        for (int i = 0; i < 3; i++) {
            sources.add(new Counting("shard-" + i, members.get(i), i == 2 ? hungMillis : 0));
        }
        StarEvaluator hung = new StarEvaluator(pool, 4, ReplicatedVocabulary.schema(), sources);
        TupleExpr plan = DirectEvaluation.plan(parse(text), hung);
        long started = System.nanoTime();
        QueryEvaluationException e = assertThrows(QueryEvaluationException.class,
                () -> direct(hung, plan, Duration.ofMillis(timeoutMillis)));
        long millis = (System.nanoTime() - started) / 1_000_000;
        // failed at the query's timeout: not before it, and long before the member would have answered
        assertTrue(millis >= timeoutMillis - 100, "failed after " + millis + " ms, before the timeout");
        assertTrue(millis < 60_000, "failed after " + millis + " ms");
        assertTrue(e.getMessage().contains("shard-2"), e.getMessage());
        assertFalse(e.getMessage().contains("shard-0") || e.getMessage().contains("shard-1"), e.getMessage());
    }

    @Test
    void aMemberAnswerOverTheRowLimitIsTooLargeNotAMemberFailure() {
        // as MemberHttp fails past --max-member-rows: the front answers 413, not 500 or 503
        List<MemberSource> sources = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String name = "shard-" + i;
            sources.add(new MemberSource() {
                @Override
                public String name() {
                    return name;
                }

                @Override
                public List<BindingSet> select(String query, org.eclipse.rdf4j.federated.structures.QueryInfo info, long timeoutMillis) {
                    throw new ResultWriter.TooLarge("member " + name + " answered more than the limit");
                }
            });
        }
        StarEvaluator limited = new StarEvaluator(pool, 4, ReplicatedVocabulary.schema(), sources);
        String text = TinyShop.PREFIXES + TinyShop.queries().get(0);
        TupleExpr plan = DirectEvaluation.plan(parse(text), limited);
        assertNotNull(plan);
        ResultWriter.TooLarge e = assertThrows(ResultWriter.TooLarge.class,
                () -> direct(limited, plan, Duration.ofSeconds(30)));
        assertTrue(e.getMessage().contains("more than the limit"), e.getMessage());
    }

    private static void assertRequests(String text, int expected) {
        TupleExpr plan = DirectEvaluation.plan(parse(text), stars);
        assertNotNull(plan, text);
        int before = requests.get();
        List<String> got = direct(plan, Duration.ofSeconds(30));
        assertEquals(expected, requests.get() - before, text);
        assertFalse(got.isEmpty(), text);
        assertEquals(solutions(text), got, text);
    }

    private static ParsedQuery parse(String text) {
        return QueryParserUtil.parseQuery(QueryLanguage.SPARQL, text, null);
    }

    private static List<String> direct(TupleExpr plan, Duration timeout) {
        return direct(stars, plan, timeout);
    }

    private static List<String> direct(StarEvaluator evaluator, TupleExpr plan, Duration timeout) {
        FrontQuery query = new FrontQuery(timeout);
        try (CloseableIteration<BindingSet> rows = DirectEvaluation.evaluate(plan, evaluator, query);
                TupleQueryResult result = new IteratingTupleQueryResult(new ArrayList<>(plan.getBindingNames()),
                        rows)) {
            return LocalClusterTest.canonical(result);
        } finally {
            query.cancelAhead();
        }
    }

    private static List<String> solutions(String text) {
        try (RepositoryConnection c = reference.getConnection();
                TupleQueryResult result = c.prepareTupleQuery(QueryLanguage.SPARQL, text).evaluate()) {
            return LocalClusterTest.canonical(result);
        }
    }

    /**
     * A member in process: counts its requests; with {@code delayMillis}, answers that late, or fails when
     * that is longer than the time the request was given (as a socket read timeout does).
     */
    private record Counting(String name, SailRepository member, long delayMillis) implements MemberSource {
        @Override
        public List<BindingSet> select(String query, QueryInfo info, long timeoutMillis) {
            requests.incrementAndGet();
            if (delayMillis > 0) {
                // like a socket read timeout: the member gives up after the time it was given
                try {
                    Thread.sleep(Math.min(delayMillis, timeoutMillis));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new QueryEvaluationException("interrupted", e);
                }
                if (delayMillis > timeoutMillis) {
                    throw new QueryEvaluationException("member " + name + " failed on a star subquery: read timed out"
                            + " after " + timeoutMillis + " ms");
                }
            }
            try (RepositoryConnection c = member.getConnection()) {
                return QueryResults.asList(c.prepareTupleQuery(QueryLanguage.SPARQL, query).evaluate());
            }
        }
    }
}
