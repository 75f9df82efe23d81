package dev.basalt.federation;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.basalt.sail.http.client.HttpConnection;
import dev.basalt.sail.http.client.SocketHttpConnection;

/**
 * The kept-alive HTTP/1.1 connections of the front's own requests to one member ({@link MemberHttp}): a
 * POST with a body on a connection taken from a pool of idle ones ({@link SocketHttpConnection}, the
 * project's minimal HTTP/1.1 client, which also reopens a kept connection the member closed and sends the
 * request once more), and the answer read on the calling thread. A general client's request pipeline
 * (Apache HttpClient, {@code java.net.http}) cost the front more CPU than the member's answer did
 * (docs/benchmarks-federation.md).
 *
 * <p>A connection goes back to the pool only when its answer was read to the end and the member did not
 * ask to close it; one idle for longer than {@value #IDLE_MILLIS} ms is closed rather than reused.
 *
 * <p>Thread-safe: each request holds its connection alone; the pool is a concurrent deque.
 */
final class MemberConnections implements AutoCloseable {
    static final long IDLE_MILLIS = 15_000;

    private final String host;
    private final int port;
    private final String target;
    private final ConcurrentLinkedDeque<Idle> idle = new ConcurrentLinkedDeque<>();
    private final AtomicLong requestsSent;
    private volatile boolean closed;

    /** A pooled connection and when it was given back. */
    private record Idle(SocketHttpConnection connection, long since) {
    }

    /** @param url the member's http URL the requests go to; {@code requestsSent} counts every request sent */
    MemberConnections(String url, AtomicLong requestsSent) {
        URI uri = URI.create(url);
        if (!"http".equals(uri.getScheme())) {
            throw new IllegalArgumentException("a member is reached over http, not " + url);
        }
        this.host = uri.getHost();
        this.port = uri.getPort() < 0 ? 80 : uri.getPort();
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        this.target = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        this.requestsSent = requestsSent;
    }

    /**
     * Sends {@code body} and returns the answer with its body unread; {@code timeoutMillis} bounds the
     * connect and each wait for more bytes. The caller closes the answer.
     */
    Answer post(byte[] body, String contentType, String accept, int timeoutMillis) throws IOException {
        return begin(body, contentType, accept, timeoutMillis).receive();
    }

    /**
     * Sends {@code body} without waiting for the answer ({@link Sent#receive()} waits for it), so one
     * thread can send to every member before it reads any answer.
     */
    Sent begin(byte[] body, String contentType, String accept, int timeoutMillis) throws IOException {
        if (closed) {
            throw new IOException("the front is closing");
        }
        SocketHttpConnection connection = null;
        Idle reused;
        while ((reused = idle.pollFirst()) != null) {
            if (System.nanoTime() - reused.since < TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS)) {
                connection = reused.connection;
                break;
            }
            reused.connection.close();
        }
        if (connection == null) {
            connection = new SocketHttpConnection(host, port, timeoutMillis);
        }
        try {
            connection.setReadTimeout(timeoutMillis);
            requestsSent.incrementAndGet();
            connection.begin("POST", target, accept, contentType, body);
            return new Sent(this, connection);
        } catch (IOException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** A request written on its connection whose answer is not read yet. */
    static final class Sent {
        private final MemberConnections pool;
        private final SocketHttpConnection connection;

        private Sent(MemberConnections pool, SocketHttpConnection connection) {
            this.pool = pool;
            this.connection = connection;
        }

        /** Waits for the answer's head; the caller closes the answer. */
        Answer receive() throws IOException {
            try {
                return new Answer(pool, connection, connection.receive());
            } catch (IOException | RuntimeException e) {
                connection.close();
                throw e;
            }
        }

        /** Closes the connection without reading the answer (a request given up on). */
        void abort() {
            connection.close();
        }
    }

    private void release(SocketHttpConnection connection) {
        if (closed || !connection.isOpen()) {
            connection.close();
            return;
        }
        idle.offerFirst(new Idle(connection, System.nanoTime()));
    }

    @Override
    public void close() {
        closed = true;
        Idle connection;
        while ((connection = idle.pollFirst()) != null) {
            connection.connection.close();
        }
    }

    /**
     * An answer: its status and content type, and its body as a stream ({@link #body()}). Closing the
     * answer reads what is left of the body and gives the connection back to the pool, or closes it.
     */
    static final class Answer implements AutoCloseable {
        private final MemberConnections pool;
        private final SocketHttpConnection connection;
        private final HttpConnection.Response response;
        private boolean closed;

        private Answer(MemberConnections pool, SocketHttpConnection connection, HttpConnection.Response response) {
            this.pool = pool;
            this.connection = connection;
            this.response = response;
        }

        int status() {
            return response.status();
        }

        /** The answer's Content-Type, or null. */
        String contentType() {
            return response.contentType();
        }

        /** The answer's body, ending where the answer ends. */
        InputStream body() {
            return response.body();
        }

        /** Gives the connection back when the rest of the body could be read, else closes it. */
        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                response.body().close();
            } catch (IOException e) {
                connection.close();
            }
            pool.release(connection);
        }

        /** Closes the connection whatever was read (a request given up on). */
        void abort() {
            closed = true;
            connection.close();
        }
    }
}
