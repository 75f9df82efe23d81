package dev.basalt.replication.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

/**
 * The front over three stub replicas (each a status endpoint and a server that answers with its own
 * name, the method and the body it got): reads round robin, updates, uploads and REST transactions to
 * the leader with their bodies intact, a replica that stops answering its status left out, 503 when
 * none answers; the periodic health check leaves out a replica that goes down and takes it back when
 * it answers again.
 */
class ReadFrontTest {
    private final List<HttpServer> servers = new ArrayList<>();
    /** Each stub's role, read by the stubs' threads. */
    private final Map<Integer, String> roles = new ConcurrentHashMap<>();
    private ReadFront front;
    private final HttpClient client = HttpClient.newHttpClient();

    private ReadFront.Node stub(int i) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.createContext("/rdf4j-server/", ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            byte[] answer = ("n" + i + " " + ex.getRequestMethod() + " " + new String(body, StandardCharsets.UTF_8))
                    .getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, answer.length);
            ex.getResponseBody().write(answer);
            ex.close();
        });
        HttpServer admin = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        admin.createContext("/replication/", ex -> {
            String role = roles.get(i);
            byte[] answer = ("{\"node\":\"n" + i + "\",\"role\":\"" + role + "\"}").getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(role.equals("DOWN") ? 500 : 200, answer.length);
            ex.getResponseBody().write(answer);
            ex.close();
        });
        server.start();
        admin.start();
        servers.add(server);
        servers.add(admin);
        return new ReadFront.Node(URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
                URI.create("http://127.0.0.1:" + admin.getAddress().getPort()));
    }

    @AfterEach
    void stop() {
        if (front != null) {
            front.close();
        }
        servers.forEach(s -> s.stop(0));
    }

    private String send(String method, String path, String type, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + front.port() + path));
        if (type != null) {
            b.header("Content-Type", type);
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200 ? r.body() : String.valueOf(r.statusCode());
    }

    @Test
    void readsGoRoundRobinAndWritesToTheLeader() throws Exception {
        roles.put(0, "FOLLOWER");
        roles.put(1, "LEADER");
        roles.put(2, "FOLLOWER");
        List<ReadFront.Node> nodes = List.of(stub(0), stub(1), stub(2));
        // health is checked when the test says so: a background check that began before a role changed
        // could publish its older view after the test's check (the checker's own test is below), and a
        // status answered late by a stub on a loaded machine is not what this test is about
        front = ReadFront.start("127.0.0.1", 0, nodes, 4, 0, Duration.ofSeconds(30));
        Map<String, Integer> reads = new HashMap<>();
        for (int k = 0; k < 6; k++) {
            String answer = send("GET", "/rdf4j-server/repositories/basalt?query=ASK%7B%7D", null, null);
            reads.merge(answer.substring(0, 2), 1, Integer::sum);
        }
        assertEquals(Map.of("n0", 2, "n1", 2, "n2", 2), reads);
        String query = send("POST", "/rdf4j-server/repositories/basalt", "application/x-www-form-urlencoded",
                "query=SELECT+*+%7B%3Fs+%3Fp+%3Fo%7D");
        assertTrue(query.endsWith("POST query=SELECT+*+%7B%3Fs+%3Fp+%3Fo%7D"), query);
        for (int k = 0; k < 3; k++) {
            assertEquals("n1 POST update=INSERT+DATA+%7B%7D", send("POST", "/rdf4j-server/repositories/basalt/statements",
                    "application/x-www-form-urlencoded", "update=INSERT+DATA+%7B%7D"));
            assertEquals("n1 POST <a> <b> <c> .", send("POST", "/rdf4j-server/repositories/basalt/statements",
                    "application/n-triples", "<a> <b> <c> ."));
            assertEquals("n1 PUT x", send("PUT", "/rdf4j-server/repositories/basalt/transactions/1?action=COMMIT",
                    "text/plain", "x"));
        }

        roles.put(2, "DOWN");
        front.checkOnce();
        assertEquals(List.of(0, 1), front.healthyNodes());
        for (int k = 0; k < 4; k++) {
            assertTrue(!send("GET", "/rdf4j-server/repositories/basalt?query=ASK%7B%7D", null, null).startsWith("n2"));
        }
        roles.put(0, "STOPPED");
        roles.put(1, "DOWN");
        front.checkOnce();
        assertEquals("503", send("GET", "/rdf4j-server/repositories/basalt?query=ASK%7B%7D", null, null));
    }

    @Test
    void healthCheckerFollowsReplicasGoingDownAndComingBack() throws Exception {
        roles.put(0, "LEADER");
        roles.put(1, "FOLLOWER");
        List<ReadFront.Node> nodes = List.of(stub(0), stub(1));
        front = ReadFront.start("127.0.0.1", 0, nodes, 2, 50, Duration.ofSeconds(30));
        assertEquals(List.of(0, 1), front.healthyNodes());
        roles.put(1, "DOWN");
        awaitHealthy(List.of(0));
        for (int k = 0; k < 4; k++) {
            assertEquals("n0", send("GET", "/rdf4j-server/repositories/basalt?query=ASK%7B%7D", null, null)
                    .substring(0, 2));
        }
        roles.put(1, "FOLLOWER");
        awaitHealthy(List.of(0, 1));
    }

    /** Waits (up to 60 s, for a loaded machine) until the front's checker reports {@code expected} healthy. */
    private void awaitHealthy(List<Integer> expected) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!front.healthyNodes().equals(expected)) {
            assertTrue(System.nanoTime() < deadline, "the health checker still reports " + front.healthyNodes()
                    + ", not " + expected);
            Thread.sleep(20);
        }
    }
}
