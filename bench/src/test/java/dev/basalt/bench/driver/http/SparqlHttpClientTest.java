package dev.basalt.bench.driver.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.repository.sparql.SPARQLRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

import dev.basalt.bench.BenchMain;
import dev.basalt.bench.bsbm.BsbmCrossCheck;
import dev.basalt.bench.bsbm.BsbmGenerator;
import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.bench.driver.QueryClient;
import dev.basalt.bench.driver.QueryForm;
import dev.basalt.bench.driver.http.SparqlHttpClient.Options;
import dev.basalt.bench.driver.http.SparqlHttpClient.Transport;
import dev.basalt.bench.driver.http.TestSparqlEndpoint.Fault;

/**
 * The light SPARQL protocol client against a test endpoint over BSBM data (60 products, the
 * cross-check's parameter sets): its counts equal those of RDF4J's SPARQLRepository at the same
 * endpoint and of the store in-process, in every result format, by GET and POST, chunked and not, on
 * both transports; and a server that answers with an error, a cut-off body, half a document or
 * another content type makes it throw with the status and the body's first bytes.
 */
class SparqlHttpClientTest {
	/** A seed whose one vendor (60 products have 1,200 offers) is in the US, so Q10 has answers. */
	private static final long SEED = 2;
	private static final int SETS = 2;

	@TempDir
	static Path tmp;
	private static SailRepository store;
	private static TestSparqlEndpoint endpoint;
	private static BsbmParameters parameters;
	private static Map<String, long[]> inProcess;

	@BeforeAll
	static void start() throws Exception {
		BsbmModel model = new BsbmModel(60, SEED);
		Path data = tmp.resolve("bsbm.nt");
		new BsbmGenerator(model).write(data);
		parameters = new BsbmParameters(model);
		store = new SailRepository(new MemoryStore());
		try (RepositoryConnection c = store.getConnection()) {
			c.add(data.toFile(), RDFFormat.NTRIPLES);
		}
		endpoint = new TestSparqlEndpoint(store);
		inProcess = BsbmCrossCheck.counts(store, parameters, SEED, SETS);
	}

	@AfterAll
	static void stop() {
		endpoint.close();
		store.shutDown();
	}

	@BeforeEach
	void reset() {
		endpoint.fault = Fault.NONE;
		endpoint.chunked = false;
	}

	@Test
	void theCrossCheckHasResultsToCompare() {
		// Q1, Q3 and Q4 ask for products with features drawn as the BSBM driver draws them (from the
		// type's features, each product having a quarter of them): at 60 products they rarely match.
		for (String q : new String[] { "Q2", "Q7", "Q8", "Q9", "Q10", "Q11", "Q12" }) {
			assertTrue(Arrays.stream(inProcess.get(q)).sum() > 0, q + " has results at this scale");
		}
	}

	@Test
	void countsEqualSparqlRepositorysInEveryFormatAndWay() {
		SPARQLRepository rdf4j = new SPARQLRepository(endpoint.uri().toString());
		rdf4j.init();
		try {
			assertSameCounts(BsbmCrossCheck.counts(rdf4j, parameters, SEED, SETS), "SPARQLRepository");
		} finally {
			rdf4j.shutDown();
		}
		for (ResultFormat format : ResultFormat.values()) {
			for (boolean post : new boolean[] { false, true }) {
				endpoint.chunked = post; // GET answered with Content-Length, POST chunked
				GraphFormat graph = GraphFormat.values()[(format.ordinal() + (post ? 1 : 0)) % 2];
				Options options = new Options(post, format, Transport.SOCKET, graph, GraphCount.STATEMENTS);
				try (QueryClient client = new SparqlHttpClient(endpoint.uri(), options)) {
					assertSameCounts(BsbmCrossCheck.counts(client, parameters, SEED, SETS),
							options + (post ? " chunked" : " with Content-Length"));
				}
				assertEquals(post ? "POST" : "GET", endpoint.lastMethod);
			}
		}
		for (boolean chunked : new boolean[] { false, true }) {
			endpoint.chunked = chunked;
			try (QueryClient client = new SparqlHttpClient(endpoint.uri(), new Options(false, ResultFormat.JSON, Transport.JDK, GraphFormat.RDFXML,
					GraphCount.STATEMENTS))) {
				assertSameCounts(BsbmCrossCheck.counts(client, parameters, SEED, SETS), "JDK transport");
			}
		}
	}

	private static void assertSameCounts(Map<String, long[]> counts, String how) {
		assertEquals(inProcess.keySet(), counts.keySet(), how);
		inProcess.forEach((q, expected) -> assertEquals(Arrays.toString(expected), Arrays.toString(counts.get(q)),
				q + " over " + how));
	}

