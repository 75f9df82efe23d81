package dev.basalt.federation;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A minimal HTTP/1.1 client for the front's own requests to one member ({@link MemberHttp}): a POST with
 * a body, on a kept-alive socket taken from a pool of idle ones, and the answer read on the calling thread
 * from a length-delimited or chunked body. It does only what a member's SPARQL endpoint needs (no
 * redirects, cookies, authentication, compression, proxies or TLS), so a request costs one buffered write
 * and the reads of the answer: a general client's request pipeline cost the front more CPU than the
 * member's answer did.
 *
 * <p>A socket goes back to the pool only when its answer was read to the end and the member did not ask to
 * close it; one idle for longer than {@value #IDLE_MILLIS} ms is closed rather than reused (the member
 * may have closed it). A request on a reused socket that fails before any byte of the answer arrived (the
 * member closed it meanwhile) is sent once more on a new socket; the front's requests only read, so
 * sending one twice is harmless.
 *
 * <p>Thread-safe: each request holds its socket alone; the pool is a concurrent deque.
 */
final class LeanHttp implements AutoCloseable {
    static final long IDLE_MILLIS = 15_000;

    private final String host;
    private final int port;
    private final byte[] requestHead;
    private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();
    private final AtomicLong requestsSent;
    private volatile boolean closed;

    /** @param url the member's http URL the requests go to; {@code requestsSent} counts every request sent */
    LeanHttp(String url, AtomicLong requestsSent) {
        URI uri = URI.create(url);
        if (!"http".equals(uri.getScheme())) {
            throw new IllegalArgumentException("a member is reached over http, not " + url);
        }
        this.host = uri.getHost();
        this.port = uri.getPort() < 0 ? 80 : uri.getPort();
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path += "?" + uri.getRawQuery();
        }
        this.requestHead = ("POST " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        this.requestsSent = requestsSent;
    }

