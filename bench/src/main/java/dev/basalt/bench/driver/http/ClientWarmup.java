package dev.basalt.bench.driver.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.basalt.bench.driver.QueryForm;

/**
 * A SPARQL endpoint inside the bench's own process that answers every query at once with a fixed answer of the
 * asked-for format, so that the bench's client code (URL encoding, its HTTP client, the result counters) is
 * compiled by the JIT before any server is measured. Without it the first endpoint a {@code bsbm-http} invocation
 * measures pays for the client's warm-up in its cold figures, and the others do not (an order artefact: the client
 * CPU per query over the first 50 mixes was 3-7 times as high for the first endpoint as for the third). The answers:
 * ten solutions of three values (IRI, typed and language-tagged literals with markup to escape) in SPARQL XML, JSON
 * or TSV, {@code true} for an ASK, and twenty statements over several namespaces (typed node, blank node,
 * literals) in RDF/XML or N-Triples; the query's form is read from its text ({@link QueryForm#of}). A request
 * without a query or Accept header, with a text that is no query, or for a format it has no answer for is answered
 * with status 400.
 *
 * <p>It listens on the loopback interface on a port the system chooses, with two handler threads. Thread-safe: the
 * answers are fixed, built once; {@link #close} stops the listener.
 */
public final class ClientWarmup implements AutoCloseable {
	private static final String IRI = "http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/instances/dataFromProducer1/Product";
	private static final byte[] SELECT_XML;
	private static final byte[] SELECT_JSON;
	private static final byte[] SELECT_TSV;
	private static final byte[] ASK_XML = ascii("<?xml version='1.0' encoding='UTF-8'?><sparql "
			+ "xmlns='http://www.w3.org/2005/sparql-results#'><head></head><boolean>true</boolean></sparql>");
	private static final byte[] ASK_JSON = ascii("{\"head\":{},\"boolean\":true}");
	private static final byte[] RDF_XML;
	private static final byte[] N_TRIPLES;

	static {
		StringBuilder xml = new StringBuilder("<?xml version='1.0' encoding='UTF-8'?><sparql xmlns='http://www.w3.org/"
				+ "2005/sparql-results#'><head><variable name='product'/><variable name='label'/><variable name='text'/>"
				+ "</head><results>");
		StringBuilder json = new StringBuilder("{\"head\":{\"vars\":[\"product\",\"label\",\"text\"]},\"results\":"
				+ "{\"bindings\":[");
		StringBuilder tsv = new StringBuilder("?product\t?label\t?text\n");
		for (int i = 0; i < 10; i++) {
			xml.append("<result><binding name='product'><uri>").append(IRI).append(i).append("</uri></binding>")
					.append("<binding name='label'><literal datatype='http://www.w3.org/2001/XMLSchema#integer'>")
					.append(i).append("</literal></binding><binding name='text'><literal xml:lang='en'>a &lt;b&gt; &amp; ")
					.append("\u00e9 text ").append(i).append("</literal></binding></result>");
			json.append(i == 0 ? "" : ",").append("{\"product\":{\"type\":\"uri\",\"value\":\"").append(IRI).append(i)
					.append("\"},\"label\":{\"datatype\":\"http://www.w3.org/2001/XMLSchema#integer\",\"type\":\"literal\","
							+ "\"value\":\"")
					.append(i).append("\"},\"text\":{\"xml:lang\":\"en\",\"type\":\"literal\",\"value\":\"a \\\"b\\\" \u00e9 ")
					.append(i).append("\"}}");
			tsv.append('<').append(IRI).append(i).append(">\t").append(i).append("\t\"a <b> \u00e9 ").append(i)
					.append("\"@en\n");
		}
		SELECT_XML = utf8(xml.append("</results></sparql>").toString());
		SELECT_JSON = utf8(json.append("]}}").toString());
		SELECT_TSV = utf8(tsv.toString());
		StringBuilder rdf = new StringBuilder("<?xml version='1.0' encoding='UTF-8'?>\n<rdf:RDF "
				+ "xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#' xmlns:rev='http://purl.org/stuff/rev#'>\n");
		StringBuilder nt = new StringBuilder();
		for (int i = 0; i < 4; i++) {
			String s = IRI + i;
			rdf.append("<rdf:Description rdf:about='").append(s).append("'>\n")
					.append("\t<rdf:type rdf:resource='http://xmlns.com/foaf/0.1/Person'/>\n")
					.append("\t<name xmlns='http://xmlns.com/foaf/0.1/'>Person &amp; ").append(i).append("</name>\n")
					.append("\t<date xmlns='http://purl.org/dc/elements/1.1/' rdf:datatype='http://www.w3.org/2001/"
							+ "XMLSchema#date'>2008-06-2").append(i).append("</date>\n")
					.append("\t<rev:reviewer rdf:nodeID='b").append(i).append("'/>\n")
					.append("\t<rev:text xml:lang='de'>\u00fcber ").append(i).append("</rev:text>\n")
					.append("</rdf:Description>\n");
			nt.append('<').append(s).append("> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> ")
					.append("<http://xmlns.com/foaf/0.1/Person> .\n")
					.append('<').append(s).append("> <http://xmlns.com/foaf/0.1/name> \"Person & ").append(i).append("\" .\n")
					.append('<').append(s).append("> <http://purl.org/dc/elements/1.1/date> \"2008-06-2").append(i)
					.append("\"^^<http://www.w3.org/2001/XMLSchema#date> .\n")
					.append('<').append(s).append("> <http://purl.org/stuff/rev#reviewer> _:b").append(i).append(" .\n")
					.append('<').append(s).append("> <http://purl.org/stuff/rev#text> \"\u00fcber ").append(i)
					.append("\"@de .\n");
		}
		RDF_XML = utf8(rdf.append("</rdf:RDF>\n").toString());
		N_TRIPLES = utf8(nt.toString());
	}