	@Test
	void bsbmHttpCrossChecksEndpointsAndFailsOnAMismatch() throws Exception {
		SailRepository empty = new SailRepository(new MemoryStore());
		try (TestSparqlEndpoint other = new TestSparqlEndpoint(empty)) {
			String same = endpoint.uri().toString();
			String[] run = { "bsbm-http", "--products", "60", "--seed", Long.toString(SEED), "--mix", "reduced",
					"--cold-mixes", "2", "--warmup-mixes", "3", "--runs", "1", "--seconds", "0.2", "--cross-check",
					Integer.toString(SETS) };
			assertEquals(0, bsbmHttp(run, "--endpoint", same, "--endpoint", same), "one store behind both endpoints");
			assertEquals(0, bsbmHttp(run, "--client", "rdf4j", "--endpoint", same));
			String[] both = { "--endpoint", same, "--endpoint", other.uri().toString(), "--result-format", "xml" };
			assertEquals(2, bsbmHttp(run, both), "an empty store answers with other counts");
			// the empty store differs in every query with results, Q2 and Q7 to Q12 among them
			String[] withResults = inProcess.entrySet().stream().filter(e -> Arrays.stream(e.getValue()).sum() > 0)
					.map(Map.Entry::getKey).toArray(String[]::new);
			assertTrue(withResults.length >= 7, Arrays.toString(withResults));
			assertEquals(0, bsbmHttp(run, concat(both, "--expect-count-difference", String.join(",", withResults))),
					"every difference declared");
			String[] allButOne = Arrays.copyOf(withResults, withResults.length - 1);
			assertEquals(2, bsbmHttp(run, concat(both, "--expect-count-difference", String.join(",", allButOne))),
					"the difference in " + withResults[withResults.length - 1] + " is not declared");
			assertEquals(2, bsbmHttp(run, concat(both, "--expect-count-difference", "13")), "no query 13: refused");
		} finally {
			empty.shutDown();
		}
	}

	/** In the timed phases graph answers count in bytes by default; the cross-check counts their statements. */
	@Test
	void bsbmHttpCrossChecksStatementsWhileTimingBytes() {
		String same = endpoint.uri().toString();
		String[] run = { "bsbm-http", "--products", "60", "--seed", Long.toString(SEED), "--mix", "reduced",
				"--cold-mixes", "1", "--warmup-mixes", "1", "--runs", "0", "--cross-check", Integer.toString(SETS),
				"--client-warmup-mixes", "0", "--endpoint", same };
		Map<String, Map<String, Double>> perAnswer = new java.util.HashMap<>(); // mode, query: timed count per answer
		for (String mode : new String[] { "default", "statements", "bytes" }) {
			String[] args = mode.equals("default") ? run : concat(run, "--graph-count", mode);
			java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
			java.io.PrintStream stdout = System.out;
			System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
			try {
				assertEquals(0, bsbmHttp(args));
			} finally {
				System.setOut(stdout);
			}
			String out = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
			String unit = mode.equals("statements") ? "statements" : "bytes";
			for (String q : new String[] { "Q9", "Q12" }) {
				long statements = Arrays.stream(inProcess.get(q)).sum();
				assertTrue(out.contains(q + " result counts (statements) {" + same + "=" + statements + "}"),
						mode + ": " + q + " cross-checked by its " + statements + " statements in\n" + out);
				java.util.regex.Matcher m = java.util.regex.Pattern
						.compile("\\n    " + q + " .*\\(\\d+\\)  ([\\d.]+) (\\w+)/answer").matcher(out);
				assertTrue(m.find(), q + " in\n" + out);
				assertEquals(unit, m.group(2), mode + ": the unit of " + q + "'s timed count");
				perAnswer.computeIfAbsent(mode, k -> new java.util.HashMap<>()).put(q, Double.parseDouble(m.group(1)));
			}
			assertTrue(out.contains("Q2 result counts (solutions)"), out);
		}
		// the same mix (same seed) each time: the same answers, counted in bytes or in statements
		assertEquals(perAnswer.get("bytes"), perAnswer.get("default"));
		for (String q : new String[] { "Q9", "Q12" }) {
			double statements = perAnswer.get("statements").get(q);
			assertTrue(statements > 0, q);
			assertTrue(perAnswer.get("bytes").get(q) > 20 * statements, q + ": RDF/XML takes more bytes than statements "
					+ perAnswer);
		}
	}

