package dev.basalt.replication.server;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A node's consistency endpoint beside RDF4J Server, on its own port, reading the replica inside
 * the server webapp through JMX ({@code dev.basalt:type=Replica,*}; the replica is a class of the
 * webapp, so the launcher sees only its MXBean):
 * <ul>
 * <li>{@code GET /replication/status}: node, role, leader, applied index (JSON);</li>
 * <li>{@code GET /replication/await?index=N[&timeoutMs=T]}: answers 200 once log index N is applied
 * here (read-your-writes: N is the applied index a client saw on the node that took its write),
 * 504 after the timeout (default 10 s);</li>
 * <li>{@code GET /replication/linearizable[?timeoutMs=T]}: the leader's read index, answered once
 * applied here; a read sent to this node afterwards sees every write acknowledged before;</li>
 * <li>{@code POST /replication/peers?set=ID=HOST:PORT,...}: changes the membership to that list
 * (a Raft configuration change through the leader; new members must be running);</li>
 * <li>{@code GET /replication/diagnostics}: plain text for a diagnosis: the replica's Raft view
 * (role, leader, term, commit and applied indices), its applier and group commit, then a dump of
 * every thread of the server's JVM.</li>
 * </ul>
 * Requests are served by a small pool of threads; the class itself is used by the launcher's main thread.
 */
final class ReplicationEndpoint implements AutoCloseable {
    private static final long DEFAULT_TIMEOUT_MILLIS = 10_000;
    private final HttpServer http;

    private ReplicationEndpoint(HttpServer http) {
        this.http = http;
    }

    static ReplicationEndpoint start(String host, int port) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(host, port), 64);
        http.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "replication-endpoint");
            t.setDaemon(true);
            return t;
        }));
        http.createContext("/replication/", ReplicationEndpoint::handle);
        http.start();
        return new ReplicationEndpoint(http);
    }

    int port() {
        return http.getAddress().getPort();
    }

    private static void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
            long timeout = Long.parseLong(query.getOrDefault("timeoutMs", String.valueOf(DEFAULT_TIMEOUT_MILLIS)));
            ObjectName replica = replica();
            if (replica == null) {
                reply(exchange, 503, "{\"error\":\"no replicated repository is open in this server\"}");
                return;
            }
            MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
            String path = exchange.getRequestURI().getPath();
            switch (path) {
                case "/replication/status" -> reply(exchange, 200, status(jmx, replica));
                case "/replication/diagnostics" -> reply(exchange, 200, "text/plain",
                        jmx.getAttribute(replica, "Diagnostics") + "\n\n" + threadDump());
                case "/replication/await" -> {
                    String index = query.get("index");
                    if (index == null) {
                        reply(exchange, 400, "{\"error\":\"give the log index to wait for: ?index=N\"}");
                        return;
                    }
                    boolean applied = (Boolean) jmx.invoke(replica, "awaitApplied",
                            new Object[] {Long.parseLong(index), timeout}, new String[] {"long", "long"});
                    reply(exchange, applied ? 200 : 504, status(jmx, replica));
                }
                case "/replication/linearizable" -> {
                    long readIndex = (Long) jmx.invoke(replica, "linearizableIndex", new Object[] {timeout},
                            new String[] {"long"});
                    reply(exchange, readIndex >= 0 ? 200 : 504, "{\"readIndex\":" + readIndex + "}");
                }
                case "/replication/peers" -> {
                    String peers = query.get("set");
                    if (!"POST".equals(exchange.getRequestMethod()) || peers == null) {
                        reply(exchange, 400, "{\"error\":\"POST /replication/peers?set=ID=HOST:PORT,...\"}");
                        return;
                    }
                    String refused = (String) jmx.invoke(replica, "setPeers",
                            new Object[] {java.net.URLDecoder.decode(peers, java.nio.charset.StandardCharsets.UTF_8)},
                            new String[] {"java.lang.String"});
                    reply(exchange, refused.isEmpty() ? 200 : 409, refused.isEmpty() ? status(jmx, replica)
                            : "{\"error\":\"" + refused.replace('"', '\'') + "\"}");
                }
                default -> reply(exchange, 404, "{\"error\":\"unknown path " + path
                        + "; try /replication/status, /replication/await?index=N, /replication/linearizable,"
                        + " /replication/diagnostics\"}");
            }
        } catch (NumberFormatException e) {
            reply(exchange, 400, "{\"error\":\"index and timeoutMs must be whole numbers\"}");
        } catch (JMException e) {
            reply(exchange, 503, "{\"error\":\"replica unavailable: " + e.getMessage().replace('"', '\'') + "\"}");
        }
    }

    private static String status(MBeanServer jmx, ObjectName replica) throws JMException {
        return "{\"node\":\"" + jmx.getAttribute(replica, "NodeId") + "\",\"role\":\"" + jmx.getAttribute(replica, "Role")
                + "\",\"leader\":\"" + jmx.getAttribute(replica, "LeaderId") + "\",\"appliedIndex\":"
                + jmx.getAttribute(replica, "AppliedIndex") + "}";
    }

    private static ObjectName replica() throws IOException {
        try {
            Set<ObjectName> names = ManagementFactory.getPlatformMBeanServer()
                    .queryNames(new ObjectName("dev.basalt:type=Replica,*"), null);
            return names.isEmpty() ? null : names.iterator().next();
        } catch (JMException e) {
            throw new IOException(e);
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> map = new HashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    map.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
        }
        return map;
    }

    /** Every thread of this JVM with its state, the lock it waits for and its whole stack. */
    static String threadDump() {
        StringBuilder b = new StringBuilder();
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            b.append('"').append(t.getThreadName()).append("\" ").append(t.getThreadState());
            if (t.getLockName() != null) {
                b.append(" on ").append(t.getLockName());
            }
            if (t.getLockOwnerName() != null) {
                b.append(" owned by \"").append(t.getLockOwnerName()).append('"');
            }
            b.append('\n');
            for (StackTraceElement e : t.getStackTrace()) {
                b.append("\tat ").append(e).append('\n');
            }
            b.append('\n');
        }
        return b.toString();
    }

    private static void reply(HttpExchange exchange, int status, String json) throws IOException {
        reply(exchange, status, "application/json", json);
    }

    private static void reply(HttpExchange exchange, int status, String type, String text) throws IOException {
        byte[] body = (text + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        http.stop(0);
    }
}
