package dev.basalt.sail.http.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The socket client's HTTP/1.1 framing, against a server that answers each request with raw bytes
 * scripted by the test: Content-Length, chunked bodies with extensions and trailers, bodies ended by
 * the connection, interim 100 responses, truncation, a kept connection the server closed, a server
 * that does not answer within the read timeout, and requests written to two servers before either
 * answer is read.
 */
class SocketHttpConnectionTest {

    private RawServer server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void readsContentLengthBodiesOverOneKeptConnection() throws IOException {
        server = new RawServer(List.of(response("200 OK", "Content-Length: 5", "hello"),
                response("200 OK", "Content-Length: 3", "abc")));
        try (SocketHttpConnection c = server.connect()) {
            assertEquals("hello", body(c.send("GET", "/q?query=a", "text/plain", null, null)));
            assertEquals("abc", body(c.send("GET", "/q?query=b", "text/plain", null, null)));
        }
        assertEquals(1, server.connections.get(), "both requests on one connection");
        assertTrue(server.requests.get(0).startsWith("GET /q?query=a HTTP/1.1\r\n"), server.requests.get(0));
        assertTrue(server.requests.get(0).contains("\r\nAccept: text/plain\r\n"), server.requests.get(0));
    }

    @Test
    void decodesChunkedBodiesWithExtensionsAndTrailers() throws IOException {
        String chunked = "5;name=value\r\nhello\r\n1\r\n \r\nB\r\nchunked....\r\n0\r\nX-Trailer: t\r\n\r\n";
        server = new RawServer(List.of(response("200 OK", "Transfer-Encoding: chunked", chunked),
                response("200 OK", "Content-Length: 2", "ok")));
        try (SocketHttpConnection c = server.connect()) {
            HttpConnection.Response r = c.send("GET", "/", "*/*", null, null);
            assertEquals(200, r.status());
            assertEquals("hello chunked....", body(r));
            assertEquals("ok", body(c.send("GET", "/", "*/*", null, null)), "the connection is usable after the trailer");
        }
        assertEquals(1, server.connections.get());
    }

    @Test
    void skipsInterimResponsesAndSendsAPostBody() throws IOException {
        server = new RawServer(List.of("HTTP/1.1 100 Continue\r\n\r\n"
                + response("200 OK", "Content-Length: 2\r\nContent-Type: text/x; charset=utf-8", "ok")));
        try (SocketHttpConnection c = server.connect()) {
            HttpConnection.Response r = c.send("POST", "/sparql", "*/*", "application/sparql-query",
                    "ASK {}".getBytes(StandardCharsets.UTF_8));
            assertEquals(200, r.status());
            assertEquals("text/x; charset=utf-8", r.contentType());
            assertEquals("ok", body(r));
        }
        String request = server.requests.get(0);
        assertTrue(request.contains("\r\nContent-Type: application/sparql-query\r\nContent-Length: 6\r\n"), request);
        assertTrue(request.endsWith("\r\n\r\nASK {}"), request);
    }

    @Test
    void aBodyWithoutFramingEndsWithTheConnectionAndTheNextRequestReconnects() throws IOException {
        server = new RawServer(List.of("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nto the end", //
                response("200 OK", "Content-Length: 4", "next")));
        try (SocketHttpConnection c = server.connect()) {
            assertEquals("to the end", body(c.send("GET", "/", "*/*", null, null)));
            assertEquals("next", body(c.send("GET", "/", "*/*", null, null)));
        }
        assertEquals(2, server.connections.get());
    }

    @Test
    void aKeptConnectionTheServerClosedIsReopenedOnce() throws IOException {
        server = new RawServer(List.of(response("200 OK", "Content-Length: 1", "a"), RawServer.HANG_UP,
                response("200 OK", "Content-Length: 1", "b")));
        try (SocketHttpConnection c = server.connect()) {
            assertEquals("a", body(c.send("GET", "/", "*/*", null, null)));
            assertEquals("b", body(c.send("GET", "/", "*/*", null, null)));
        }
        assertEquals(2, server.connections.get());
    }

    @Test
    void requestsSentToTwoServersBeforeEitherIsReadAreAnsweredInAnyOrder() throws IOException {
        server = new RawServer(List.of(response("200 OK", "Content-Length: 5", "first"),
                response("200 OK", "Content-Length: 6", "first2")));
        try (RawServer second = new RawServer(List.of(response("200 OK", "Content-Length: 6", "second"), RawServer.HANG_UP,
                response("200 OK", "Content-Length: 7", "second2")));
                SocketHttpConnection a = server.connect(); SocketHttpConnection b = second.connect()) {
            a.begin("POST", "/a", "*/*", "application/sparql-query", "ASK {}".getBytes(StandardCharsets.UTF_8));
            b.begin("GET", "/b", "*/*", null, null);
            assertEquals("second", body(b.receive()));
            assertEquals("first", body(a.receive()));
            assertThrows(IllegalStateException.class, a::receive, "one answer per request sent");
            // the second server closed its kept connection: the request written on it is sent again when read
            b.begin("GET", "/b2", "*/*", null, null);
            a.begin("GET", "/a2", "*/*", null, null);
            assertEquals("first2", body(a.receive()));
            assertEquals("second2", body(b.receive()));
            assertEquals(2, second.connections.get());
            assertTrue(second.requests.get(1).startsWith("GET /b2 HTTP/1.1\r\n"), second.requests.get(1));
        }
        assertEquals(1, server.connections.get());
        assertTrue(server.requests.get(0).endsWith("\r\n\r\nASK {}"), server.requests.get(0));
    }

