package dev.basalt.bench.driver.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.basalt.bench.driver.QueryForm;
import dev.basalt.bench.driver.http.SparqlHttpClient.Options;
import dev.basalt.bench.driver.http.SparqlHttpClient.Transport;

/**
 * The in-process endpoint that warms the bench's client: the light client reads its answers in turn, each in every
 * framing, in every result and graph format, by GET and POST, and counts what each holds, so a warm-up exercises the
 * same counting code a measurement does; it reads the query's form past prologues and comments; a format it has no
 * answer for is an HTTP error the client reports.
 */
class ClientWarmupTest {
	private static final String SELECT = "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> SELECT ?p WHERE { ?p rdfs:label ?l }";
	private static final String DESCRIBE = "PREFIX rev: <http://purl.org/stuff/rev#> DESCRIBE ?x WHERE { <http://ex.org/r> rev:reviewer ?x }";
	private static final String CONSTRUCT = "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }";

	@Test
	void answersEveryFormatTheClientAsksForInEveryFraming() {
		try (ClientWarmup endpoint = ClientWarmup.start()) {
			URI uri = endpoint.endpoint();
			for (boolean post : new boolean[] { false, true }) {
				for (ResultFormat format : ResultFormat.values()) {
					for (GraphFormat graphs : GraphFormat.values()) {
						for (GraphCount count : GraphCount.values()) {
							Options options = new Options(post, format, Transport.SOCKET, graphs, count);
							String what = (post ? "POST " : "GET ") + format + " " + graphs + " " + count;
							expectInTurn(uri, options, QueryForm.SELECT, SELECT, format.mediaType(QueryForm.SELECT), what);
							expectInTurn(uri, options, QueryForm.DESCRIBE, DESCRIBE, graphs.mediaType, what);
							expectInTurn(uri, options, QueryForm.CONSTRUCT, CONSTRUCT, graphs.mediaType, what);
							expectInTurn(uri, options, QueryForm.ASK, "ASK { ?s ?p ?o }", format.mediaType(QueryForm.ASK),
									what);
						}
					}
				}
			}
		}
	}

	/**
	 * On a new connection, the answers in turn, each in each framing (six), counted to what each holds: its results,
	 * or for a graph answer counted in bytes, the bytes of its body.
	 */
	private static void expectInTurn(URI uri, Options options, QueryForm form, String query, String type, String what) {
		List<WarmupAnswers.Answer> answers = WarmupAnswers.of(form, type);
		assertFalse(answers.isEmpty(), what + " " + form);
		try (SparqlHttpClient client = new SparqlHttpClient(uri, options)) {
			for (int i = 1; i <= answers.size() * 6; i++) {
				WarmupAnswers.Answer a = answers.get(i % answers.size());
				long expected = form.isGraph() && options.graphCount() == GraphCount.BYTES ? a.body().length : a.results();
				assertEquals(expected, client.count(form, query), what + " " + form + " " + i);
			}
		}
	}

	@Test
	void readsTheFormWithoutRegularExpressions() {
		assertEquals(QueryForm.SELECT, ClientWarmup.formOf(SELECT));
		assertEquals(QueryForm.DESCRIBE, ClientWarmup.formOf("# ASK in a comment\n" + DESCRIBE));
		assertEquals(QueryForm.ASK, ClientWarmup.formOf("PREFIX select: <http://ex.org/construct#>\nask { ?s ?p ?o }"));
		assertEquals(QueryForm.CONSTRUCT, ClientWarmup.formOf("BASE <http://ex.org/describe/> CONSTRUCT WHERE { ?s ?p ?o }"));
		assertNull(ClientWarmup.formOf("nothing to answer"));
		assertNull(ClientWarmup.formOf(""));
	}

	/** A warm-up's worth of requests on one kept-alive connection, each answered in full. */
	@Test
	void answersAThousandRequestsOnOneConnection() {
		assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
			try (ClientWarmup endpoint = ClientWarmup.start();
					SparqlHttpClient client = new SparqlHttpClient(endpoint.endpoint(), Options.DEFAULT)) {
				for (int i = 0; i < 1000; i++) {
					List<WarmupAnswers.Answer> answers = WarmupAnswers.of(i % 2 == 0 ? QueryForm.SELECT : QueryForm.DESCRIBE,
							i % 2 == 0 ? "application/sparql-results+xml" : "application/rdf+xml");
					WarmupAnswers.Answer a = answers.get((i + 1) % answers.size());
					// the default counts a DESCRIBE's answer in bytes, as the BSBM driver does
					assertEquals(i % 2 == 0 ? a.results() : a.body().length, client.count(i % 2 == 0 ? QueryForm.SELECT
							: QueryForm.DESCRIBE, i % 2 == 0 ? SELECT : DESCRIBE));
				}
			}
		});
	}

	@Test
	void framesAnswersByLengthAndInChunks() {
		byte[] body = "x".repeat(9000).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
		String chunked = new String(ClientWarmup.response("200 OK", "text/plain", body, 4096),
				java.nio.charset.StandardCharsets.US_ASCII);
		assertEquals(true, chunked.contains("\r\nTransfer-Encoding: chunked\r\n\r\n1000\r\n"), chunked.substring(0, 120));
		assertEquals(true, chunked.endsWith("\r\n328\r\n" + "x".repeat(808) + "\r\n0\r\n\r\n"));
		String framed = new String(ClientWarmup.response("200 OK", "text/plain", body, 0),
				java.nio.charset.StandardCharsets.US_ASCII);
		assertEquals(true, framed.contains("\r\nContent-Length: 9000\r\n\r\nxxx"), framed.substring(0, 120));
	}

	@Test
	void refusesWhatItHasNoAnswerFor() {
		assertTrue(ClientWarmup.answers(QueryForm.DESCRIBE, "application/sparql-results+xml").isEmpty());
		assertTrue(ClientWarmup.answers(QueryForm.SELECT, "text/turtle").isEmpty());
		assertTrue(ClientWarmup.answers(null, "application/sparql-results+xml").isEmpty());
		try (ClientWarmup endpoint = ClientWarmup.start();
				SparqlHttpClient client = new SparqlHttpClient(endpoint.endpoint(),
						new Options(false, ResultFormat.TSV, Transport.SOCKET, GraphFormat.RDFXML, GraphCount.BYTES))) {
			UncheckedIOException e = assertThrows(UncheckedIOException.class,
					() -> client.count(QueryForm.SELECT, "nothing to answer"));
			assertEquals(true, e.getMessage().contains("status 400"), e.getMessage());
		}
	}
}
