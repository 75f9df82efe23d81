package dev.basalt.bench.driver.http;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.Locale;
import java.util.concurrent.Executors;

import dev.basalt.bench.driver.QueryForm;

/**
 * A SPARQL endpoint inside the bench's own process that answers every query at once with a fixed answer of the
 * asked-for format, so that the bench's client code (URL encoding, its HTTP client, the result counters) is
 * compiled by the JIT before any server is measured. Without it the first endpoint a {@code bsbm-http} invocation
 * measures pays for the client's warm-up in its cold figures, and the others do not (an order artefact: the client
 * CPU per query over the first 50 mixes was 3-7 times as high for the first endpoint as for the third). It takes
 * away only part of that: with it the first endpoint's client CPU was still 3.5-5 times the others' (cause not
 * established; docs/benchmarks-coldstart.md). The answers:
 * ten solutions of three values (IRI, typed and language-tagged literals with markup to escape, texts of a few hundred
 * to two thousand characters, as BSBM's comments and reviews are) in SPARQL XML, JSON
 * or TSV, {@code true} for an ASK, and twenty statements over several namespaces (typed node, blank node,
 * literals) in RDF/XML or N-Triples; the query's form is read from its text ({@link QueryForm#of}). A request
 * without a query or Accept header, with a text that is no query, or for a format it has no answer for is answered
 * with status 400.
 *
 * <p>It listens on the loopback interface on a port the system chooses and reads just enough HTTP/1.1 for the bench's
 * own client (request line, {@code Accept} and {@code Content-Length} headers, kept-alive connections), one thread
 * per connection; every other answer is framed in chunks rather than by {@code Content-Length}, as a server that
 * streams its answers sends them; each answer goes out in one write without Nagle's delay (a head written alone, and then a body
 * shorter than a segment, waited for the client's delayed acknowledgement, which on this machine's loopback with BBR
 * stalled a connection for minutes). Thread-safe: the answers are fixed, built once; {@link #close} stops the listener and its
 * threads.
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
					.append("\u00e9 text ").append(i).append(filler(i)).append("</literal></binding></result>");
			json.append(i == 0 ? "" : ",").append("{\"product\":{\"type\":\"uri\",\"value\":\"").append(IRI).append(i)
					.append("\"},\"label\":{\"datatype\":\"http://www.w3.org/2001/XMLSchema#integer\",\"type\":\"literal\","
							+ "\"value\":\"")
					.append(i).append("\"},\"text\":{\"xml:lang\":\"en\",\"type\":\"literal\",\"value\":\"a \\\"b\\\" \u00e9 ")
					.append(i).append(filler(i)).append("\"}}");
			tsv.append('<').append(IRI).append(i).append(">\t").append(i).append("\t\"a <b> \u00e9 ").append(i)
					.append(filler(i)).append("\"@en\n");
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
					.append("\t<rev:text xml:lang='de'>\u00fcber ").append(i).append(filler(i)).append("</rev:text>\n")
					.append("</rdf:Description>\n");
			nt.append('<').append(s).append("> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> ")
					.append("<http://xmlns.com/foaf/0.1/Person> .\n")
					.append('<').append(s).append("> <http://xmlns.com/foaf/0.1/name> \"Person & ").append(i).append("\" .\n")
					.append('<').append(s).append("> <http://purl.org/dc/elements/1.1/date> \"2008-06-2").append(i)
					.append("\"^^<http://www.w3.org/2001/XMLSchema#date> .\n")
					.append('<').append(s).append("> <http://purl.org/stuff/rev#reviewer> _:b").append(i).append(" .\n")
					.append('<').append(s).append("> <http://purl.org/stuff/rev#text> \"\u00fcber ").append(i)
					.append(filler(i)).append("\"@de .\n");
		}
		RDF_XML = utf8(rdf.append("</rdf:RDF>\n").toString());
		N_TRIPLES = utf8(nt.toString());
	}

	private final ServerSocket listener;
	private final ExecutorService threads;

	private ClientWarmup(ServerSocket listener, ExecutorService threads) {
		this.listener = listener;
		this.threads = threads;
	}

	/** Starts the endpoint on the loopback interface. */
	public static ClientWarmup start() {
		try {
			ServerSocket listener = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
			ExecutorService threads = Executors.newCachedThreadPool(r -> {
				Thread t = new Thread(r, "client-warmup-endpoint");
				t.setDaemon(true);
				return t;
			});
			ClientWarmup endpoint = new ClientWarmup(listener, threads);
			threads.execute(endpoint::accept);
			return endpoint;
		} catch (IOException e) {
			throw new UncheckedIOException("the client's warm-up endpoint did not start: " + e.getMessage(), e);
		}
	}

	/** The endpoint's URL. */
	public URI endpoint() {
		return URI.create("http://" + listener.getInetAddress().getHostAddress() + ":" + listener.getLocalPort() + "/sparql");
	}

	@Override
	public void close() {
		try {
			listener.close();
		} catch (IOException e) {
			// closing: nothing to do
		}
		threads.shutdownNow();
	}

	private void accept() {
		while (!listener.isClosed()) {
			try {
				Socket socket = listener.accept();
				threads.execute(() -> serve(socket));
			} catch (IOException e) {
				return; // closed
			}
		}
	}

	/** Answers the requests of one kept-alive connection until the client closes it. */
	private static void serve(Socket socket) {
		try (socket; InputStream in = new BufferedInputStream(socket.getInputStream());
				OutputStream out = socket.getOutputStream()) {
			socket.setTcpNoDelay(true);
			long answered = 0;
			while (true) {
				String requestLine = line(in);
				if (requestLine == null || requestLine.isEmpty()) {
					return;
				}
				String accept = null;
				int length = 0;
				for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
					int colon = header.indexOf(':');
					String name = colon < 0 ? "" : header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
					String value = colon < 0 ? "" : header.substring(colon + 1).trim();
					if (name.equals("accept")) {
						accept = value;
					} else if (name.equals("content-length")) {
						length = Integer.parseInt(value);
					}
				}
				byte[] request = in.readNBytes(length);
				String[] parts = requestLine.split(" ");
				String target = parts.length > 1 ? parts[1] : "";
				String query = parts[0].equals("POST") ? new String(request, StandardCharsets.UTF_8)
						: parameter(target.indexOf('?') < 0 ? null : target.substring(target.indexOf('?') + 1), "query");
				byte[] body;
				try {
					body = query == null || accept == null ? null : body(QueryForm.of(query), accept);
				} catch (IllegalArgumentException notAQuery) {
					body = null;
				}
				String status = body == null ? "400 Bad Request" : "200 OK";
				String type = body == null ? "text/plain" : accept;
				if (body == null) {
					body = ascii("no fixed answer for this query and Accept header");
				}
				// in one write: a head sent alone waits for the client's delayed ACK (Nagle)
				out.write(response(status, type, body, ++answered % 2 == 0));
				out.flush();
			}
		} catch (IOException | RuntimeException e) {
			// the client went away or sent something this endpoint does not read: the connection ends
		}
	}

	/**
	 * A response's bytes: status line, {@code Content-Type}, and the body framed by {@code Content-Length} or, with
	 * {@code chunked}, in chunks of at most 4 KiB (as Jetty sends answers it streams).
	 */
	static byte[] response(String status, String type, byte[] body, boolean chunked) {
		ByteArrayOutputStream b = new ByteArrayOutputStream(body.length + 256);
		b.writeBytes(ascii("HTTP/1.1 " + status + "\r\nContent-Type: " + type + "; charset=UTF-8\r\n"
				+ (chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + body.length) + "\r\n\r\n"));
		if (!chunked) {
			b.writeBytes(body);
			return b.toByteArray();
		}
		for (int at = 0; at < body.length; at += CHUNK) {
			int n = Math.min(CHUNK, body.length - at);
			b.writeBytes(ascii(Integer.toHexString(n) + "\r\n"));
			b.write(body, at, n);
			b.writeBytes(ascii("\r\n"));
		}
		b.writeBytes(ascii("0\r\n\r\n"));
		return b.toByteArray();
	}

	private static final int CHUNK = 4096;

	/** A line of a request's head without its CR LF, or null at the end of the stream. */
	private static String line(InputStream in) throws IOException {
		StringBuilder s = new StringBuilder();
		for (int b = in.read(); b >= 0; b = in.read()) {
			if (b == '\n') {
				int end = s.length() > 0 && s.charAt(s.length() - 1) == '\r' ? s.length() - 1 : s.length();
				return s.substring(0, end);
			}
			s.append((char) b);
		}
		return s.length() == 0 ? null : s.toString();
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

	/** Words that make the i-th text a few hundred to about two thousand characters long, as a product's comment. */
	private static String filler(int i) {
		return " lorem ipsum".repeat(25 + 15 * i);
	}

	private static byte[] ascii(String s) {
		return s.getBytes(StandardCharsets.US_ASCII);
	}

	private static byte[] utf8(String s) {
		return s.getBytes(StandardCharsets.UTF_8);
	}
}
