package dev.basalt.replication;

import java.io.IOException;
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

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.retry.RetryPolicies;

/**
 * What the child-process tests ask of a replica: who leads the Raft group (through Ratis's group
 * info), and every statement a replica holds over RDF4J's REST API, as a checksum and as counts per
 * tagged group. Used by one test thread.
 */
final class ReplicaProbe implements AutoCloseable {
    static final String GROUP_PREFIX = "urn:basalt-test:group:";
    private final RaftGroup group;
    private final RaftClient admin;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    ReplicaProbe(String peers) {
        String first = peers.substring(0, peers.indexOf('='));
        this.group = ReplicaNode.group(ReplicationSettings.of(first, peers));
        this.admin = RaftClient.newBuilder().setRaftGroup(group).setProperties(new RaftProperties())
                .setRetryPolicy(RetryPolicies.noRetry()).build();
    }

    /** The id of the node that says it leads (n0, n1, ...), or null if none answers so. */
    String leader() {
        for (var peer : group.getPeers()) {
            try {
                var info = admin.getGroupManagementApi(peer.getId()).info(group.getGroupId());
                if (info.isSuccess() && info.getRoleInfoProto().getRole() == RaftPeerRole.LEADER) {
                    return peer.getId().toString();
                }
            } catch (IOException | RuntimeException down) {
                // a stopped node
            }
        }
        return null;
    }

    String awaitLeader(long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        do {
            String leader = leader();
            if (leader != null) {
                return leader;
            }
            Thread.sleep(100);
        } while (System.currentTimeMillis() < deadline);
        return null;
    }

    /** Every statement of the replica as sorted N-Triples lines. */
    List<String> statements(String repositoryUrl) throws IOException, InterruptedException {
        HttpRequest get = HttpRequest.newBuilder(URI.create(repositoryUrl + "/statements"))
                .header("Accept", "application/n-triples").timeout(Duration.ofSeconds(60)).GET().build();
        HttpResponse<String> r = http.send(get, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        if (r.statusCode() != 200) {
            throw new IOException(repositoryUrl + " answered " + r.statusCode() + ": " + r.body());
        }
        List<String> lines = new ArrayList<>();
        for (String line : r.body().split("\n")) {
            if (!line.isBlank()) {
                lines.add(line.strip());
            }
        }
        lines.sort(null);
        return lines;
    }

    static String checksum(List<String> sortedLines) {
        return StatementChecksum.of(sortedLines);
    }

    /** Statements per tagged group (subject {@code <urn:basalt-test:group:TAG>}). */
    static Map<String, Integer> groups(List<String> lines) {
        Map<String, Integer> counts = new HashMap<>();
        for (String line : lines) {
            if (line.startsWith("<" + GROUP_PREFIX)) {
                counts.merge(line.substring(GROUP_PREFIX.length() + 1, line.indexOf('>')), 1, Integer::sum);
            }
        }
        return counts;
    }

    @Override
    public void close() throws IOException {
        admin.close();
    }
}
