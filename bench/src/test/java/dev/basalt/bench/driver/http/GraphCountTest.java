package dev.basalt.bench.driver.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import dev.basalt.bench.driver.QueryForm;
import dev.basalt.bench.driver.http.SparqlHttpClient.Options;
import dev.basalt.bench.driver.http.SparqlHttpClient.Transport;

/**
 * Graph answers counted in bytes, as the BSBM test driver counts them: the whole body is read (its bytes are the
 * count, in every framing, on both transports), and a body that ends before its framing says (Content-Length short,
 * chunked without its last chunk, the connection closed) fails the request instead of counting what arrived. A server
 * on a raw socket sends the exact bytes of each case.
 */
class GraphCountTest {
	private static final String DESCRIBE = "DESCRIBE ?x WHERE { <http://ex.org/r> <http://ex.org/p> ?x }";
	private static final byte[] DOCUMENT = rdfXml(300);

	@Test
	void bytesAreTheWholeBodyInEveryFramingOnBothTransports() throws IOException {
		for (Transport transport : Transport.values()) {
			for (int chunk : new int[] { 0, 1000, 64 * 1024 }) {
				byte[] response = ClientWarmup.response("200 OK", "application/rdf+xml", DOCUMENT, chunk);
				try (CannedServer server = new CannedServer(response);
						SparqlHttpClient client = new SparqlHttpClient(server.uri(), options(transport, GraphCount.BYTES))) {
					String how = transport + ", chunks of " + chunk;
					assertEquals(DOCUMENT.length, client.count(QueryForm.DESCRIBE, DESCRIBE), how);
					assertEquals(DOCUMENT.length, client.count(QueryForm.CONSTRUCT, DESCRIBE), how + ", again");
				}
			}
		}
	}

	@Test
	void statementsAreCountedByParsingTheSameBody() throws IOException {
		byte[] response = ClientWarmup.response("200 OK", "application/rdf+xml", DOCUMENT, 1000);
		for (Transport transport : Transport.values()) {
			try (CannedServer server = new CannedServer(response);
					SparqlHttpClient client = new SparqlHttpClient(server.uri(), options(transport, GraphCount.STATEMENTS))) {
				assertEquals(300, client.count(QueryForm.DESCRIBE, DESCRIBE), transport.name());
			}
		}
	}

	@Test
	void aBodyEndingBeforeItsFramingFails() throws IOException {
		byte[] framed = ClientWarmup.response("200 OK", "application/rdf+xml", DOCUMENT, 0);
		byte[] chunked = ClientWarmup.response("200 OK", "application/rdf+xml", DOCUMENT, 1000);
		byte[][] cutOff = {
				Arrays.copyOf(framed, framed.length - DOCUMENT.length / 2), // Content-Length larger than what came
				Arrays.copyOf(chunked, chunked.length - "0\r\n\r\n".length()), // no last chunk
				Arrays.copyOf(chunked, chunked.length - 500) }; // inside a chunk
		for (Transport transport : Transport.values()) {
			for (int i = 0; i < cutOff.length; i++) {
				for (GraphCount count : GraphCount.values()) {
					try (CannedServer server = new CannedServer(cutOff[i]);
							SparqlHttpClient client = new SparqlHttpClient(server.uri(), options(transport, count))) {
						String how = transport + " " + count + ", cut-off case " + i;
						UncheckedIOException e = assertThrows(UncheckedIOException.class,
								() -> client.count(QueryForm.DESCRIBE, DESCRIBE), how);
						assertTrue(e.getMessage().contains(server.uri().toString()), how + ": " + e.getMessage());
					}
				}
			}
		}
	}

