package dev.basalt.workbench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Creates a Basalt repository through RDF4J Server's REST API ({@code PUT /repositories/{id}} with
 * a configuration in Turtle), the same request any client can send, unless it exists already; and opens the
 * repositories of a data directory before the launcher announces itself ({@link #openAll}), so that no client's
 * first request pays a repository's opening (RDF4J Server opens a repository at the first request that names it).
 *
 * <p>Thread-safe: it holds only the server's URL and a {@link HttpClient}, which may be shared between threads;
 * two threads creating the same repository at once race at the server, which refuses the second.
 */
public final class RepositoryBootstrap {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]+");
    /** How long {@link #openAll} waits for one repository (a store locked by another process may never open). */
    static final Duration OPEN_TIMEOUT = Duration.ofSeconds(120);

    private final String serverUrl;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    public RepositoryBootstrap(String serverUrl) {
        this.serverUrl = serverUrl;
    }

    /** A repository configuration with Basalt's defaults, in the RDF4J 4.3+ configuration vocabulary. */
    public static String defaultConfig(String id, String title) {
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("repository id '" + id + "' may use only letters, digits, '.', '_' and '-'");
        }
        return """
                @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.
                @prefix config: <tag:rdf4j.org,2023:config/>.
                @prefix basalt: <http://basalt.dev/config/sail#>.

                [] a config:Repository ;
                    config:rep.id "%s" ;
                    rdfs:label "%s" ;
                    config:rep.impl [
                        config:rep.type "basalt:BasaltRepository" ;
                        config:sail.impl [
                            config:sail.type "basalt:BasaltStore" ;
                            basalt:journalMode "RW" ;
                            basalt:historyRetention "PT0S" ;
                            basalt:statementIndexes "spoc,posc,ospc,cspo"
                        ]
                    ].
                """.formatted(id, title.replace("\\", "\\\\").replace("\"", "\\\""));
    }

    /**
     * Opens every repository configured under {@code dataDir/server/repositories} but {@code skip} (a directory with a
     * {@code config.ttl}, whose name is a repository id), in the directory's order, each with one {@code GET
     * /repositories/ID/namespaces}: RDF4J Server opens the repository for it (a store reads its files and, for
     * Basalt, its caches: docs/operator-guide.md, "What a store reads when it opens") and answers from a connection
     * without reading statements. Returns one line saying what was opened and how long each took; a repository that
     * fails to open (or does not answer within {@link #OPEN_TIMEOUT}) is named in it with its HTTP status or the
     * failure and left to the first request, which gets RDF4J Server's error then.
     */
    public String openAll(Path dataDir, String skip) throws InterruptedException {
        List<String> opened = new ArrayList<>();
        for (String id : configured(dataDir)) {
            if (id.equals(skip)) {
                continue;
            }
            long start = System.nanoTime();
            String outcome;
            try {
                HttpResponse<Void> answer = http.send(HttpRequest.newBuilder(
                        URI.create(serverUrl + "/repositories/" + id + "/namespaces"))
                        .header("Accept", "application/sparql-results+xml").timeout(OPEN_TIMEOUT).GET().build(),
                        HttpResponse.BodyHandlers.discarding());
                outcome = answer.statusCode() == 200 ? TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms"
                        : "failed, HTTP " + answer.statusCode();
            } catch (IOException e) {
                outcome = "failed: " + e;
            }
            opened.add(id + " (" + outcome + ")");
        }
        return opened.isEmpty() ? "no repositories to open" : "opened repositories " + String.join(", ", opened);
    }

    /** The repository ids configured under {@code dataDir/server/repositories}, sorted. */
    static List<String> configured(Path dataDir) {
        Path root = dataDir.resolve("server").resolve("repositories");
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (var dirs = Files.list(root)) {
            return dirs.filter(d -> ID.matcher(d.getFileName().toString()).matches()
                    && Files.isRegularFile(d.resolve("config.ttl"))).map(d -> d.getFileName().toString()).sorted()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * Creates repository {@code id} with {@link #defaultConfig} unless the server has it. Whether it has it is asked
     * through the repository's namespaces, an answer every store gives without reading its statements (a peer store
     * answers {@code /size} by counting them: minutes at 100M statements).
     */
    public void ensureBasaltRepository(String id) throws IOException, InterruptedException {
        URI uri = URI.create(serverUrl + "/repositories/" + id);
        HttpResponse<String> known = http.send(HttpRequest.newBuilder(URI.create(uri + "/namespaces")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (known.statusCode() == 200) {
            return;
        }
        HttpRequest put = HttpRequest.newBuilder(uri)
                .header("Content-Type", "text/turtle")
                .PUT(HttpRequest.BodyPublishers.ofString(defaultConfig(id, "Basalt store")))
                .build();
        HttpResponse<String> created = http.send(put, HttpResponse.BodyHandlers.ofString());
        if (created.statusCode() / 100 != 2) {
            throw new IOException("RDF4J Server refused to create repository '" + id + "' (HTTP "
                    + created.statusCode() + "): " + created.body());
        }
    }
}