    @Test
    void truncatedBodiesThrow() throws IOException {
        server = new RawServer(List.of("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort" + RawServer.HANG_UP));
        try (SocketHttpConnection c = server.connect()) {
            InputStream body = c.send("GET", "/", "*/*", null, null).body();
            EOFException e = assertThrows(EOFException.class, body::readAllBytes);
            assertTrue(e.getMessage().contains("after 5 of its 10 bytes"), e.getMessage());
        }
        server.close();
        server = new RawServer(List.of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n" + RawServer.HANG_UP));
        try (SocketHttpConnection c = server.connect()) {
            InputStream body = c.send("GET", "/", "*/*", null, null).body();
            assertThrows(EOFException.class, body::readAllBytes);
        }
    }

    @Test
    void malformedHeadsAndChunksThrow() throws IOException {
        server = new RawServer(List.of("SPARQL/1.0 200 OK\r\n\r\n"));
        try (SocketHttpConnection c = server.connect()) {
            IOException e = assertThrows(IOException.class, () -> c.send("GET", "/", "*/*", null, null));
            assertTrue(e.getMessage().contains("not an HTTP/1.x status line"), e.getMessage());
        }
        server.close();
        server = new RawServer(List.of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"));
        try (SocketHttpConnection c = server.connect()) {
            InputStream body = c.send("GET", "/", "*/*", null, null).body();
            IOException e = assertThrows(IOException.class, body::readAllBytes);
            assertTrue(e.getMessage().contains("bad chunk size"), e.getMessage());
        }
    }

    private static String response(String status, String headers, String body) {
        return "HTTP/1.1 " + status + "\r\n" + headers + "\r\n\r\n" + body;
    }

    @Test
    void aServerThatDoesNotAnswerFailsTheRequestAtTheReadTimeoutWithoutASecondRequest() throws IOException {
        server = new RawServer(List.of(response("200 OK", "Content-Length: 2", "ok"), "", ""));
        try (SocketHttpConnection c = server.connect()) {
            assertEquals("ok", body(c.send("GET", "/", "*/*", null, null)));
            c.setReadTimeout(300);
            long started = System.nanoTime();
            assertThrows(SocketTimeoutException.class, () -> c.send("GET", "/", "*/*", null, null));
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertTrue(millis >= 250 && millis < 4_000, "failed after " + millis + " ms");
        }
        assertEquals(2, server.requests.size(), "the slow request was sent once");
    }

    private static String body(HttpConnection.Response r) throws IOException {
        try (InputStream in = r.body()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * Answers the i-th request it receives (on whatever connection) with the i-th scripted string;
     * {@link #HANG_UP} in a script closes the connection there, before or after the bytes before it.
     */
    private static final class RawServer implements AutoCloseable {
        static final String HANG_UP = "\u0000HANG_UP";

        final ServerSocket socket = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        final List<String> requests = new CopyOnWriteArrayList<>();
        final AtomicInteger connections = new AtomicInteger();
        private final List<String> script;
        private final Thread thread;

        RawServer(List<String> script) throws IOException {
            this.script = new ArrayList<>(script);
            thread = new Thread(this::serve, "raw-http-server");
            thread.setDaemon(true);
            thread.start();
        }

        SocketHttpConnection connect() {
            return new SocketHttpConnection("127.0.0.1", socket.getLocalPort(), 5000);
        }

        private void serve() {
            int next = 0;
            while (!socket.isClosed() && next < script.size()) {
                try (Socket s = socket.accept()) {
                    connections.incrementAndGet();
                    InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream();
                    while (next < script.size()) {
                        String step = script.get(next);
                        if (step.equals(HANG_UP)) {
                            next++;
                            break;
                        }
                        String request = readRequest(in);
                        if (request == null) {
                            break;
                        }
                        requests.add(request);
                        next++;
                        boolean hangUp = step.endsWith(HANG_UP) || step.contains("Connection: close");
                        out.write(step.replace(HANG_UP, "").getBytes(StandardCharsets.UTF_8));
                        out.flush();
                        if (hangUp) {
                            break;
                        }
                    }
                } catch (IOException e) {
                    return;
                }
            }
        }

        /** The request head and, with a Content-Length, its body; null at the end of the connection. */
        private static String readRequest(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return null;
                }
                head.write(b);
            }
            String h = head.toString(StandardCharsets.ISO_8859_1);
            int at = h.indexOf("Content-Length: ");
            if (at >= 0) {
                int length = Integer.parseInt(h.substring(at + 16, h.indexOf("\r\n", at)));
                h += new String(in.readNBytes(length), StandardCharsets.UTF_8);
            }
            return h;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
