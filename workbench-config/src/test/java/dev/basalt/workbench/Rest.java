package dev.basalt.workbench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Supplier;

/** The RDF4J REST API over plain HTTP, as any client sends it; no RDF4J on the test's side. */
final class Rest {
    record Response(int status, String body) {
    }

    private final String serverUrl;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    Rest(String serverUrl) {
        this.serverUrl = serverUrl;
    }

    String repositoryUrl(String id) {
        return serverUrl + "/repositories/" + id;
    }

    Response createRepository(String id, String configTurtle) {
        return send(HttpRequest.newBuilder(URI.create(repositoryUrl(id))).header("Content-Type", "text/turtle")
                .PUT(HttpRequest.BodyPublishers.ofString(configTurtle)));
    }

    Response deleteRepository(String id) {
        return send(HttpRequest.newBuilder(URI.create(repositoryUrl(id))).DELETE());
    }

    Response listRepositories() {
        return send(HttpRequest.newBuilder(URI.create(serverUrl + "/repositories")).header("Accept", "text/csv").GET());
    }

    Response add(String id, String contentType, String data) {
        return send(HttpRequest.newBuilder(URI.create(repositoryUrl(id) + "/statements"))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(data)));
    }

    /** Streams the body with chunked transfer: the upload is never held in memory on either side of the client. */
    Response addStream(String id, String contentType, Supplier<InputStream> data) {
        return send(HttpRequest.newBuilder(URI.create(repositoryUrl(id) + "/statements"))
                .header("Content-Type", contentType).timeout(Duration.ofMinutes(10))
                .POST(HttpRequest.BodyPublishers.ofInputStream(data)));
    }

    Response query(String id, String sparql, String accept) {
        return send(HttpRequest.newBuilder(URI.create(repositoryUrl(id))).header("Accept", accept)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("query=" + encode(sparql))));
    }

    Response update(String id, String sparqlUpdate) {
        return send(HttpRequest.newBuilder(URI.create(repositoryUrl(id) + "/statements"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("update=" + encode(sparqlUpdate))));
    }

    long size(String id) {
        Response r = send(HttpRequest.newBuilder(URI.create(repositoryUrl(id) + "/size")).GET());
        if (r.status() != 200) {
            throw new IllegalStateException("size of " + id + ": HTTP " + r.status() + " " + r.body());
        }
        return Long.parseLong(r.body().trim());
    }

    /** The single value of a one-row, one-column SELECT, via text/csv. */
    String selectOne(String id, String sparql) {
        Response r = query(id, sparql, "text/csv");
        if (r.status() != 200) {
            throw new IllegalStateException("HTTP " + r.status() + " for " + sparql + ": " + r.body());
        }
        String[] lines = r.body().split("\r?\n");
        return lines.length > 1 ? lines[1].trim() : null;
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
