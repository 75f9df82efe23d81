package dev.basalt.replication.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A small HTTP front over the replicas' RDF4J Servers ({@code basalt-replica.jar front}): reads
 * (GET and HEAD, SPARQL queries sent by POST) go round robin to the replicas that answer their
 * status endpoint; everything else (updates, statement uploads, REST transactions, which live on the
 * node that opened them) goes to the leader, or, while no leader is known, to any healthy replica
 * (which forwards a write to the leader itself). A read that fails on one replica is tried once on
 * the next. Health: every second the front asks each replica's {@code /replication/status}; one that
 * does not answer within 2 s, or reports STOPPED, receives no requests until it answers again.
 *
 * <p>Thread rules: requests are served by a fixed pool of threads; the health checker runs on its own
 * daemon thread, the only caller of {@link #checkOnce} once the front runs (two callers could publish
 * their results out of order, the older last; tests that call it start the front without the
 * checker); the replicas' states are published through volatile fields, read by any thread.
 */
public final class ReadFront implements AutoCloseable {
    /** One replica: its server base URL ({@code http://host:port}) and its consistency endpoint's. */
    record Node(URI server, URI admin) {
    }

    static final String USAGE = "front --nodes HOST:PORT:ADMIN_PORT,... [--host H] [--port 8079] [--threads 16]";

    /** Parses {@code HOST:PORT:ADMIN_PORT,...}. */
    static List<Node> parseNodes(String spec) {
        List<Node> nodes = new ArrayList<>();
        for (String part : spec.split(",")) {
            String[] f = part.trim().split(":");
            if (f.length != 3) {
                throw new IllegalArgumentException("node '" + part + "' must be HOST:PORT:ADMIN_PORT; usage: " + USAGE);
            }
            nodes.add(new Node(URI.create("http://" + f[0] + ":" + Integer.parseInt(f[1])),
                    URI.create("http://" + f[0] + ":" + Integer.parseInt(f[2]))));
        }
        return nodes;
    }

    private static final Set<String> HOP_BY_HOP = Set.of("connection", "content-length", "transfer-encoding",
            "host", "keep-alive", "upgrade", "expect");
    private static final Pattern ROLE = Pattern.compile("\"role\":\"([A-Z]+)\"");

    private final List<Node> nodes;
    private final HttpServer http;
    private final ExecutorService pool;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final AtomicInteger next = new AtomicInteger();
    private final Thread checker;
    private final long checkEveryMillis;
    private final Duration statusTimeout;
    private volatile boolean[] healthy;
    private volatile int leader = -1;
    private volatile boolean closed;

    private ReadFront(List<Node> nodes, HttpServer http, ExecutorService pool, long checkEveryMillis,
            Duration statusTimeout) {
        this.nodes = List.copyOf(nodes);
        this.http = http;
        this.pool = pool;
        this.checkEveryMillis = checkEveryMillis;
        this.statusTimeout = statusTimeout;
        this.healthy = new boolean[nodes.size()];
        this.checker = new Thread(this::checkLoop, "front-health");
        checker.setDaemon(true);
    }

    /** Starts the front on {@code host:port} (0: a free port) with {@code threads} request threads. */
    public static ReadFront start(String host, int port, List<Node> nodes, int threads) throws IOException {
        return start(host, port, nodes, threads, 1_000, Duration.ofSeconds(2));
    }

