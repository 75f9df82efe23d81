package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.repository.sparql.SPARQLRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.bench.BenchMain;
import dev.basalt.bench.bsbm.BsbmCrossCheck;
import dev.basalt.bench.bsbm.BsbmGenerator;
import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.bench.bsbm.BsbmQueries;
import dev.basalt.bench.driver.MixDriver;
import dev.basalt.bench.driver.MixResult;
import dev.basalt.bench.driver.QueryClient;
import dev.basalt.bench.driver.QueryStats;
import dev.basalt.bench.driver.http.GraphCount;
import dev.basalt.bench.driver.http.GraphFormat;
import dev.basalt.bench.driver.http.ResultFormat;
import dev.basalt.bench.driver.http.SparqlHttpClient;
import dev.basalt.sail.BasaltStore;
import picocli.CommandLine;

/**
 * The benchmark's HTTP mode ({@code basalt-bench.jar bsbm-http}) against the launcher in a child
 * JVM: a tiny BSBM dataset loaded into a Basalt repository over the REST API answers every Explore
 * query, and the driver's mixes over the SPARQL endpoint, with the same result counts as the same
 * data in an in-process Basalt store.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BsbmHttpTest {
    static final String REPO = "bsbm";
    static final int PRODUCTS = 40;
    static final long SEED = 808;

    @TempDir
    static Path tmp;
    LauncherProcess launcher;
    Repository http;
    Repository local;
    BsbmParameters parameters;

    @BeforeAll
    void loadBothStores() throws Exception {
        BsbmModel model = new BsbmModel(PRODUCTS, SEED);
        parameters = new BsbmParameters(model);
        Path data = tmp.resolve("bsbm.nt");
        long triples = new BsbmGenerator(model).write(data).total();

        launcher = new LauncherProcess(tmp.resolve("server"), LauncherProcess.OUTPUT.resolve("launcher-bsbm-http.log"),
                "--no-repository").start();
        Rest rest = new Rest(launcher.serverUrl());
        Rest.Response created = rest.createRepository(REPO, ServerRestApiTest.config(REPO, ""));
        assertEquals(204, created.status(), created.body());
        Rest.Response added = rest.addStream(REPO, "application/n-triples", () -> open(data));
        assertEquals(204, added.status(), added.body());
        assertEquals(triples, rest.size(REPO));
        http = new SPARQLRepository(rest.repositoryUrl(REPO));
        http.init();

        local = new SailRepository(new BasaltStore(tmp.resolve("local").toFile()));
        local.init();
        try (RepositoryConnection conn = local.getConnection()) {
            conn.begin(IsolationLevels.NONE);
            conn.add(data.toFile(), RDFFormat.NTRIPLES);
            conn.commit();
            assertEquals(triples, conn.size());
        }
    }

    @AfterAll
    void stop() throws Exception {
        if (http != null) {
            http.shutDown();
        }
        if (local != null) {
            local.shutDown();
        }
        if (launcher != null) {
            launcher.close();
        }
    }

    @Test
    void everyExploreQueryCountsTheSameOverHttpAsInProcess() {
        Map<String, long[]> overHttp = BsbmCrossCheck.counts(http, parameters, SEED, 3);
        Map<String, long[]> inProcess = BsbmCrossCheck.counts(local, parameters, SEED, 3);

        assertEquals(BsbmQueries.ALL.size(), overHttp.size());
        inProcess.forEach((q, counts) -> assertArrayEquals(counts, overHttp.get(q), q + " result counts"));
        long total = inProcess.values().stream().flatMapToLong(Arrays::stream).sum();
        assertTrue(total > 50, "the tiny dataset answers the queries (" + total + " results in all)");
    }

    @Test
    void driverMixesOverHttpReturnTheInProcessResults() {
        MixDriver driver = new MixDriver(BsbmQueries.ALL, BsbmQueries.MIXES.get("full"), parameters::draw);
        MixResult overHttp = driver.run(http, 2, 3, Double.MAX_VALUE, SEED + 1);
        MixResult inProcess = driver.run(local, 2, 3, Double.MAX_VALUE, SEED + 1);

        assertEquals(6, overHttp.mixes());
        assertEquals(inProcess.perQuery().keySet(), overHttp.perQuery().keySet());
        for (Map.Entry<String, QueryStats> e : inProcess.perQuery().entrySet()) {
            QueryStats remote = overHttp.perQuery().get(e.getKey());
            assertEquals(e.getValue().count(), remote.count(), e.getKey() + " executions");
            assertEquals(e.getValue().results(), remote.results(), e.getKey() + " results over the mixes");
        }
    }

    @Test
    void theBenchsLightClientCountsAsInProcess() {
        URI endpoint = URI.create(launcher.serverUrl() + "/repositories/" + REPO);
        Map<String, long[]> inProcess = BsbmCrossCheck.counts(local, parameters, SEED, 3);
        // graph answers counted in statements, as in-process (the default counts their bytes, as the BSBM driver)
        SparqlHttpClient.Options statements = SparqlHttpClient.Options.DEFAULT.with(GraphCount.STATEMENTS);
        for (SparqlHttpClient.Options options : List.of(statements,
                new SparqlHttpClient.Options(true, ResultFormat.XML, SparqlHttpClient.Transport.SOCKET,
                        GraphFormat.RDFXML, GraphCount.STATEMENTS),
                new SparqlHttpClient.Options(false, ResultFormat.TSV, SparqlHttpClient.Transport.JDK,
                        GraphFormat.RDFXML, GraphCount.STATEMENTS))) {
            try (QueryClient client = new SparqlHttpClient(endpoint, options)) {
                Map<String, long[]> overHttp = BsbmCrossCheck.counts(client, parameters, SEED, 3);
                inProcess.forEach((q, counts) -> assertArrayEquals(counts, overHttp.get(q), q + " over " + options));
            }
        }
        MixDriver driver = new MixDriver(BsbmQueries.ALL, BsbmQueries.MIXES.get("full"), parameters::draw);
        MixResult light = driver.run(() -> new SparqlHttpClient(endpoint, statements), 2, 3, Double.MAX_VALUE,
                SEED + 1);
        MixResult local = driver.run(this.local, 2, 3, Double.MAX_VALUE, SEED + 1);
        local.perQuery().forEach((q, s) -> assertEquals(s.results(), light.perQuery().get(q).results(), q));
    }

    @Test
    void bsbmHttpCommandPassesAgainstTheEndpoint() {
        int status = new CommandLine(new BenchMain()).execute("bsbm-http", "--endpoint",
                launcher.serverUrl() + "/repositories/" + REPO, "--products", String.valueOf(PRODUCTS), "--seed",
                String.valueOf(SEED), "--warmup-mixes", "1", "--runs", "1", "--seconds", "0.5", "--cross-check", "2");
        assertEquals(0, status);
    }

    private static InputStream open(Path file) {
        try {
            return Files.newInputStream(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
