package dev.basalt.replication.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Creates the replicated repository through RDF4J Server's REST API ({@code PUT /repositories/{id}}
 * with a Turtle configuration: a {@code basalt:BasaltRepository} over a {@code basalt:ReplicatedStore}
 * stacked on a {@code basalt:BasaltStore}), unless the server has it; then asks for its size, which
 * makes RDF4J Server open it, so the replica joins its Raft group at start rather than at the first
 * request. A repository created earlier keeps the settings it was created with.
 *
 * <p>Used once by the launcher's main thread at start; it holds only an {@link HttpClient}, which is thread-safe,
 * so sharing it would be safe too.
 */
final class ReplicaRepositoryConfig {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    static String turtle(ReplicaOptions o) {
        return """
                @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.
                @prefix config: <tag:rdf4j.org,2023:config/>.
                @prefix basalt: <http://basalt.dev/config/sail#>.
                @prefix repl: <http://basalt.dev/config/replication#>.

                [] a config:Repository ;
                    config:rep.id "%s" ;
                    rdfs:label "Basalt replica %s" ;
                    config:rep.impl [
                        config:rep.type "basalt:BasaltRepository" ;
                        config:sail.impl [
                            config:sail.type "basalt:ReplicatedStore" ;
                            repl:nodeId "%s" ;
                            repl:peers "%s" ;
                            repl:snapshotEvery %d ;
                            repl:retainEntries %d ;
                            repl:commitTimeoutMillis %d ;
                            repl:electionTimeoutMillis %d ;
                            config:delegate [
                                config:sail.type "basalt:BasaltStore" ;
                                basalt:journalMode "RW" ;
                                basalt:historyRetention "PT0S" ;
                                basalt:statementIndexes "spoc,posc,ospc,cspo"
                            ]
                        ]
                    ].
                """.formatted(o.repository(), o.nodeId(), o.nodeId(), o.peers(), o.snapshotEvery(), o.retainEntries(),
                o.commitTimeoutMillis(), o.electionTimeoutMillis());
    }

    void ensure(String serverUrl, ReplicaOptions o) throws IOException, InterruptedException {
        URI uri = URI.create(serverUrl + "/repositories/" + o.repository());
        HttpRequest size = HttpRequest.newBuilder(URI.create(uri + "/size")).GET().build();
        if (http.send(size, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            return;
        }
        HttpRequest put = HttpRequest.newBuilder(uri).header("Content-Type", "text/turtle")
                .PUT(HttpRequest.BodyPublishers.ofString(turtle(o))).build();
        HttpResponse<String> created = http.send(put, HttpResponse.BodyHandlers.ofString());
        if (created.statusCode() / 100 != 2) {
            throw new IOException("RDF4J Server refused to create the replicated repository '" + o.repository()
                    + "' (HTTP " + created.statusCode() + "): " + created.body());
        }
        HttpResponse<String> opened = http.send(size, HttpResponse.BodyHandlers.ofString());
        if (opened.statusCode() != 200) {
            throw new IOException("the replicated repository '" + o.repository() + "' does not open (HTTP "
                    + opened.statusCode() + "): " + opened.body());
        }
    }
}
