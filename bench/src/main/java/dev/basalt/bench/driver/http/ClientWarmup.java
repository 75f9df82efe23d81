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
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;

import dev.basalt.bench.driver.QueryForm;

/**
 * A SPARQL endpoint inside the bench's own process that answers every query at once with answers of the asked-for
 * format built in advance ({@link WarmupAnswers}), so that the bench's client code (URL encoding, its HTTP client, the
 * result counters and the JDK's StAX parser below them) is compiled by the JIT before any server is measured, on the
 * paths real answers take. Without it the first endpoint a {@code bsbm-http} invocation measures pays for the client's
 * warm-up in its cold figures, and the others do not (an order artefact; docs/benchmarks-coldstart.md). What the
 * warm-up must cover is what a flight recording showed the JIT deoptimizing afterwards: answers longer than the
 * parser's buffers, with indentation and line breaks between elements, every kind of binding, varied row counts,
 * bodies framed by length and in chunks of several sizes, read while they still arrive.
 *
 * <p>The answers: for each query form and media type a fixed list ({@link WarmupAnswers}: SPARQL XML, JSON or TSV
 * results of 0 to 100 solutions, an ASK's true and false, RDF/XML or N-Triples graphs of 0 to about 200 statements),
 * handed out in turn on each connection. The framing turns with them: framed by {@code Content-Length}
 * or in chunks of 4, 8 or 32 KiB, written in one write or in pieces of 1,460 bytes to 16 KiB with a flush after each
 * (as a server writes what it streams). The query's form is read from its text without regular expressions
 * ({@link #formOf}), so that the endpoint's own thread does not train the JIT's profile of the JDK's regex classes on
 * patterns the client does not use. A request without a query or Accept header, with a text that is no query, or for a
 * format it has no answer for is answered with status 400. Deterministic: the same requests get the same answers in
 * the same framing in every run.
 *
 * <p>It listens on the loopback interface on a port the system chooses and reads just enough HTTP/1.1 for the bench's
 * own client (request line, {@code Accept} and {@code Content-Length} headers, kept-alive connections), one thread
 * per connection, without Nagle's delay (with it, a head written alone and then a body shorter than a segment waited
 * for the client's delayed acknowledgement, which on this machine's loopback with BBR stalled a connection for
 * minutes). Thread-safe: the answers are immutable, built once; {@link #close} stops the listener and its threads.
 */
public final class ClientWarmup implements AutoCloseable {
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
				List<WarmupAnswers.Answer> answers = query == null || accept == null ? List.of()
						: answers(formOf(query), accept);
				answered++;
				if (answers.isEmpty()) {
					out.write(response("400 Bad Request", "text/plain",
							ascii("no answer for this query and Accept header"), 0));
					out.flush();
					continue;
				}
				byte[] body = answers.get((int) (answered % answers.size())).body();
				int framing = (int) (answered / answers.size() % FRAMINGS.length);
				byte[] response = response("200 OK", accept, body, FRAMINGS[framing][0]);
				int piece = FRAMINGS[framing][1] == 0 ? response.length : FRAMINGS[framing][1];
				for (int at = 0; at < response.length; at += piece) {
					out.write(response, at, Math.min(piece, response.length - at));
					out.flush();
				}
			}
		} catch (IOException | RuntimeException e) {
			// the client went away or sent something this endpoint does not read: the connection ends
		}
	}

	/**
	 * How answers go out, in turn: the chunk size (0: framed by {@code Content-Length}) and the size of the writes
	 * (0: the whole response in one).
	 */
	private static final int[][] FRAMINGS = { { 0, 0 }, { 4096, 0 }, { 8192, 8192 + 7 }, { 0, 16 * 1024 },
			{ 32 * 1024, 0 }, { 4096, 1460 } };

	/**
	 * A response's bytes: status line, {@code Content-Type}, and the body framed by {@code Content-Length} or, with
	 * {@code chunk} greater than 0, in chunks of at most that many bytes (as Jetty sends answers it streams).
	 */
	static byte[] response(String status, String type, byte[] body, int chunk) {
		boolean chunked = chunk > 0;
		ByteArrayOutputStream b = new ByteArrayOutputStream(body.length + 256);
		b.writeBytes(ascii("HTTP/1.1 " + status + "\r\nContent-Type: " + type + "; charset=UTF-8\r\n"
				+ (chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + body.length) + "\r\n\r\n"));
		if (!chunked) {
			b.writeBytes(body);
			return b.toByteArray();
		}
		for (int at = 0; at < body.length; at += chunk) {
			int n = Math.min(chunk, body.length - at);
			b.writeBytes(ascii(Integer.toHexString(n) + "\r\n"));
			b.write(body, at, n);
			b.writeBytes(ascii("\r\n"));
		}
		b.writeBytes(ascii("0\r\n\r\n"));
		return b.toByteArray();
	}

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

	/** The answers for a query of form {@code form} in media type {@code accept} (empty: none in that type). */
	static List<WarmupAnswers.Answer> answers(QueryForm form, String accept) {
		return form == null ? List.of() : WarmupAnswers.of(form, accept);
	}

	/**
	 * The form of a query: its first keyword outside IRIs and comments that is not a prefix name, or null. Read
	 * without regular expressions, so that the endpoint's thread trains the JIT's profile of the JDK's regex classes on
	 * nothing but what the client itself matches.
	 */
	static QueryForm formOf(String query) {
		int i = 0;
		int n = query.length();
		while (i < n) {
			char c = query.charAt(i);
			if (c == '<') {
				int close = query.indexOf('>', i);
				i = close < 0 ? n : close + 1;
			} else if (c == '#') {
				int eol = query.indexOf('\n', i);
				i = eol < 0 ? n : eol + 1;
			} else if (Character.isLetter(c)) {
				int end = i;
				while (end < n && Character.isLetterOrDigit(query.charAt(end))) {
					end++;
				}
				String word = query.substring(i, end).toUpperCase(Locale.ROOT);
				boolean prefixName = end < n && query.charAt(end) == ':';
				if (!prefixName) {
					for (QueryForm f : QueryForm.values()) {
						if (f.name().equals(word)) {
							return f;
						}
					}
				}
				i = end;
			} else {
				i++;
			}
		}
		return null;
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
}
