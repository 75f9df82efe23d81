package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.impl.TupleQueryResultBuilder;
import org.eclipse.rdf4j.query.resultio.QueryResultIO;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultFormat;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LUBM(1) (the bench's generator, loaded from {@code ../bench/target/classes}) with the univ-bench
 * ontology over two {@code owl-rl} members: the ontology is replicated to both, and after the
 * {@link DistributedClosure} the 14 LUBM queries through the front answer exactly what one
 * {@code owl-rl} Basalt server holding everything answers. Before the closure, queries that need
 * conclusions across members (inverse properties, someValuesFrom over another member's department,
 * transitive sub-organizations) answer differently, so the test fails without it. The members have select ports, so
 * the stars read the members' inferred statements there. A star over the replicated schema goes to one member only.
 */
class DistributedClosureTest {
    static final Path BENCH_CLASSES = Path.of(System.getProperty("basalt.bench.classes", "../bench/target/classes"));
    static final Path ONTOLOGY = Path.of(System.getProperty("basalt.lubm.ontology",
            "../bench/src/test/resources/lubm/univ-bench.owl"));
    static final String UB = "http://swat.cse.lehigh.edu/onto/univ-bench.owl#";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void lubmOverTwoOwlRlMembersAnswersLikeOneOwlRlStore() throws Exception {
        assertTrue(Files.isDirectory(LocalClusterTest.HOME.resolve("webapps")), "build the launcher first");
        assertTrue(Files.isDirectory(BENCH_CLASSES), "compile the bench module first: " + BENCH_CLASSES);
        Path ontology = dir.resolve("univ-bench.nt");
        try (InputStream in = Files.newInputStream(ONTOLOGY); OutputStream out = Files.newOutputStream(ontology)) {
            Rio.write(Rio.parse(in, "http://swat.cse.lehigh.edu/onto/univ-bench.owl", RDFFormat.RDFXML), out,
                    RDFFormat.NTRIPLES);
        }
        Path data = dir.resolve("lubm1.nt");
        Map<String, String> queries = lubm(data);
        List<Path> files = List.of(ontology, data);

        try (LocalCluster reference = LocalCluster.start(1, dir.resolve("one"), LocalClusterTest.launcher(), List.of(),
                "owl-rl", ReplicatedVocabulary.schema());
                LocalCluster cluster = LocalCluster.start(2, dir.resolve("two"), LocalClusterTest.launcher(), List.of(),
                        List.of(), "owl-rl", ReplicatedVocabulary.schema())) {
            // the members with select ports, as the cluster command starts them: the stars read inferred statements there
            assertTrue(cluster.members().stream().allMatch(m -> m.selectUrl() != null), "select ports open");
            new PartitioningLoader(reference.members()).load(files, dir.resolve("split-one"));
            String one = reference.members().get(0).repositoryUrl();
            Map<String, List<String>> want = new LinkedHashMap<>();
            for (Map.Entry<String, String> q : queries.entrySet()) {
                want.put(q.getKey(), select(one, q.getValue()));
                assertFalse(want.get(q.getKey()).isEmpty(), "one owl-rl store answers " + q.getKey());
            }

            new PartitioningLoader(cluster.members()).load(files, dir.resolve("split"));
            FrontSettings settings = FrontSettings.defaults();
            cluster.startFront(settings, 0);
            String front = cluster.frontUrl();
            int differing = 0;
            for (String name : List.of("Q11", "Q12", "Q13")) {
                if (!want.get(name).equals(select(front, queries.get(name)))) {
                    differing++;
                }
            }
            assertEquals(3, differing, "without the distributed closure, Q11-Q13 need conclusions across members");

            DistributedClosure.Result closure = cluster.closure();
            assertTrue(closure.rounds() >= 2 && closure.shipped() > 0 && closure.borrowed() > 0, closure.toString());
            for (Map.Entry<String, String> q : queries.entrySet()) {
                assertEquals(want.get(q.getKey()), select(front, q.getValue()), q.getKey());
            }
            assertEquals(1, cluster.closure().rounds(), "a second run finds nothing to send");

            String schemaStar = "SELECT ?c WHERE { ?c <http://www.w3.org/2000/01/rdf-schema#subClassOf> <" + UB
                    + "Person> }";
            try (Federation federation = Federation.open(cluster.members(), settings)) {
                long before = federation.requestsSent();
                List<String> got;
                try (RepositoryConnection c = federation.repository().getConnection();
                        TupleQueryResult result = c.prepareTupleQuery(schemaStar).evaluate()) {
                    got = LocalClusterTest.canonical(result);
                }
                assertEquals(select(one, schemaStar), got);
                assertEquals(1, federation.requestsSent() - before, "a star over the replicated schema asks one member");
            }
            assertNotEquals(List.of(), select(front, schemaStar));
        }
    }

    /** Writes LUBM(1) with the bench's generator and returns the 14 LUBM queries by name. */
    private static Map<String, String> lubm(Path data) throws Exception {
        try (URLClassLoader bench = new URLClassLoader(new URL[] { BENCH_CLASSES.toUri().toURL() },
                DistributedClosureTest.class.getClassLoader())) {
            Class<?> generator = bench.loadClass("dev.basalt.bench.lubm.LubmGenerator");
            Object instance = generator.getConstructor(int.class, long.class).newInstance(1, 0L);
            generator.getMethod("write", Path.class).invoke(instance, data);
            List<?> all = (List<?>) bench.loadClass("dev.basalt.bench.lubm.LubmQueries").getField("ALL").get(null);
            Map<String, String> queries = new LinkedHashMap<>();
            for (Object template : all) {
                Method name = template.getClass().getMethod("name");
                Method text = template.getClass().getMethod("text");
                queries.put((String) name.invoke(template), (String) text.invoke(template));
            }
            assertEquals(14, queries.size());
            return queries;
        }
    }

    private List<String> select(String endpoint, String query) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(endpoint))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/sparql-results+json")
                .timeout(Duration.ofSeconds(120))
                .POST(HttpRequest.BodyPublishers.ofString("query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        TupleQueryResultBuilder builder = new TupleQueryResultBuilder();
        QueryResultIO.parseTuple(new ByteArrayInputStream(response.body().getBytes(StandardCharsets.UTF_8)),
                TupleQueryResultFormat.JSON, builder, SimpleValueFactory.getInstance());
        try (TupleQueryResult result = builder.getQueryResult()) {
            return new ArrayList<>(LocalClusterTest.canonical(result));
        }
    }
}
