package dev.basalt.replication;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;

import dev.basalt.replication.server.LocalReplicaCluster;

/**
 * What a replication test says when a wait times out, so that a failure seen once (on a CI machine,
 * say) tells its cause: each node's Raft view (role, leader, term, commit index, applied indices, the
 * applier's and the group commit's state, {@link ReplicatedSail#describe}) in the failure message,
 * and those lines with a dump of every thread of every replica's JVM in a file under
 * {@code target/replication-diagnostics/} (or {@code basalt.test.output}), named in the message.
 * Stateless; any thread.
 */
final class ClusterDiagnostics {
    private ClusterDiagnostics() {
    }

    /** For replicas in this JVM: their states, and this JVM's threads. */
    static String of(InProcessCluster cluster, String what) {
        StringBuilder summary = new StringBuilder();
        for (int i = 0; i < cluster.size(); i++) {
            summary.append("\n  ").append(cluster.node(i) == null ? "n" + i + ": stopped" : cluster.sail(i).describe());
        }
        return report(what, summary + cluster.describeLinks(), threadDump());
    }

    /**
     * For replica processes: each one's {@code /replication/diagnostics} (its state and its JVM's
     * threads), asked with a short timeout (a frozen or dead process answers nothing, which is said),
     * and the test JVM's threads; {@code context} is what the test adds (its clients' state, say).
     */
    static String of(LocalReplicaCluster cluster, String what, String context) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        StringBuilder summary = new StringBuilder();
        StringBuilder dumps = new StringBuilder();
        for (int i = 0; i < cluster.size(); i++) {
            String text;
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(cluster.replicationUrl(i)
                        + "/diagnostics")).timeout(Duration.ofSeconds(5)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                text = r.body();
            } catch (IOException e) {
                text = "n" + i + " (pid " + pid(cluster, i) + "): no answer (" + e + ")";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                text = "n" + i + ": interrupted";
            }
            int end = text.indexOf('\n');
            summary.append("\n  ").append(end < 0 ? text : text.substring(0, end));
            dumps.append("==== n").append(i).append('\n').append(text).append('\n');
        }
        if (!context.isEmpty()) {
            summary.append("\n  ").append(context);
        }
        // the test's own threads too: its clients' requests may wait here rather than on a replica
        dumps.append("==== test JVM\n").append(threadDump());
        return report(what, summary.toString(), dumps.toString());
    }

    private static String pid(LocalReplicaCluster cluster, int i) {
        try {
            return String.valueOf(cluster.pid(i));
        } catch (RuntimeException e) {
            return "?";
        }
    }

    private static String report(String what, String summary, String dumps) {
        Path dir = Path.of(System.getProperty("basalt.test.output", "target"), "replication-diagnostics");
        String name = what.replaceAll("[^A-Za-z0-9]+", "-");
        Path file = dir.resolve(LocalTime.now().format(DateTimeFormatter.ofPattern("HHmmss-SSS")) + "-"
                + name.substring(0, Math.min(60, name.length())) + ".txt");
        String where;
        try {
            Files.createDirectories(dir);
            Files.writeString(file, what + summary + "\n\n" + dumps);
            where = "thread dumps in " + file.toAbsolutePath();
        } catch (IOException e) {
            where = "thread dumps not written: " + e;
        }
        return what + summary + "\n  (" + where + ")";
    }

    /** Every thread of this JVM with its state and whole stack. */
    static String threadDump() {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<Thread, StackTraceElement[]> t : Thread.getAllStackTraces().entrySet()) {
            b.append('"').append(t.getKey().getName()).append("\" ").append(t.getKey().getState()).append('\n');
            for (StackTraceElement e : t.getValue()) {
                b.append("\tat ").append(e).append('\n');
            }
            b.append('\n');
        }
        return b.toString();
    }
}
