package dev.basalt.federation;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Asks every member a trivial query ({@code ASK {}}) at once, to name the members that cannot answer
 * when a federated query failed: a refused connection, an HTTP error, or no answer within the timeout.
 * Thread-safe.
 */
final class MemberProbe {
    private static final String ASK = "?query=" + URLEncoder.encode("ASK {}", StandardCharsets.UTF_8);

    private final List<Member> members;
    private final Duration timeout;
    private final HttpClient http;

    MemberProbe(List<Member> members, Duration timeout) {
        this.members = List.copyOf(members);
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** The members that failed the probe, each described with what went wrong; empty when all answered. */
    List<String> unavailable() {
        List<CompletableFuture<String>> probes = new ArrayList<>();
        for (Member member : members) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(member.repositoryUrl() + ASK))
                    .header("Accept", "application/sparql-results+json")
                    .timeout(timeout)
                    .GET()
                    .build();
            probes.add(http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                    .handle((response, error) -> verdict(member, response, error)));
        }
        List<String> failed = new ArrayList<>();
        for (CompletableFuture<String> probe : probes) {
            String verdict = probe.join();
            if (verdict != null) {
                failed.add(verdict);
            }
        }
        return failed;
    }

    private String verdict(Member member, HttpResponse<Void> response, Throwable error) {
        if (error == null) {
            return response.statusCode() == 200 ? null
                    : "member " + member.describe() + " answered HTTP " + response.statusCode();
        }
        Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                ? error.getCause() : error;
        if (cause instanceof HttpTimeoutException) {
            return "member " + member.describe() + " did not answer within " + timeout.toMillis() + " ms";
        }
        if (cause instanceof IOException) {
            return "member " + member.describe() + " is unreachable (" + cause + ")";
        }
        return "member " + member.describe() + " failed: " + cause;
    }
}