    /**
     * Sends {@code body} and returns the answer with its body unread; {@code timeoutMillis} bounds the
     * connect and each wait for more bytes. The caller closes the answer.
     */
    Answer post(byte[] body, String contentType, String accept, int timeoutMillis) throws IOException {
        if (closed) {
            throw new IOException("the front is closing");
        }
        byte[] head = head(body.length, contentType, accept);
        Connection reused;
        while ((reused = idle.pollFirst()) != null) {
            if (System.nanoTime() - reused.idleSince < TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS)) {
                break;
            }
            reused.close();
        }
        if (reused != null) {
            try {
                return exchange(reused, head, body, timeoutMillis);
            } catch (Stale e) {
                reused.close(); // closed by the member while idle: once more on a new socket
            }
        }
        Connection fresh = connect(timeoutMillis);
        try {
            return exchange(fresh, head, body, timeoutMillis);
        } catch (Stale e) {
            throw (IOException) e.getCause();
        }
    }

    private byte[] head(int length, String contentType, String accept) {
        String rest = "Content-Type: " + contentType + "\r\nAccept: " + accept + "\r\nContent-Length: " + length
                + "\r\n\r\n";
        byte[] tail = rest.getBytes(StandardCharsets.US_ASCII);
        byte[] head = new byte[requestHead.length + tail.length];
        System.arraycopy(requestHead, 0, head, 0, requestHead.length);
        System.arraycopy(tail, 0, head, requestHead.length, tail.length);
        return head;
    }

    private Connection connect(int timeoutMillis) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setKeepAlive(true);
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            return new Connection(socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** A failure on a reused socket before any byte of the answer arrived. */
    private static final class Stale extends Exception {
        Stale(IOException cause) {
            super(cause.toString(), cause, false, false);
        }
    }

    private Answer exchange(Connection connection, byte[] head, byte[] body, int timeoutMillis)
            throws IOException, Stale {
        boolean reused = connection.used;
        connection.used = true;
        connection.answered = false;
        int status;
        try {
            connection.socket.setSoTimeout(timeoutMillis);
            byte[] request = new byte[head.length + body.length];
            System.arraycopy(head, 0, request, 0, head.length);
            System.arraycopy(body, 0, request, head.length, body.length);
            requestsSent.incrementAndGet();
            connection.out.write(request);
            connection.out.flush();
            status = connection.statusLine();
        } catch (IOException e) {
            if (reused && !connection.answered) {
                throw new Stale(e);
            }
            connection.close();
            throw e;
        }
        try {
            String type = null;
            long length = -1;
            boolean chunked = false;
            boolean keep = true;
            String line;
            while (!(line = connection.line()).isEmpty()) {
                int colon = line.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = line.substring(colon + 1).trim();
                switch (name) {
                case "content-type" -> type = value;
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> keep = !value.equalsIgnoreCase("close");
                default -> {
                }
                }
            }
            if (!chunked && length < 0) {
                keep = false; // the body ends when the member closes the socket
            }
            return new Answer(this, connection, status, type, chunked ? -2 : length, keep);
        } catch (IOException | RuntimeException e) {
            connection.close();
            throw e instanceof IOException io ? io : new IOException("a malformed answer from the member: " + e, e);
        }
    }

    private void release(Connection connection) {
        if (closed) {
            connection.close();
            return;
        }
        connection.idleSince = System.nanoTime();
        idle.offerFirst(connection);
    }

    @Override
    public void close() {
        closed = true;
        Connection connection;
        while ((connection = idle.pollFirst()) != null) {
            connection.close();
        }
    }

    /** One socket to the member, with its buffered streams. */
    private static final class Connection {
        final Socket socket;
        final LeanHttpStreams.SocketInput in;
        final OutputStream out;
        boolean used;
        boolean answered;
        long idleSince;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new LeanHttpStreams.SocketInput(socket.getInputStream());
            this.out = socket.getOutputStream();
        }

        /** Reads {@code HTTP/1.1 200 OK} and returns the status; marks the connection answered at its first byte. */
        int statusLine() throws IOException {
            int first = in.read();
            if (first < 0) {
                throw new EOFException("the member closed the connection");
            }
            answered = true;
            String line = (char) first + line();
            int space = line.indexOf(' ');
            if (!line.startsWith("HTTP/1.") || space < 0 || line.length() < space + 4) {
                throw new IOException("not an HTTP/1.1 answer: " + line);
            }
            return Integer.parseInt(line.substring(space + 1, space + 4));
        }

        /** One header line without its CRLF (ISO-8859-1, as HTTP headers are). */
        String line() throws IOException {
            StringBuilder line = new StringBuilder(64);
            while (true) {
                int b = in.read();
                if (b < 0) {
                    throw new EOFException("the member closed the connection in the answer's headers");
                }
                if (b == '\n') {
                    int end = line.length();
                    return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
                }
                line.append((char) b);
                if (line.length() > 65_536) {
                    throw new IOException("an answer header line longer than 64 KiB");
                }
            }
        }

        void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // closing a socket the member may have closed already
            }
        }
    }

    /**
     * An answer: its status and content type, and its body as a stream ({@link #body()}). Closing the
     * answer reads what is left of a short body and gives the socket back to the pool, or closes it.
     */
    static final class Answer implements AutoCloseable {
        private final LeanHttp client;
        private final Connection connection;
        private final int status;
        private final String contentType;
        private final LeanHttpStreams.Body body;
        private final boolean keep;
        private boolean closed;

        private Answer(LeanHttp client, Connection connection, int status, String contentType, long length, boolean keep) {
            this.client = client;
            this.connection = connection;
            this.status = status;
            this.contentType = contentType;
            this.keep = keep;
            this.body = new LeanHttpStreams.Body(connection.in, length);
        }

        int status() {
            return status;
        }

        /** The answer's Content-Type, or null. */
        String contentType() {
            return contentType;
        }

        /** The answer's body, ending where the answer ends. */
        InputStream body() {
            return body;
        }

        /**
         * Gives the socket back when the body was read to its end (reading up to 64 KiB more to get there),
         * else closes it.
         */
        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            boolean reusable = keep;
            if (reusable) {
                try {
                    reusable = body.skipToEnd(64 * 1024);
                } catch (IOException e) {
                    reusable = false;
                }
            }
            if (reusable) {
                client.release(connection);
            } else {
                connection.close();
            }
        }

        /** Closes the socket whatever was read (a request given up on). */
        void abort() {
            closed = true;
            connection.close();
        }
    }
}