    /**
     * As {@link #start(String, int, List, int)}, checking every replica's status every
     * {@code checkEveryMillis} (0: only when {@link #checkOnce} is called, as tests do) and counting a
     * replica whose status takes longer than {@code statusTimeout} as down.
     */
    static ReadFront start(String host, int port, List<Node> nodes, int threads, long checkEveryMillis,
            Duration statusTimeout) throws IOException {
        // the JDK server writes an answer's headers and body apart: without TCP_NODELAY each small answer
        // waits for the client's delayed ACK (about 40 ms); read once, when the first server starts
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer http = HttpServer.create(new InetSocketAddress(host, port), 256);
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "front");
            t.setDaemon(true);
            return t;
        });
        http.setExecutor(pool);
        ReadFront front = new ReadFront(nodes, http, pool, checkEveryMillis, statusTimeout);
        front.checkOnce();
        http.createContext("/", front::handle);
        http.start();
        if (checkEveryMillis > 0) {
            front.checker.start();
        }
        return front;
    }

    public int port() {
        return http.getAddress().getPort();
    }

    /** Indexes of the replicas that answered their last health check. */
    List<Integer> healthyNodes() {
        boolean[] h = healthy;
        List<Integer> up = new ArrayList<>();
        for (int i = 0; i < h.length; i++) {
            if (h[i]) {
                up.add(i);
            }
        }
        return up;
    }

    private void checkLoop() {
        while (!closed) {
            try {
                Thread.sleep(checkEveryMillis);
                checkOnce();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    void checkOnce() {
        boolean[] h = new boolean[nodes.size()];
        int lead = -1;
        for (int i = 0; i < nodes.size(); i++) {
            try {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(nodes.get(i).admin().resolve("/replication/status"))
                        .timeout(statusTimeout).build(), HttpResponse.BodyHandlers.ofString());
                Matcher role = ROLE.matcher(r.body());
                h[i] = r.statusCode() == 200 && role.find() && !role.group(1).equals("STOPPED");
                if (h[i] && role.group(1).equals("LEADER")) {
                    lead = i;
                }
            } catch (IOException e) {
                h[i] = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        healthy = h;
        leader = lead;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
            String path = exchange.getRequestURI().getRawPath();
            String type = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type")).toLowerCase(Locale.ROOT);
            byte[] body = null;
            boolean read;
            if (path.contains("/transactions")) {
                read = false;
            } else if (method.equals("GET") || method.equals("HEAD")) {
                read = true;
            } else if (method.equals("POST") && type.startsWith("application/sparql-query")) {
                read = true;
            } else if (method.equals("POST") && type.startsWith("application/x-www-form-urlencoded")) {
                body = exchange.getRequestBody().readAllBytes();
                read = !hasParameter(new String(body, StandardCharsets.ISO_8859_1), "update");
            } else {
                read = false;
            }
            List<Integer> up = healthyNodes();
            if (up.isEmpty()) {
                exchange.sendResponseHeaders(503, -1);
                return;
            }
            int lead = leader;
            int first = read || lead < 0 ? up.get(Math.floorMod(next.getAndIncrement(), up.size())) : lead;
            if (body == null && !read) {
                forward(exchange, nodes.get(first), method, null, exchange.getRequestBody());
                return;
            }
            byte[] payload = body != null ? body : exchange.getRequestBody().readAllBytes();
            try {
                forward(exchange, nodes.get(first), method, payload, null);
            } catch (IOException e) {
                if (!read || up.size() < 2) {
                    throw e;
                }
                int second = up.get((up.indexOf(first) + 1) % up.size());
                forward(exchange, nodes.get(second), method, payload, null);
            }
        } catch (IOException e) {
            // the client or the replica went away mid-request: nothing more to tell either
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean hasParameter(String form, String name) {
        for (String pair : form.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            if (key.equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** Sends the request to {@code node} and copies the answer back; nothing is sent back if the node fails. */
    private void forward(HttpExchange exchange, Node node, String method, byte[] payload, InputStream stream)
            throws IOException, InterruptedException {
        URI target = node.server().resolve(exchange.getRequestURI().getRawPath()
                + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery()));
        HttpRequest.Builder request = HttpRequest.newBuilder(target).method(method,
                payload != null ? HttpRequest.BodyPublishers.ofByteArray(payload)
                        : method.equals("GET") || method.equals("HEAD") ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofInputStream(() -> stream));
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(v -> request.header(name, v));
            }
        });
        HttpResponse<InputStream> response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        response.headers().map().forEach((name, values) -> {
            if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                exchange.getResponseHeaders().put(name, values);
            }
        });
        long length = response.headers().firstValueAsLong("Content-Length").orElse(0);
        boolean empty = method.equals("HEAD") || response.statusCode() == 204 || response.statusCode() == 304;
        exchange.sendResponseHeaders(response.statusCode(), empty ? -1 : length);
        try (InputStream in = response.body(); OutputStream out = exchange.getResponseBody()) {
            if (!empty) {
                in.transferTo(out);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        checker.interrupt();
        http.stop(0);
        pool.shutdownNow();
    }
}
