package dev.basalt.federation;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.query.MalformedQueryException;
import org.eclipse.rdf4j.query.QueryInterruptedException;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.parser.ParsedQuery;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The federation's SPARQL endpoint: the SPARQL 1.1 protocol's query operation (GET with
 * {@code query=}, POST form-encoded or {@code application/sparql-query}) on {@code /sparql}, answered
 * by FedX over the members. {@code GET /health} answers 200 when every member answers, 503 naming
 * those that do not. {@code POST /refresh} makes the front forget what it learned from the members'
 * data ({@link Federation#refresh()}); loads call it. A front whose warm-up ({@link #warmUp}) found no data to
 * make its queries from (members loaded after it started) warms itself at the first refresh that finds data,
 * before it answers the refresh, so that a load followed by a benchmark measures a warm front. {@code GET /stats} answers counters, one
 * {@code name value} line each ({@code member-requests}: HTTP requests sent to members so far;
 * {@code prepared-hits}: queries whose parse and plan were reused, {@code shape-hits}: queries whose parse
 * was an earlier one of their shape, {@link PreparedQueries}).
 *
 * <p>An answer is complete or it is an error: the front evaluates the whole query into a bounded
 * buffer ({@link FrontSettings#maxResultBytes()}) before it sends a byte, so a member that fails
 * mid-query cannot leave a client with part of an answer. A failed query is answered 503 naming the
 * members that did not answer (found by {@link MemberProbe}); nothing is remembered about the
 * failure, so the next query uses the member again once it is back. Updates are refused: writes go
 * to the owning shard (docs/federation.md).
 *
 * <p>Requests arrive through {@link FrontHttpServer} (blocking sockets, a thread per connection).
 *
 * <p>Thread rules: each request runs on its connection's thread, at most {@link FrontSettings#httpThreads()}
 * at once, each on its own FedX connection; the server and the federation are set once at start. The warm-up's
 * state (its query count, whether it found data) is guarded by the front's monitor: one warm-up runs at a time
 * (a refresh during a warm-up waits for it), and its queries come in over the front's own HTTP server like any
 * client's, on other connections' threads.
 */
public final class SparqlFront implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SparqlFront.class);
    public static final String PATH = "/sparql";
    public static final String REFRESH_PATH = "/refresh";

    private final Federation federation;
    private final FrontSettings settings;
    private final MemberProbe probe;
    private FrontHttpServer server;
    private String endpoint;
    /** Queries of a warm-up; 0 until {@link #warmUp} is called (no warm-up at refresh). Guarded by this. */
    private int warmupQueries;
    /** Whether a warm-up found data and sent its queries. Guarded by this. */
    private boolean warmed;

    private SparqlFront(Federation federation, FrontSettings settings) {
        this.federation = federation;
        this.settings = settings;
        this.probe = new MemberProbe(federation.members(),
                settings.memberTimeout().compareTo(java.time.Duration.ofSeconds(5)) < 0
                        ? settings.memberTimeout() : java.time.Duration.ofSeconds(5));
    }

    /** Starts serving on {@code host:port} (port 0 picks a free one). The front owns the federation from now on. */
    public static SparqlFront start(Federation federation, FrontSettings settings, String host, int port) throws IOException {
        SparqlFront front = new SparqlFront(federation, settings);
        front.server = FrontHttpServer.start(host, port, Map.of(PATH, front::handleQuery, "/health", front::handleHealth,
                REFRESH_PATH, front::handleRefresh, "/stats", front::handleStats), settings.httpThreads());
        LOG.info("federation front serving SPARQL on http://{}:{}{}", host, front.port(), PATH);
        boolean wildcard = host.equals("0.0.0.0") || host.equals("::");
        front.endpoint = "http://" + (wildcard ? "127.0.0.1" : host) + ":" + front.port() + PATH;
        return front;
    }

    /**
     * Warms the front with up to {@code queries} queries made from the members' data ({@link FrontWarmup}) and
     * returns what it did. When the members hold no data yet, it sends nothing and the front warms itself at
     * the first {@code POST /refresh} that finds data (a load's). 0 or less: no warm-up, now or at a refresh.
     */
    synchronized FrontWarmup.Result warmUp(int queries) {
        warmupQueries = Math.max(queries, 0);
        return warmIfCold();
    }

    /** The warm-up, unless one found data already or none was asked for; null when nothing was to do. */
    private synchronized FrontWarmup.Result warmIfCold() {
        if (warmed || warmupQueries == 0) {
            return null;
        }
        FrontWarmup.Result r = FrontWarmup.run(endpoint, warmupQueries);
        warmed = r.queries() > 0;
        LOG.info(warmed ? r.line() : "front warm-up: no data on the members yet; the front warms itself at the first"
                + " refresh that finds data (load --front)");
        return r;
    }

    /** {@link Federation#refresh()} of this front's federation. */
    public java.util.Set<String> refresh() {
        return federation.refresh();
    }

    public int port() {
        return server.port();
    }

    private void handleHealth(FrontHttpServer.Exchange exchange) throws IOException {
        List<String> down = probe.unavailable();
        String body = down.isEmpty() ? "all " + federation.members().size() + " members answer\n"
                : String.join("\n", down) + "\n";
        send(exchange, down.isEmpty() ? 200 : 503, "text/plain; charset=UTF-8", body.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code GET /stats}: counters as {@code name value} lines (HTTP requests sent to members so far). */
    private void handleStats(FrontHttpServer.Exchange exchange) throws IOException {
        sendText(exchange, 200, "member-requests " + federation.requestsSent() + "\nprepared-hits "
                + federation.preparedHits() + "\nshape-hits " + federation.shapeHits() + "\nshape-plan-hits "
                + federation.shapePlanHits());
    }

    private void handleRefresh(FrontHttpServer.Exchange exchange) throws IOException {
        if (!"POST".equals(exchange.method())) {
            sendText(exchange, 405, "POST " + REFRESH_PATH + " makes the front forget what it learned from the members' data");
            return;
        }
        try {
            String refreshed = "refreshed; predicates whose objects are all replicated: " + federation.refresh();
            FrontWarmup.Result warmup = warmIfCold();
            sendText(exchange, 200, warmup == null ? refreshed : refreshed + "\n" + (warmup.queries() > 0 ? warmup.line()
                    : "front warm-up: no data on the members yet"));
        } catch (RuntimeException e) {
            sendText(exchange, 503, "refresh failed: " + e);
        }
    }

    private void handleQuery(FrontHttpServer.Exchange exchange) throws IOException {
        FrontQuery deadline = new FrontQuery(settings.queryTimeout());
        try {
            String query;
            try {
                query = queryOf(exchange);
            } catch (IllegalArgumentException e) {
                sendText(exchange, 400, e.getMessage());
                return;
            }
            String accept = exchange.header("Accept");
            PreparedQueries.Prepared prepared;
            try {
                prepared = federation.prepare(query);
            } catch (MalformedQueryException e) {
                sendText(exchange, 400, "malformed query: " + e.getMessage());
                return;
            }
            ParsedQuery parsed = prepared.parsed();
            TupleExpr plan = prepared.planCopy();
            try {
                if (forwarded(exchange, parsed, plan, query, accept, deadline)) {
                    return;
                }
            } catch (ResultWriter.NotAcceptable e) {
                sendText(exchange, 406, e.getMessage());
                return;
            } catch (ResultWriter.TooLarge e) {
                sendText(exchange, 413, e.getMessage());
                return;
            } catch (RuntimeException e) {
                LOG.debug("forwarding the whole query failed, the front answers it: {}", e.toString());
            }
            try {
                ResultWriter.Answer answer = null;
                if (plan != null && DirectDescribe.where(plan) != null) {
                    List<org.eclipse.rdf4j.model.Statement> described = federation.describeDirect(plan, deadline);
                    if (described != null) {
                        answer = ResultWriter.write((org.eclipse.rdf4j.query.parser.ParsedGraphQuery) parsed, described,
                                accept, settings.maxResultBytes());
                    }
                } else if (plan != null) {
                    answer = ResultWriter.write(parsed, federation.evaluateDirect(plan, deadline), accept,
                            settings.maxResultBytes());
                }
                if (answer == null) {
                    try (RepositoryConnection connection = federation.repository().getConnection()) {
                        answer = ResultWriter.evaluate(connection, query, accept, settings.maxResultBytes());
                    }
                }
                send(exchange, 200, answer.contentType(), answer.bytes());
            } catch (MalformedQueryException e) {
                sendText(exchange, 400, "malformed query: " + e.getMessage());
            } catch (ResultWriter.NotAcceptable e) {
                sendText(exchange, 406, e.getMessage());
            } catch (ResultWriter.TooLarge e) {
                sendText(exchange, 413, e.getMessage());
            } catch (RuntimeException e) {
                java.util.Optional<ResultWriter.TooLarge> tooLarge = ResultWriter.causeOf(e, ResultWriter.TooLarge.class);
                if (tooLarge.isPresent()) {
                    sendText(exchange, 413, tooLarge.get().getMessage());
                    return;
                }
                List<String> down = probe.unavailable();
                if (down.isEmpty() && (deadline.expired() || e instanceof QueryInterruptedException)) {
                    LOG.info("federated query stopped at its timeout: {}", e.toString());
                    sendText(exchange, 503, e instanceof QueryInterruptedException ? e.getMessage()
                            : deadline.timedOut().getMessage() + ". Cause: " + e);
                } else if (down.isEmpty()) {
                    LOG.warn("federated query failed with every member answering: {}", e.toString(), e);
                    sendText(exchange, 500, "the federated query failed: " + e);
                } else {
                    LOG.warn("federated query failed: {}", down);
                    sendText(exchange, 503, "the federated query failed and no partial answer was returned: "
                            + String.join("; ", down) + ". Start the member again (or fix its network);"
                            + " the front uses it again on the next query. Cause: " + e);
                }
            }
        } finally {
            deadline.cancelAhead();
        }
    }

    /**
     * Sends a query that one member answers whole ({@link WholeQueryRoute}) to that member and passes its
     * answer on; false (nothing sent to the client) when the query is not such a query or the member
     * did not answer it with HTTP 200, and FedX answers it instead.
     */
    private boolean forwarded(FrontHttpServer.Exchange exchange, ParsedQuery parsed, TupleExpr plan, String query, String accept,
            FrontQuery deadline) throws IOException {
        MemberHttp member = federation.wholeQueryMember(plan);
        if (member == null) {
            return false;
        }
        String type = ResultWriter.memberWrittenType(parsed, accept);
        if (type == null) {
            return false;
        }
        MemberHttp.Forwarded answer = member.forward(query, type, settings.maxResultBytes(), deadline.remainingMillis());
        if (answer.status() != 200) {
            LOG.debug("member {} answered a forwarded query with HTTP {}; FedX answers it", member.name(), answer.status());
            return false;
        }
        send(exchange, 200, answer.contentType(), answer.body());
        return true;
    }

    /** The query of a protocol request, or an IllegalArgumentException saying what is wrong with it. */
    private static String queryOf(FrontHttpServer.Exchange exchange) {
        String method = exchange.method();
        Map<String, String> params = new HashMap<>(form(exchange.rawQuery()));
        if ("POST".equals(method)) {
            String type = String.valueOf(exchange.header("Content-Type"));
            byte[] body = exchange.body();
            String text = new String(body, StandardCharsets.UTF_8);
            if (type.startsWith("application/sparql-query")) {
                params.put("query", text);
            } else if (type.startsWith("application/x-www-form-urlencoded")) {
                params.putAll(form(text));
            } else if (type.startsWith("application/sparql-update")) {
                params.put("update", text);
            } else {
                throw new IllegalArgumentException("POST needs Content-Type application/sparql-query or"
                        + " application/x-www-form-urlencoded, got " + type);
            }
        } else if (!"GET".equals(method)) {
            throw new IllegalArgumentException("the SPARQL endpoint takes GET and POST, not " + method);
        }
        if (params.containsKey("update")) {
            throw new IllegalArgumentException("the federation is read-only: send updates to the member that owns"
                    + " the subject (basalt-federation owner) or load them with basalt-federation load");
        }
        if (params.containsKey("default-graph-uri") || params.containsKey("named-graph-uri")) {
            throw new IllegalArgumentException("default-graph-uri and named-graph-uri are not supported by the"
                    + " federation; use FROM / FROM NAMED or GRAPH in the query");
        }
        String query = params.get("query");
        if (query == null || query.isBlank()) {
            throw new IllegalArgumentException("missing the 'query' parameter (SPARQL 1.1 protocol)");
        }
        return query;
    }

    private static Map<String, String> form(String encoded) {
        Map<String, String> params = new HashMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return params;
        }
        for (String pair : encoded.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            params.put(key, value);
        }
        return params;
    }

    private static void sendText(FrontHttpServer.Exchange exchange, int status, String message) throws IOException {
        send(exchange, status, "text/plain; charset=UTF-8", (message + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static void send(FrontHttpServer.Exchange exchange, int status, String contentType, byte[] body)
            throws IOException {
        exchange.send(status, contentType, body);
    }

    /** Stops accepting requests, waits up to a second for running ones, then closes the federation. */
    @Override
    public void close() {
        server.close();
        federation.close();
    }

    /** A byte buffer that refuses to grow past a limit. */
    static final class BoundedBuffer extends ByteArrayOutputStream {
        private final long limit;

        BoundedBuffer(long limit) {
            this.limit = limit;
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            check(len);
            super.write(b, off, len);
        }

        @Override
        public synchronized void write(int b) {
            check(1);
            super.write(b);
        }

        private void check(int more) {
            if (count + (long) more > limit) {
                throw new ResultWriter.TooLarge("the answer is larger than the front's buffer of " + limit
                        + " bytes; add LIMIT to the query or start the front with a larger --max-result-bytes");
            }
        }
    }
}