	@Test
	void aBodyFramedByTheConnectionsEndIsReadToThatEnd() throws IOException {
		byte[] head = ("HTTP/1.1 200 OK\r\nContent-Type: application/rdf+xml\r\nConnection: close\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII);
		byte[] response = Arrays.copyOf(head, head.length + DOCUMENT.length);
		System.arraycopy(DOCUMENT, 0, response, head.length, DOCUMENT.length);
		try (CannedServer server = new CannedServer(response);
				SparqlHttpClient client = new SparqlHttpClient(server.uri(), options(Transport.SOCKET, GraphCount.BYTES))) {
			assertEquals(DOCUMENT.length, client.count(QueryForm.DESCRIBE, DESCRIBE));
		}
	}

	@Test
	void bytesCountEveryByteUpToTheEnd() throws IOException {
		byte[] body = new byte[100_003];
		assertEquals(body.length, GraphCount.bytes(new ByteArrayInputStream(body)));
		assertEquals(0, GraphCount.bytes(new ByteArrayInputStream(new byte[0])));
		// a stream handing out one byte per read
		InputStream trickle = new InputStream() {
			private int left = 5000;

			@Override
			public int read() {
				return left-- > 0 ? 'x' : -1;
			}

			@Override
			public int read(byte[] b, int off, int len) {
				if (left <= 0) {
					return -1;
				}
				b[off] = (byte) read();
				return 1;
			}
		};
		assertEquals(5000, GraphCount.bytes(trickle));
	}

	@Test
	void unitsSayWhatIsCounted() {
		assertEquals("bytes", GraphCount.BYTES.unitOf(QueryForm.DESCRIBE));
		assertEquals("bytes", GraphCount.BYTES.unitOf(QueryForm.CONSTRUCT));
		assertEquals("statements", GraphCount.STATEMENTS.unitOf(QueryForm.CONSTRUCT));
		assertEquals("solutions", GraphCount.BYTES.unitOf(QueryForm.SELECT));
		assertEquals(GraphCount.STATEMENTS, GraphCount.named("Statements"));
		assertThrows(IllegalArgumentException.class, () -> GraphCount.named("triples"));
		assertEquals(GraphCount.BYTES, Options.DEFAULT.graphCount(), "the BSBM driver's way by default");
	}

	private static Options options(Transport transport, GraphCount count) {
		return new Options(false, ResultFormat.XML, transport, GraphFormat.RDFXML, count);
	}

	/** An RDF/XML document of {@code statements} statements, one description each. */
	private static byte[] rdfXml(int statements) {
		StringBuilder x = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
				+ "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns:ex=\"http://ex.org/\">\n");
		for (int i = 0; i < statements; i++) {
			x.append("<rdf:Description rdf:about=\"http://ex.org/s").append(i).append("\"><ex:p>value ").append(i)
					.append("</ex:p></rdf:Description>\n");
		}
		return x.append("</rdf:RDF>\n").toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Answers every request with the same bytes, then reads the next request on the connection; after bytes that end
	 * before their framing the client closes the connection, and the server's read ends.
	 */
	private static final class CannedServer implements AutoCloseable {
		private final ServerSocket socket;
		private final Thread thread;

		CannedServer(byte[] response) throws IOException {
			socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
			thread = new Thread(() -> {
				while (!socket.isClosed()) {
					try (Socket s = socket.accept()) {
						answer(s, response);
					} catch (IOException e) {
						// the listening socket closed, or a client went away
					}
				}
			}, "canned-http");
			thread.setDaemon(true);
			thread.start();
		}

		/** Answers the connection's requests, closing it after a response that has no framing of its own. */
		private static void answer(Socket s, byte[] response) throws IOException {
			InputStream in = new BufferedInputStream(s.getInputStream());
			OutputStream out = s.getOutputStream();
			boolean keep = !new String(response, 0, Math.min(400, response.length), StandardCharsets.US_ASCII)
					.contains("Connection: close");
			do {
				if (!skipRequestHead(in)) {
					return;
				}
				out.write(response);
				out.flush();
			} while (keep && complete(response));
		}

		/** Whether a canned response is whole (a chunked one with its last chunk, a framed one with all its bytes). */
		private static boolean complete(byte[] response) {
			String text = new String(response, StandardCharsets.ISO_8859_1);
			if (text.contains("Transfer-Encoding: chunked")) {
				return text.endsWith("\r\n0\r\n\r\n");
			}
			int at = text.indexOf("Content-Length: ");
			int length = Integer.parseInt(text.substring(at + 16, text.indexOf('\r', at)));
			return text.length() - text.indexOf("\r\n\r\n") - 4 == length;
		}

		private static boolean skipRequestHead(InputStream in) throws IOException {
			int matched = 0;
			for (int b = in.read(); b >= 0; b = in.read()) {
				matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
				if (matched == 4) {
					return true;
				}
			}
			return false;
		}

		URI uri() {
			return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/sparql");
		}

		@Override
		public void close() throws IOException {
			socket.close();
		}
	}
}
