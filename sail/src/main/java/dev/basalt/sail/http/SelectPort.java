package dev.basalt.sail.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.Function;

import org.eclipse.rdf4j.query.MalformedQueryException;
import org.eclipse.rdf4j.query.Query;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.query.TupleQuery;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultFormat;
import org.eclipse.rdf4j.query.resultio.QueryResultIO;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.sail.query.QueryFront;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * A second, lean listener of a Basalt server for the SELECT queries a federation front sends its members
 * (docs/federation.md, "The member's select port"): HTTP/1.1 on blocking sockets, one thread per connection,
 * which reads a request, answers it and waits for the next on the same kept-alive connection. It answers
 * {@code POST /…/repositories/ID} with a SPARQL SELECT as the body ({@code application/sparql-query}, the
 * SPARQL 1.1 protocol's direct POST) in RDF4J's binary results format, chunked, and nothing else: any other
 * method, body type, query form or {@code Accept} is refused with an HTTP error and a one-line message. The
 * query is answered as {@link SparqlFastPath} answers it (the repository's query front door when the shape's
 * plan is kept, else a prepared query on a connection; inferred statements included).
 *
 * <p>Why: a request through Jetty's selector and thread pool wakes three threads (the selector, the thread that
 * runs the request, the selector again to watch the connection) and passes the servlet filters; a front asks
 * every member for each star, so that fixed cost is paid once per member and query. Here a request wakes only
 * the connection's thread. The port has no authentication, like RDF4J Server: bind it to the loopback or a
 * private network only.
 *
 * <p>An evaluation that fails before the answer's first bytes are written is answered HTTP 400 (a malformed
 * query) or 500 with the error's message; one that fails later closes the connection without the chunked
 * answer's last chunk, so the client sees a broken answer, never a shorter one.
 *
 * <p>Thread rules: {@link #start} and {@link #close} are called by the owner (the server webapp's filter); the
 * connections' threads ({@link BlockingListener}, at most {@value #MAX_CONNECTIONS}) share only the repository
 * lookup (thread-safe, the repository manager's); each request's state is its thread's.
 */
public final class SelectPort implements AutoCloseable {
    /** {@code -Dbasalt.server.selectPort=PORT} or {@code HOST:PORT}: start a select port (host default: loopback). */
    public static final String PROPERTY = "basalt.server.selectPort";
    static final int MAX_CONNECTIONS = 256;
    static final int MAX_BODY_BYTES = 16 * 1024 * 1024;
    /** A connection with no request for this long is closed (the front closes its idle ones after 15 s). */
    static final int IDLE_MILLIS = 120_000;
    private static final Logger logger = LoggerFactory.getLogger(SelectPort.class);
    private static final String BINARY = TupleQueryResultFormat.BINARY.getDefaultMIMEType();

    private final Function<String, Repository> repositories;
    private BlockingListener listener;

    private SelectPort(Function<String, Repository> repositories) {
        this.repositories = repositories;
    }

    /**
     * Listens on {@code address} ({@code PORT} on the loopback, or {@code HOST:PORT}) and answers with the
     * repositories {@code repositories} names (null: no such repository, HTTP 404).
     */
    public static SelectPort start(String address, Function<String, Repository> repositories) throws IOException {
        int colon = address.lastIndexOf(':');
        String host = colon < 0 ? null : address.substring(0, colon);
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + PROPERTY + " must be PORT or HOST:PORT, got '" + address + "'");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("-D" + PROPERTY + ": port " + port + " is not between 0 and 65535");
        }
        InetAddress bind = host == null || host.isEmpty() ? InetAddress.getLoopbackAddress() : InetAddress.getByName(host);
        SelectPort selectPort = new SelectPort(repositories);
        selectPort.listener = BlockingListener.start(new InetSocketAddress(bind, port), "basalt-select-port",
                MAX_CONNECTIONS, IDLE_MILLIS, selectPort::serve);
        logger.info("select port listening on {}:{}", bind.getHostAddress(), selectPort.port());
        return selectPort;
    }

    /** Connections accepted since the port opened. */
    public long accepted() {
        return listener.accepted();
    }

    /** Stops listening and closes the open connections. */
    @Override
    public void close() {
        listener.close();
    }

    /** The port listened on (the one chosen when started with port 0). */
    public int port() {
        return listener.port();
    }

    /** Answers the connection's requests in turn until it closes, asks to close, or sends something unreadable. */
    private void serve(Socket socket, InputStream in, OutputStream out) throws IOException {
        while (true) {
            Request request = Request.read(in, out);
            if (request == null || !answer(request, out) || request.close) {
                return; // the client closed the connection between requests, or the answer ends it
            }
        }
    }

    /** Answers one request; false when the connection must be closed after it. */
    private boolean answer(Request request, OutputStream out) throws IOException {
        Repository repository = request.repositoryId == null ? null : repositories.apply(request.repositoryId);
        if (repository == null) {
            out.write(plain(404, "no repository '" + request.repositoryId + "' at " + request.target));
            return true;
        }
        TupleQueryResult kept = repository instanceof BasaltRepository basalt && basalt.front != null
                ? basalt.front.select(request.query, true) : null;
        if (kept != null) {
            return write(kept, out);
        }
        RepositoryConnection connection;
        try {
            connection = repository.getConnection();
        } catch (RuntimeException e) {
            out.write(plain(500, "the repository did not open a connection: " + e.getMessage()));
            return true;
        }
        try (connection) {
            TupleQueryResult result;
            try {
                Query query = connection.prepareQuery(QueryLanguage.SPARQL, request.query, null);
                if (!(query instanceof TupleQuery tuple)) {
                    out.write(plain(400, "the select port answers SELECT queries only; send other queries to the"
                            + " repository's SPARQL endpoint"));
                    return true;
                }
                result = tuple.evaluate();
            } catch (MalformedQueryException e) {
                out.write(plain(400, "MALFORMED QUERY: " + e.getMessage()));
                return true;
            } catch (RuntimeException | StackOverflowError e) {
                out.write(plain(500, "Query evaluation error: " + e.getMessage()));
                return true;
            }
            return write(result, out);
        }
    }

    /**
     * Writes the rows as a chunked binary answer; the head and a small answer go out in one write. A failure
     * while rows are read leaves the answer without its last chunk (the caller closes the connection).
     */
    private static boolean write(TupleQueryResult result, OutputStream socketOut) throws IOException {
        Chunked body = new Chunked(socketOut);
        try (result) {
            QueryResults.report(result, QueryResultIO.createTupleWriter(TupleQueryResultFormat.BINARY, body));
        } catch (RuntimeException e) {
            if (!body.started()) {
                socketOut.write(plain(500, "Query evaluation error: " + e.getMessage()));
                return true;
            }
            logger.debug("select port answer broken off", e);
            return false;
        }
        body.finish();
        return true;
    }

    private static byte[] plain(int status, String message) {
        return HttpHead.plainAnswer(status, message, false);
    }

    /** One request: its target, the repository it names, the query, and whether the client asked to close. */
    record Request(String target, String repositoryId, String query, boolean close) {
        /** Reads a request; null when the connection ends before its first byte. */
        static Request read(InputStream in, OutputStream out) throws IOException {
            HttpHead head = HttpHead.read(in);
            if (head == null) {
                return null;
            }
            if (!head.method().equals("POST")) {
                throw new HttpHead.Refused(405, "the select port answers POST with a SPARQL SELECT as the body, not "
                        + HttpHead.abbreviate(head.method()));
            }
            if (head.header("content-length") == null) {
                throw new HttpHead.Refused(411, "the select port reads a body of a given Content-Length");
            }
            byte[] body = head.body(in, out, MAX_BODY_BYTES);
            String type = head.header("content-type");
            String mime = type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
            if (!mime.equals("application/sparql-query")) {
                throw new HttpHead.Refused(415, "the select port reads a body of type application/sparql-query, not '"
                        + HttpHead.abbreviate(mime) + "'");
            }
            String accept = head.header("accept");
            if (accept != null && !acceptsBinary(accept)) {
                throw new HttpHead.Refused(406, "the select port answers in " + BINARY + " only; Accept was "
                        + HttpHead.abbreviate(accept));
            }
            return new Request(head.target(), repositoryId(head.target()), new String(body, StandardCharsets.UTF_8),
                    head.closes());
        }

        /** {@code ID} of a target {@code …/repositories/ID}, else null. */
        static String repositoryId(String target) {
            int query = target.indexOf('?');
            String path = query < 0 ? target : target.substring(0, query);
            int at = path.lastIndexOf("/repositories/");
            if (at < 0) {
                return null;
            }
            String id = path.substring(at + "/repositories/".length());
            return id.isEmpty() || id.contains("/") ? null : id;
        }

        private static boolean acceptsBinary(String accept) {
            for (String range : accept.split(",")) {
                String[] params = range.split(";");
                String type = params[0].trim().toLowerCase(Locale.ROOT);
                if (type.equals(BINARY) || type.equals("*/*") || type.equals("application/*")) {
                    boolean refused = false;
                    for (int i = 1; i < params.length; i++) {
                        String p = params[i].trim().replace(" ", "");
                        refused |= p.equals("q=0") || p.matches("q=0\\.0*");
                    }
                    if (!refused) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /**
     * The answer's body as HTTP/1.1 chunks of up to 16 KiB, the response head before the first; {@link #finish}
     * writes what is left, the last chunk and the end in one write.
     */
    static final class Chunked extends OutputStream {
        private static final byte[] HEAD = ("HTTP/1.1 200 OK\r\nContent-Type: " + BINARY
                + "\r\nTransfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        private static final int CHUNK = 16 * 1024;
        private final OutputStream out;
        private final byte[] buffer = new byte[CHUNK];
        private int used;
        private boolean started;

        Chunked(OutputStream out) {
            this.out = out;
        }

        boolean started() {
            return started;
        }

        @Override
        public void write(int b) throws IOException {
            if (used == CHUNK) {
                emit(false);
            }
            buffer[used++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                if (used == CHUNK) {
                    emit(false);
                }
                int n = Math.min(len, CHUNK - used);
                System.arraycopy(b, off, buffer, used, n);
                used += n;
                off += n;
                len -= n;
            }
        }

        @Override
        public void flush() {
            // chunks go out when full and at the end: a small answer is one write
        }

        void finish() throws IOException {
            emit(true);
            out.flush();
        }

        private void emit(boolean last) throws IOException {
            byte[] size = used == 0 ? new byte[0] : (Integer.toHexString(used) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            byte[] end = last ? (used == 0 ? "0\r\n\r\n" : "\r\n0\r\n\r\n").getBytes(StandardCharsets.US_ASCII)
                    : "\r\n".getBytes(StandardCharsets.US_ASCII);
            byte[] head = started ? new byte[0] : HEAD;
            byte[] all = new byte[head.length + size.length + used + end.length];
            int at = 0;
            System.arraycopy(head, 0, all, at, head.length);
            at += head.length;
            System.arraycopy(size, 0, all, at, size.length);
            at += size.length;
            System.arraycopy(buffer, 0, all, at, used);
            at += used;
            System.arraycopy(end, 0, all, at, end.length);
            out.write(all);
            started = true;
            used = 0;
        }
    }
}
