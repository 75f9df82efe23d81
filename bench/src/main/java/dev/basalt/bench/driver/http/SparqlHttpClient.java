package dev.basalt.bench.driver.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import dev.basalt.bench.driver.QueryClient;
import dev.basalt.bench.driver.QueryExecutor;
import dev.basalt.bench.driver.QueryForm;
import dev.basalt.sail.http.client.HttpConnection;
import dev.basalt.sail.http.client.SocketHttpConnection;

/**
 * A light SPARQL 1.1 protocol client for the benchmark mixes, as the BSBM test driver is: it sends the
 * query as it is (GET with the percent-encoded {@code query} parameter, or POST with an
 * {@code application/sparql-query} body), takes the query form from the template instead of parsing
 * the query, asks every server for the same result format (by default the driver's: SPARQL XML
 * results, RDF/XML statements), counts SELECT and ASK results with a streaming parse that reads every
 * value but builds no RDF objects, and counts a CONSTRUCT or DESCRIBE answer as its {@link GraphCount}
 * says (by default as the driver does: the body's bytes, read to its end unparsed). Every body is read
 * to the end of its framing. A response that is not 2xx, has another content type than asked for, or
 * whose body is cut off (before its Content-Length or last chunk) or malformed throws
 * {@link UncheckedIOException} naming the status and the body's first bytes. One kept-alive HTTP/1.1
 * connection per client; not thread-safe (each benchmark client thread opens its own).
 */
public final class SparqlHttpClient implements QueryClient {

	/**
	 * How requests are sent, answers asked for and graph answers counted. {@link #DEFAULT} is what the BSBM test
	 * driver does: GET, SPARQL XML results, RDF/XML statements counted in bytes; over the socket transport.
	 */
	public record Options(boolean post, ResultFormat format, Transport transport, GraphFormat graphFormat,
			GraphCount graphCount) {
		public static final Options DEFAULT = new Options(false, ResultFormat.XML, Transport.SOCKET,
				GraphFormat.RDFXML, GraphCount.BYTES);

		/** These options with graph answers counted {@code count}'s way. */
		public Options with(GraphCount count) {
			return new Options(post, format, transport, graphFormat, count);
		}
	}

	/** The HTTP/1.1 implementation: the bench's own socket client, or the JDK's java.net.http client. */
	public enum Transport {
		SOCKET, JDK;

		public static Transport named(String name) {
			try {
				return valueOf(name.toUpperCase(Locale.ROOT));
			} catch (IllegalArgumentException e) {
				throw new IllegalArgumentException("transport must be socket or jdk, not " + name);
			}
		}
	}

	private static final int HEAD_BYTES = 300;
	private static final int READ_TIMEOUT_MILLIS = (QueryExecutor.MAX_EXECUTION_SECONDS + 30) * 1000;

	private final URI endpoint;
	private final String path;
	private final Options options;
	private final HttpConnection connection;

	public SparqlHttpClient(URI endpoint, Options options) {
		if (!"http".equals(endpoint.getScheme()) || endpoint.getHost() == null) {
			throw new IllegalArgumentException("not an http:// endpoint URL: " + endpoint);
		}
		this.endpoint = endpoint;
		this.options = options;
		String p = endpoint.getRawPath() == null || endpoint.getRawPath().isEmpty() ? "/" : endpoint.getRawPath();
		this.path = endpoint.getRawQuery() == null ? p : p + "?" + endpoint.getRawQuery();
		int port = endpoint.getPort() < 0 ? 80 : endpoint.getPort();
		this.connection = options.transport() == Transport.JDK
				? new JdkHttpConnection(URI.create("http://" + endpoint.getRawAuthority()), READ_TIMEOUT_MILLIS)
				: new SocketHttpConnection(endpoint.getHost(), port, READ_TIMEOUT_MILLIS);
	}

	@Override
	public long count(QueryForm form, String query) {
		String accept = form.isGraph() ? options.graphFormat().mediaType : options.format().mediaType(form);
		HttpConnection.Response response;
		try {
			if (options.post()) {
				response = connection.send("POST", path, accept, "application/sparql-query",
						query.getBytes(StandardCharsets.UTF_8));
			} else {
				String target = path + (path.indexOf('?') < 0 ? "?" : "&") + "query="
						+ URLEncoder.encode(query, StandardCharsets.UTF_8);
				response = connection.send("GET", target, accept, null, null);
			}
		} catch (IOException e) {
			throw new UncheckedIOException("no answer from " + endpoint + ": " + e.getMessage(), e);
		}
		InputStream raw = response.body();
		HeadRecorder body = new HeadRecorder(raw, HEAD_BYTES);
		try (raw) {
			int status = response.status();
			if (status < 200 || status > 299) {
				body.fillHead();
				throw failure(response, body, "HTTP status " + status, null);
			}
			String type = response.contentType();
			if (type == null || !type.toLowerCase(Locale.ROOT).startsWith(accept)) {
				body.fillHead();
				throw failure(response, body, "content type " + type + " where " + accept + " was asked for", null);
			}
			try {
				long count = form.isGraph() ? options.graphCount().count(options.graphFormat(), body)
						: options.format().count(form, body);
				// a parser may stop at the document's end: what follows up to the framing's end is read here, so
				// that a body cut off after a complete document (no last chunk) fails as well
				body.transferTo(OutputStream.nullOutputStream());
				return count;
			} catch (IOException e) {
				throw failure(response, body, e.getMessage(), e);
			}
		} catch (IOException closing) {
			throw new UncheckedIOException("reading the answer of " + endpoint + ": " + closing.getMessage(), closing);
		}
	}

	private UncheckedIOException failure(HttpConnection.Response response, HeadRecorder body, String what,
			IOException cause) {
		String message = endpoint + " answered " + what + " (status " + response.status() + ", "
				+ response.contentType() + "), body starting: " + body.head();
		return new UncheckedIOException(message, cause == null ? new IOException(what) : cause);
	}

	@Override
	public void close() {
		try {
			connection.close();
		} catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/** Passes a stream through and keeps its first bytes, for error messages; closing it does not close the stream. */
	private static final class HeadRecorder extends InputStream {
		private final InputStream in;
		private final byte[] head;
		private int kept;

		HeadRecorder(InputStream in, int size) {
			this.in = in;
			this.head = new byte[size];
		}

		@Override
		public int read() throws IOException {
			int b = in.read();
			if (b >= 0 && kept < head.length) {
				head[kept++] = (byte) b;
			}
			return b;
		}

		@Override
		public int read(byte[] b, int off, int len) throws IOException {
			int n = in.read(b, off, len);
			if (n > 0 && kept < head.length) {
				int k = Math.min(n, head.length - kept);
				System.arraycopy(b, off, head, kept, k);
				kept += k;
			}
			return n;
		}

		/** Reads up to the size of the head, for an error message; an error reading is part of that message. */
		void fillHead() {
			try {
				while (kept < head.length && read(new byte[head.length - kept]) >= 0) {
					// kept grows
				}
			} catch (IOException e) {
				kept = Math.min(kept, head.length);
			}
		}

		String head() {
			return "\"" + new String(head, 0, kept, StandardCharsets.UTF_8).replace("\n", "\\n") + "\""
					+ (kept == head.length ? "..." : "");
		}

		/** Leaves the body open: a parser closing its input at the document's end leaves the rest to be read. */
		@Override
		public void close() {
			// the caller closes the body itself
		}
	}
}
