package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.eclipse.rdf4j.federated.FedXFactory;
import org.eclipse.rdf4j.federated.endpoint.Endpoint;
import org.eclipse.rdf4j.federated.endpoint.EndpointFactory;
import org.eclipse.rdf4j.federated.repository.FedXRepository;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.parser.sparql.SPARQLParser;
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
 * Star pushdown in process: TinyShop partitioned by subject over three in-memory members, FedX with
 * Basalt's strategy over them, every query's solutions compared with one store holding everything;
 * and the shape of the rewrite (what goes into a star, what stays with FedX).
 */
class StarPushdownTest {
    @TempDir
    static Path dir;

    static SailRepository reference;
    static List<SailRepository> members = new ArrayList<>();
    static FedXRepository federation;
    static ExecutorService pool;

    @BeforeAll
    static void load() throws Exception {
        List<Path> files = TinyShop.write(dir);
        reference = new SailRepository(new MemoryStore());
        SubjectHashPartition partition = new SubjectHashPartition(3);
        List<Endpoint> endpoints = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            SailRepository member = new SailRepository(new MemoryStore());
            member.init();
            members.add(member);
            endpoints.add(EndpointFactory.loadEndpoint("shard-" + i, member));
        }
        try (RepositoryConnection all = reference.getConnection()) {
            for (Path file : files) {
                RDFFormat format = file.toString().endsWith(".nq") ? RDFFormat.NQUADS : RDFFormat.NTRIPLES;
                for (Statement st : Rio.parse(java.nio.file.Files.newInputStream(file), "", format)) {
                    all.add(st);
                    try (RepositoryConnection c = members.get(partition.shardOf(st.getSubject().stringValue()))
                            .getConnection()) {
                        c.add(st);
                    }
                }
            }
        }
        pool = Executors.newFixedThreadPool(4);
        federation = FedXFactory.newFederation().withMembers(endpoints)
                .withFederationEvaluationStrategyFactory(new RewritingStrategyFactory(new StarEvaluator(endpoints, pool, 4)))
                .create();
        federation.init();
    }

    @AfterAll
    static void close() {
        federation.shutDown();
        pool.shutdownNow();
        members.forEach(SailRepository::shutDown);
        reference.shutDown();
    }

    @Test
    void everyQueryAnswersLikeOneStore() {
        for (String query : TinyShop.queries()) {
            String text = TinyShop.PREFIXES + query;
            List<String> want = solutions(reference, text);
            assertFalse(want.isEmpty(), query);
            assertEquals(want, solutions(federation, text), query);
        }
    }

    @Test
    void starsTakeTheirFiltersAndOptionalsAndLeaveTheRest() {
        String rewritten = rewrite(TinyShop.queries().get(11));
        assertEquals(2, count(rewritten, "StarGroup"), rewritten);
        assertTrue(rewritten.contains("OPTIONAL { ?review <http://example.org/shop/vocabulary/rating1> ?rating ."
                + " FILTER ((?rating > \"4\"^^<http://www.w3.org/2001/XMLSchema#integer>)) }"), rewritten);
        assertTrue(rewritten.contains("FILTER (langMatches(lang(?title), \"en\"))"), rewritten);
        // the filter over two stars stays with FedX
        assertTrue(rewritten.contains("Filter") && rewritten.contains("Bound"), rewritten);
        // GRAPH patterns stay FedX statements
        String graphs = rewrite(TinyShop.queries().get(9));
        assertEquals(0, count(graphs, "StarGroup"), graphs);
        // Q3's negation: the OPTIONAL and the !bound filter both go into the star
        String negation = rewrite(TinyShop.queries().get(7));
        assertEquals(1, count(negation, "StarGroup"), negation);
        assertFalse(negation.contains("Filter") || negation.contains("LeftJoin"), negation);
    }

    @Test
    void aStarOverReplicatedSubjectsJoinsTheStarThatBindsIt() {
        String query = "SELECT * WHERE { ?o bsbm:product ?p ; bsbm:vendor ?v . ?v rdfs:label ?vl ; bsbm:country ?c ."
                + " ?p rdfs:label ?pl FILTER(?vl != ?pl) }";
        Set<String> vendorRange = Set.of("http://example.org/shop/vocabulary/vendor");
        String joined = rewrite(query, vendorRange);
        assertEquals(2, count(joined, "StarGroup"), joined); // the offer with its vendor, and the product
        assertTrue(joined.contains("StarGroup (?o) { ?o <http://example.org/shop/vocabulary/product> ?p ."
                + " ?o <http://example.org/shop/vocabulary/vendor> ?v . ?v <http://www.w3.org/2000/01/rdf-schema#label> ?vl ."),
                joined);
        assertEquals(3, count(rewrite(query, Set.of()), "StarGroup"));
        // a vendor bound only inside an OPTIONAL is not joined into the required star
        String optional = rewrite("SELECT * WHERE { ?v rdfs:label ?vl OPTIONAL { ?o bsbm:vendor ?v } }", vendorRange);
        assertEquals(2, count(optional, "StarGroup"), optional);
    }

    private static String rewrite(String query) {
        return rewrite(query, Set.of());
    }

    private static String rewrite(String query, Set<String> replicatedRange) {
        TupleExpr expr = new QueryRoot(new SPARQLParser().parseQuery(TinyShop.PREFIXES + query, null).getTupleExpr());
        RewritingStrategyFactory.dropDuplicatePatterns(expr);
        RewritingStrategyFactory.filterOptionalPartsFirst(expr);
        RewritingStrategyFactory.keepOptionalFiltersInPlace(expr);
        StarPushdown.rewrite(expr, ReplicatedVocabulary.schema(), replicatedRange);
        return expr.toString();
    }

    private static int count(String text, String word) {
        return text.split(word, -1).length - 1;
    }

    private static List<String> solutions(org.eclipse.rdf4j.repository.Repository repository, String query) {
        try (RepositoryConnection c = repository.getConnection();
                TupleQueryResult result = c.prepareTupleQuery(QueryLanguage.SPARQL, query).evaluate()) {
            return LocalClusterTest.canonical(result);
        }
    }
}
