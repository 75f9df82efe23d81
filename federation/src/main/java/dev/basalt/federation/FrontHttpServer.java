package dev.basalt.federation;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.Semaphore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.sail.http.BlockingListener;
import dev.basalt.sail.http.HttpHead;

/**
 * The front's HTTP/1.1 server: blocking sockets, one thread per open connection, which reads a request, has
 * its path's handler answer it and waits for the next request on the same kept-alive connection. Every answer
 * of the front is complete before it is sent (the failure rule, docs/federation.md), so it goes out with its
 * {@code Content-Length} in one write. The JDK's server, used before, woke its dispatcher thread twice and a
 * worker once per request (docs/benchmarks-federation.md); here a request wakes its connection's thread only.
 *
 * <p>At most {@value #MAX_CONNECTIONS} connections are open (one beyond is answered 503 and closed) and at most
 * {@code maxRunning} requests are handled at once (further ones wait for a slot), as the JDK server's fixed pool
 * bounded them.
 *
 * <p>Thread rules: {@link #start} and {@link #close} by the owner; the connections' threads
 * ({@link BlockingListener}) share the handlers (which must be thread-safe) and the running slots (a semaphore);
 * each request's exchange is its thread's.
 */
final class FrontHttpServer implements AutoCloseable {
    static final int MAX_CONNECTIONS = 512;
    static final int MAX_BODY_BYTES = 16 * 1024 * 1024;
    /** A connection with no request for this long is closed. */
    static final int IDLE_MILLIS = 300_000;
    private static final Logger LOG = LoggerFactory.getLogger(FrontHttpServer.class);

    /** One request, answered once with {@link #send}. */
    interface Exchange {
        String method();

        /** The request target's raw query string (after {@code ?}), or null. */
        String rawQuery();

        /** A header's first value, or null; {@code name} case-insensitive. */
        String header(String name);

        byte[] body();

        void send(int status, String contentType, byte[] body) throws IOException;
    }

    /** Answers requests of one path. */
    interface Handler {
        void handle(Exchange exchange) throws IOException;
    }

    private final Map<String, Handler> handlers;
    private final Semaphore running;
    private BlockingListener listener;

    private FrontHttpServer(Map<String, Handler> handlers, int maxRunning) {
        this.handlers = Map.copyOf(handlers);
        this.running = new Semaphore(maxRunning);
    }

    /** Listens on {@code host:port} (0: a free port); {@code handlers} by exact path. */
    static FrontHttpServer start(String host, int port, Map<String, Handler> handlers, int maxRunning) throws IOException {
        FrontHttpServer s = new FrontHttpServer(handlers, maxRunning);
        s.listener = BlockingListener.start(new InetSocketAddress(InetAddress.getByName(host), port), "basalt-front",
                MAX_CONNECTIONS, IDLE_MILLIS, s::serve);
        return s;
    }

    int port() {
        return listener.port();
    }

    @Override
    public void close() {
        listener.close();
    }

    private void serve(Socket socket, InputStream in, OutputStream out) throws IOException {
        while (true) {
            HttpHead head = HttpHead.read(in);
            if (head == null) {
                return;
            }
            byte[] body = head.body(in, out, MAX_BODY_BYTES);
            boolean close = head.closes();
            String target = head.target();
            int question = target.indexOf('?');
            String path = question < 0 ? target : target.substring(0, question);
            Handler handler = handlers.get(path);
            Answered exchange = new Answered(head, question < 0 ? null : target.substring(question + 1), body, out,
                    close);
            if (handler == null) {
                exchange.send(404, "text/plain; charset=UTF-8", ("no resource " + path + "\n")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            } else {
                running.acquireUninterruptibly();
                try {
                    handler.handle(exchange);
                } catch (RuntimeException e) {
                    LOG.warn("the front failed on a request to {}", path, e);
                } finally {
                    running.release();
                }
                if (!exchange.sent) {
                    exchange.send(500, "text/plain; charset=UTF-8", "the front did not answer\n"
                            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
            }
            if (close) {
                return;
            }
        }
    }

    /** A request read whole and its answer, written once with its head. */
    private static final class Answered implements Exchange {
        private final HttpHead head;
        private final String rawQuery;
        private final byte[] body;
        private final OutputStream out;
        private final boolean close;
        boolean sent;

        Answered(HttpHead head, String rawQuery, byte[] body, OutputStream out, boolean close) {
            this.head = head;
            this.rawQuery = rawQuery;
            this.body = body;
            this.out = out;
            this.close = close;
        }

        @Override
        public String method() {
            return head.method();
        }

        @Override
        public String rawQuery() {
            return rawQuery;
        }

        @Override
        public String header(String name) {
            return head.header(name.toLowerCase(java.util.Locale.ROOT));
        }

        @Override
        public byte[] body() {
            return body;
        }

        @Override
        public void send(int status, String contentType, byte[] answer) throws IOException {
            if (sent) {
                throw new IllegalStateException("answered twice");
            }
            sent = true;
            if (answer.length <= 64 * 1024) {
                out.write(HttpHead.answer(status, contentType, answer, close)); // one write, one segment
            } else {
                out.write(HttpHead.head(status, contentType, answer.length, close));
                out.write(answer);
            }
            out.flush();
        }
    }
}