	private final HttpServer server;
	private final ExecutorService threads;

	private ClientWarmup(HttpServer server, ExecutorService threads) {
		this.server = server;
		this.threads = threads;
	}

	/** Starts the endpoint on the loopback interface. */
	public static ClientWarmup start() {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
			ExecutorService threads = Executors.newFixedThreadPool(2, r -> {
				Thread t = new Thread(r, "client-warmup-endpoint");
				t.setDaemon(true);
				return t;
			});
			server.setExecutor(threads);
			server.createContext("/sparql", ClientWarmup::answer);
			server.start();
			return new ClientWarmup(server, threads);
		} catch (IOException e) {
			throw new UncheckedIOException("the client's warm-up endpoint did not start: " + e.getMessage(), e);
		}
	}

	/** The endpoint's URL. */
	public URI endpoint() {
		InetSocketAddress address = server.getAddress();
		return URI.create("http://" + address.getAddress().getHostAddress() + ":" + address.getPort() + "/sparql");
	}

	@Override
	public void close() {
		server.stop(0);
		threads.shutdownNow();
	}

	private static void answer(HttpExchange exchange) throws IOException {
		try (exchange; InputStream in = exchange.getRequestBody(); OutputStream out = exchange.getResponseBody()) {
			byte[] request = in.readAllBytes();
			String query = exchange.getRequestMethod().equals("POST")
					? new String(request, StandardCharsets.UTF_8)
					: parameter(exchange.getRequestURI().getRawQuery(), "query");
			String accept = exchange.getRequestHeaders().getFirst("Accept");
			byte[] body;
			try {
				body = query == null || accept == null ? null : body(QueryForm.of(query), accept.trim());
			} catch (IllegalArgumentException notAQuery) {
				body = null;
			}
			if (body == null) {
				byte[] message = ascii("no fixed answer for this query and Accept header");
				exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=UTF-8");
				exchange.sendResponseHeaders(400, message.length);
				out.write(message);
				return;
			}
			exchange.getResponseHeaders().set("Content-Type", accept.trim() + "; charset=UTF-8");
			exchange.sendResponseHeaders(200, body.length);
			out.write(body);
		}
	}

	/** The fixed answer for a query of form {@code form} in media type {@code accept}, or null for another type. */
	static byte[] body(QueryForm form, String accept) {
		return switch (accept) {
			case "application/rdf+xml" -> form.isGraph() ? RDF_XML : null;
			case "application/n-triples" -> form.isGraph() ? N_TRIPLES : null;
			case "application/sparql-results+xml" -> form == QueryForm.ASK ? ASK_XML : form.isGraph() ? null : SELECT_XML;
			case "application/sparql-results+json" -> form == QueryForm.ASK ? ASK_JSON : form.isGraph() ? null : SELECT_JSON;
			case "text/tab-separated-values" -> form == QueryForm.SELECT ? SELECT_TSV : null;
			default -> null;
		};
	}

	private static String parameter(String rawQuery, String name) {
		if (rawQuery == null) {
			return null;
		}
		for (String pair : rawQuery.split("&")) {
			int equals = pair.indexOf('=');
			if (equals > 0 && pair.substring(0, equals).equals(name)) {
				return URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
			}
		}
		return null;
	}

	private static byte[] ascii(String s) {
		return s.getBytes(StandardCharsets.US_ASCII);
	}

	private static byte[] utf8(String s) {
		return s.getBytes(StandardCharsets.UTF_8);
	}
}
