package dev.basalt.bench.driver.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;

import org.eclipse.rdf4j.query.BooleanQuery;
import org.eclipse.rdf4j.query.GraphQuery;
import org.eclipse.rdf4j.query.Query;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQuery;
import org.eclipse.rdf4j.query.resultio.BooleanQueryResultFormat;
import org.eclipse.rdf4j.query.resultio.QueryResultIO;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultFormat;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A SPARQL protocol endpoint for tests over a local repository, on a loopback port: GET with
 * {@code query=} or POST with an {@code application/sparql-query} body; answers in SPARQL JSON, XML or
 * TSV (the first of these in the Accept header) and N-Triples, with RDF4J's writers, chunked or with a
 * Content-Length. A {@link Fault} makes it answer wrongly, as a broken server would.
 */
final class TestSparqlEndpoint implements AutoCloseable {

	/** How the endpoint misbehaves. */
	enum Fault {
		NONE,
		/** status 500 with a text body */
		SERVER_ERROR,
		/** Content-Length of the whole body, then only its first half and the connection closed */
		SHORT_BODY,
		/** a complete chunked body holding the first half of the result document */
		HALF_DOCUMENT,
		/** the result with Content-Type text/html */
		WRONG_TYPE
	}

	private static final List<TupleQueryResultFormat> TUPLE_FORMATS = List.of(TupleQueryResultFormat.JSON,
			TupleQueryResultFormat.SPARQL, TupleQueryResultFormat.TSV);

	private final Repository repository;
	private final HttpServer server;
	private final ExecutorService executor = Executors.newFixedThreadPool(2);
	volatile boolean chunked;
	volatile Fault fault = Fault.NONE;
	volatile String lastMethod;
	/** The length of the last answer's whole body (what a fault sends may be less). */
	volatile long lastBodyBytes = -1;

	TestSparqlEndpoint(Repository repository) throws IOException {
		this.repository = repository;
		server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
		server.createContext("/sparql", this::handle);
		server.setExecutor(executor);
		server.start();
	}

	URI uri() {
		return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/sparql");
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			lastMethod = exchange.getRequestMethod();
			String query = query(exchange);
			String accept = exchange.getRequestHeaders().getFirst("Accept");
			ByteArrayOutputStream body = new ByteArrayOutputStream();
			String type;
			try (RepositoryConnection conn = repository.getConnection()) {
				Query q = conn.prepareQuery(QueryLanguage.SPARQL, query);
				if (q instanceof TupleQuery tq) {
					TupleQueryResultFormat format = tupleFormat(accept);
					QueryResultIO.writeTuple(tq.evaluate(), format, body);
					type = format.getDefaultMIMEType();
				} else if (q instanceof BooleanQuery bq) {
					BooleanQueryResultFormat format = accept.contains("json") ? BooleanQueryResultFormat.JSON
							: BooleanQueryResultFormat.SPARQL;
					QueryResultIO.writeBoolean(bq.evaluate(), format, body);
					type = format.getDefaultMIMEType();
				} else {
					RDFFormat format = accept.contains("application/rdf+xml") ? RDFFormat.RDFXML
							: accept.contains("application/n-triples") ? RDFFormat.NTRIPLES : null;
					if (format == null) {
						throw new IllegalArgumentException("neither RDF/XML nor N-Triples in Accept: " + accept);
					}
					Rio.write(((GraphQuery) q).evaluate(), body, format);
					type = format.getDefaultMIMEType();
				}
			} catch (RuntimeException e) {
				send(exchange, 400, "text/plain", e.toString().getBytes(StandardCharsets.UTF_8));
				return;
			}
			byte[] bytes = body.toByteArray();
			lastBodyBytes = bytes.length;
			switch (fault) {
			case NONE -> send(exchange, 200, type + ";charset=UTF-8", bytes);
			case SERVER_ERROR -> send(exchange, 500, "text/plain", "boom: the store is on fire".getBytes(StandardCharsets.UTF_8));
			case SHORT_BODY -> {
				exchange.getResponseHeaders().set("Content-Type", type);
				exchange.sendResponseHeaders(200, bytes.length);
				exchange.getResponseBody().write(bytes, 0, bytes.length / 2);
				exchange.getResponseBody().flush();
				// closing the exchange now, with bytes missing, closes the connection
			}
			case HALF_DOCUMENT -> send(exchange, 200, type, Arrays.copyOf(bytes, bytes.length / 2), true);
			case WRONG_TYPE -> send(exchange, 200, "text/html", bytes);
			}
		}
	}

	private static String query(HttpExchange exchange) throws IOException {
		if (exchange.getRequestMethod().equals("POST")) {
			String type = exchange.getRequestHeaders().getFirst("Content-Type");
			String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
			if ("application/sparql-query".equals(type)) {
				return body;
			}
			if (type == null || !type.startsWith("application/x-www-form-urlencoded")) {
				throw new IOException("POST with " + type);
			}
			return parameter(body, exchange);
		}
		return parameter(exchange.getRequestURI().getRawQuery(), exchange);
	}

	private static String parameter(String form, HttpExchange exchange) throws IOException {
		for (String pair : form.split("&")) {
			if (pair.startsWith("query=")) {
				return URLDecoder.decode(pair.substring(6), StandardCharsets.UTF_8);
			}
		}
		throw new IOException("no query parameter in " + exchange.getRequestURI());
	}

	private static TupleQueryResultFormat tupleFormat(String accept) {
		TupleQueryResultFormat best = null;
		int at = Integer.MAX_VALUE;
		for (TupleQueryResultFormat f : TUPLE_FORMATS) {
			int i = accept.indexOf(f.getDefaultMIMEType());
			if (i >= 0 && i < at) {
				best = f;
				at = i;
			}
		}
		if (best == null) {
			throw new IllegalArgumentException("no result format of ours in Accept: " + accept);
		}
		return best;
	}

	private void send(HttpExchange exchange, int status, String type, byte[] bytes) throws IOException {
		send(exchange, status, type, bytes, chunked);
	}

	private static void send(HttpExchange exchange, int status, String type, byte[] bytes, boolean chunked)
			throws IOException {
		exchange.getResponseHeaders().set("Content-Type", type);
		exchange.sendResponseHeaders(status, chunked ? 0 : bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	@Override
	public void close() {
		server.stop(0);
		executor.shutdownNow();
	}
}
