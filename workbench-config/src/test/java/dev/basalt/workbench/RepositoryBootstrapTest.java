package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

/**
 * The launcher's opening of its repositories before the announce ({@link RepositoryBootstrap#openAll}): one {@code GET
 * /repositories/ID/namespaces} per configured repository of the data directory, in order, none for the skipped one, a
 * directory without configuration or a name that is no repository id, and a failure named with its status, not thrown;
 * and the default repository found or created ({@link RepositoryBootstrap#ensureBasaltRepository}).
 */
class RepositoryBootstrapTest {
    @TempDir
    Path data;

    @Test
    void opensEveryConfiguredRepositoryButTheSkippedOne() throws Exception {
        Path root = data.resolve("server").resolve("repositories");
        for (String id : List.of("lmdb", "basalt", "broken", LauncherWarmup.REPOSITORY)) {
            Files.createDirectories(root.resolve(id));
            Files.writeString(root.resolve(id).resolve("config.ttl"), "# " + id);
        }
        Files.createDirectories(root.resolve("no-config"));
        Files.createDirectories(root.resolve("not an id"));
        Files.writeString(root.resolve("not an id").resolve("config.ttl"), "#");

        List<String> asked = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/rdf4j-server/repositories/", exchange -> {
            asked.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " "
                    + exchange.getRequestHeaders().getFirst("Accept"));
            int status = exchange.getRequestURI().getPath().contains("/broken/") ? 500 : 200;
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/rdf4j-server";
            String line = new RepositoryBootstrap(url).openAll(data, LauncherWarmup.REPOSITORY);
            String accept = " application/sparql-results+xml";
            assertEquals(List.of("GET /rdf4j-server/repositories/basalt/namespaces" + accept,
                    "GET /rdf4j-server/repositories/broken/namespaces" + accept,
                    "GET /rdf4j-server/repositories/lmdb/namespaces" + accept), asked);
            assertTrue(line.matches("opened repositories basalt \\(\\d+ ms\\), broken \\(failed, HTTP 500\\), "
                    + "lmdb \\(\\d+ ms\\)"), line);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aDataDirectoryWithoutRepositoriesOpensNothing() throws IOException, InterruptedException {
        assertEquals(List.of(), RepositoryBootstrap.configured(data));
        assertEquals("no repositories to open",
                new RepositoryBootstrap("http://127.0.0.1:1/rdf4j-server").openAll(data, LauncherWarmup.REPOSITORY));
    }

    /**
     * The default repository is looked for through its namespaces, never its size (which a peer store answers by
     * counting every statement): an existing one is left as it is, a missing one is created with a PUT.
     */
    @Test
    void theDefaultRepositoryIsFoundWithoutCountingItsStatements() throws Exception {
        List<String> asked = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/rdf4j-server/repositories/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            asked.add(exchange.getRequestMethod() + " " + path);
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(path.contains("/missing") && exchange.getRequestMethod().equals("GET")
                    ? 404 : 200, -1);
            exchange.close();
        });
        server.start();
        try {
            RepositoryBootstrap bootstrap = new RepositoryBootstrap(
                    "http://127.0.0.1:" + server.getAddress().getPort() + "/rdf4j-server");
            bootstrap.ensureBasaltRepository("there");
            bootstrap.ensureBasaltRepository("missing");
            assertEquals(List.of("GET /rdf4j-server/repositories/there/namespaces",
                    "GET /rdf4j-server/repositories/missing/namespaces", "PUT /rdf4j-server/repositories/missing"),
                    asked);
        } finally {
            server.stop(0);
        }
    }
}
