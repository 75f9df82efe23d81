package dev.basalt.bench.driver.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.basalt.bench.driver.QueryForm;
import dev.basalt.bench.driver.http.SparqlHttpClient.Options;
import dev.basalt.bench.driver.http.SparqlHttpClient.Transport;

/**
 * The in-process endpoint that warms the bench's client: the light client reads its fixed answers in every result
 * and graph format, by GET and POST (ten solutions, twenty statements, an ASK's one boolean), so a warm-up exercises
 * the same counting code a measurement does; a format it has no answer for is an HTTP error the client reports.
 */
class ClientWarmupTest {
	private static final String SELECT = "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> SELECT ?p WHERE { ?p rdfs:label ?l }";
	private static final String DESCRIBE = "PREFIX rev: <http://purl.org/stuff/rev#> DESCRIBE ?x WHERE { <http://ex.org/r> rev:reviewer ?x }";
	private static final String CONSTRUCT = "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }";

	@Test
	void answersEveryFormatTheClientAsksFor() {
		try (ClientWarmup endpoint = ClientWarmup.start()) {
			URI uri = endpoint.endpoint();
			for (boolean post : new boolean[] { false, true }) {
				for (ResultFormat format : ResultFormat.values()) {
					for (GraphFormat graphs : GraphFormat.values()) {
						try (SparqlHttpClient client = new SparqlHttpClient(uri, new Options(post, format, Transport.SOCKET, graphs))) {
							String what = (post ? "POST " : "GET ") + format + " " + graphs;
							assertEquals(10, client.count(QueryForm.SELECT, SELECT), what);
							assertEquals(20, client.count(QueryForm.DESCRIBE, DESCRIBE), what);
							assertEquals(20, client.count(QueryForm.CONSTRUCT, CONSTRUCT), what);
							assertEquals(1, client.count(QueryForm.ASK, "ASK { ?s ?p ?o }"), what);
						}
					}
				}
			}
		}
	}

	/** A warm-up's worth of requests on one kept-alive connection, each answered in full. */
	@Test
	void answersAThousandRequestsOnOneConnection() {
		assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
			try (ClientWarmup endpoint = ClientWarmup.start();
					SparqlHttpClient client = new SparqlHttpClient(endpoint.endpoint(), Options.DEFAULT)) {
				for (int i = 0; i < 1000; i++) {
					assertEquals(i % 2 == 0 ? 10 : 20, client.count(i % 2 == 0 ? QueryForm.SELECT : QueryForm.DESCRIBE,
							i % 2 == 0 ? SELECT : DESCRIBE));
				}
			}
		});
	}

	@Test
	void framesAnswersByLengthAndInChunks() {
		byte[] body = "x".repeat(9000).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
		String chunked = new String(ClientWarmup.response("200 OK", "text/plain", body, true),
				java.nio.charset.StandardCharsets.US_ASCII);
		assertEquals(true, chunked.contains("\r\nTransfer-Encoding: chunked\r\n\r\n1000\r\n"), chunked.substring(0, 120));
		assertEquals(true, chunked.endsWith("\r\n328\r\n" + "x".repeat(808) + "\r\n0\r\n\r\n"));
		String framed = new String(ClientWarmup.response("200 OK", "text/plain", body, false),
				java.nio.charset.StandardCharsets.US_ASCII);
		assertEquals(true, framed.contains("\r\nContent-Length: 9000\r\n\r\nxxx"), framed.substring(0, 120));
	}

	@Test
	void refusesWhatItHasNoAnswerFor() {
		assertNull(ClientWarmup.body(QueryForm.DESCRIBE, "application/sparql-results+xml"));
		assertNull(ClientWarmup.body(QueryForm.SELECT, "text/turtle"));
		try (ClientWarmup endpoint = ClientWarmup.start();
				SparqlHttpClient client = new SparqlHttpClient(endpoint.endpoint(),
						new Options(false, ResultFormat.TSV, Transport.SOCKET, GraphFormat.RDFXML))) {
			UncheckedIOException e = assertThrows(UncheckedIOException.class,
					() -> client.count(QueryForm.SELECT, "nothing to answer"));
			assertEquals(true, e.getMessage().contains("status 400"), e.getMessage());
		}
	}
}