	/** {@code --only} times the named queries of the mix and no other; a query the mix lacks is refused. */
	@Test
	void bsbmHttpTimesOnlyTheQueriesNamed() {
		String[] run = { "bsbm-http", "--products", "60", "--seed", Long.toString(SEED), "--mix", "reduced",
				"--cold-mixes", "2", "--warmup-mixes", "2", "--runs", "0", "--cross-check", "0",
				"--client-warmup-mixes", "0", "--endpoint", endpoint.uri().toString() };
		java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
		java.io.PrintStream stdout = System.out;
		System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
		try {
			assertEquals(0, bsbmHttp(run, "--only", "Q9,12"));
		} finally {
			System.setOut(stdout);
		}
		String out = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
		java.util.regex.Matcher timed = java.util.regex.Pattern.compile("\\n    (Q\\d+) +avg .*\\((\\d+)\\)").matcher(out);
		Map<String, Integer> answers = new java.util.TreeMap<>();
		while (timed.find()) {
			answers.merge(timed.group(1), Integer.parseInt(timed.group(2)), Integer::sum);
		}
		// the reduced mix has Q9 four times and Q12 once: two cold mixes
		assertEquals(Map.of("Q12", 2, "Q9", 8), answers, out);
		assertEquals(2, bsbmHttp(run, "--only", "Q5"), "Q5 is not in the reduced mix");
		assertEquals(2, bsbmHttp(run, "--only", "Q99"), "no such query");
	}

	private static String[] concat(String[] a, String... b) {
		String[] all = Arrays.copyOf(a, a.length + b.length);
		System.arraycopy(b, 0, all, a.length, b.length);
		return all;
	}

	private static int bsbmHttp(String[] run, String... more) {
		String[] args = Arrays.copyOf(run, run.length + more.length);
		System.arraycopy(more, 0, args, run.length, more.length);
		return new CommandLine(new BenchMain()).execute(args);
	}

	@Test
	void asksCountOneOrZeroInEveryFormat() {
		for (ResultFormat format : ResultFormat.values()) {
			try (QueryClient client = new SparqlHttpClient(endpoint.uri(), new Options(false, format, Transport.SOCKET, GraphFormat.RDFXML,
					GraphCount.STATEMENTS))) {
				assertEquals(1, client.count(QueryForm.ASK, "ASK { ?s ?p ?o }"), format.name());
				assertEquals(0, client.count(QueryForm.ASK, "ASK { <urn:none> ?p ?o }"), format.name());
			}
		}
	}

	@Test
	void wrongAnswersThrowWithStatusAndFirstBytes() {
		String select = "SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 200";
		String construct = "CONSTRUCT WHERE { ?s ?p ?o } LIMIT 200";
		for (Transport transport : Transport.values()) {
			for (ResultFormat format : ResultFormat.values()) {
				GraphFormat graph = GraphFormat.values()[(format.ordinal() + transport.ordinal()) % 2];
				try (QueryClient client = new SparqlHttpClient(endpoint.uri(), new Options(false, format, transport, graph, GraphCount.STATEMENTS))) {
					String how = transport + " " + format + " " + graph;
					assertEquals(200, client.count(QueryForm.SELECT, select), how);

					endpoint.fault = Fault.SERVER_ERROR;
					String m = assertThrows(UncheckedIOException.class, () -> client.count(QueryForm.SELECT, select), how)
							.getMessage();
					assertTrue(m.contains("HTTP status 500") && m.contains("boom: the store is on fire"), m);

					endpoint.fault = Fault.WRONG_TYPE;
					m = assertThrows(UncheckedIOException.class, () -> client.count(QueryForm.SELECT, select), how).getMessage();
					assertTrue(m.contains("content type text/html"), m);

					endpoint.fault = Fault.HALF_DOCUMENT;
					m = assertThrows(UncheckedIOException.class, () -> client.count(QueryForm.SELECT, select), how).getMessage();
					assertTrue(m.contains("malformed") && m.contains("status 200"), m);
					m = assertThrows(UncheckedIOException.class, () -> client.count(QueryForm.CONSTRUCT, construct), how)
							.getMessage();
					assertTrue(m.contains(graph == GraphFormat.NTRIPLES ? "malformed N-Triples" : "malformed RDF/XML"), m);

					endpoint.fault = Fault.SHORT_BODY;
					assertThrows(UncheckedIOException.class, () -> client.count(QueryForm.SELECT, select), how);
					assertThrows(UncheckedIOException.class, () -> client.count(QueryForm.CONSTRUCT, construct), how);

					endpoint.fault = Fault.NONE;
					assertEquals(200, client.count(QueryForm.CONSTRUCT, construct), how + ": usable after the errors");
				}
			}
		}
	}

	@Test
	void aQueryTheServerRejectsThrowsWithItsMessage() {
		try (QueryClient client = new SparqlHttpClient(endpoint.uri(), Options.DEFAULT)) {
			String m = assertThrows(UncheckedIOException.class, () -> client.count(QueryForm.SELECT, "SELECT nonsense"))
					.getMessage();
			assertTrue(m.contains("HTTP status 400") && m.contains("MalformedQueryException"), m);
		}
	}
}
