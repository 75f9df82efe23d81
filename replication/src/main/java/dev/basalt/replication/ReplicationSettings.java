package dev.basalt.replication;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How one replica joins its cluster: its own id, every member's Raft address (id to host:port,
 * this node included), the cluster name (the Raft group id is derived from it), how long a commit
 * waits for a majority before it fails, and log retention: a snapshot (a hot backup of the store)
 * every {@code snapshotEvery} entries, after which the log is purged up to the snapshot except the
 * last {@code retainEntries} entries (0 for {@code snapshotEvery} keeps the whole log). The log is
 * written in segment files of about {@code segmentBytes}; a purge removes whole segments only. A
 * transaction whose encoded change set exceeds {@code pieceBytes} is committed as several log
 * entries of at most that size (docs/replication.md, "Large transactions"). Elections: a follower
 * that hears from no leader for a timeout drawn between 30 % of {@code electionTimeoutMillis} and
 * all of it stands for election, and a leader that hears from no majority for all of it steps down
 * (the trade-off between a fast failover and a leader kept through pauses: docs/replication.md,
 * "Failover").
 *
 * <p>Immutable.
 */
public record ReplicationSettings(String nodeId, Map<String, String> peers, String cluster, long commitTimeoutMillis,
        long snapshotEvery, long retainEntries, long segmentBytes, int pieceBytes, long electionTimeoutMillis) {
    public static final String DEFAULT_CLUSTER = "basalt";
    public static final long DEFAULT_COMMIT_TIMEOUT_MILLIS = 30_000;
    public static final long DEFAULT_SNAPSHOT_EVERY = 100_000;
    public static final long DEFAULT_RETAIN_ENTRIES = 10_000;
    public static final long DEFAULT_SEGMENT_BYTES = 8L << 20;
    public static final int DEFAULT_PIECE_BYTES = 4 << 20;
    /**
     * Elections after 0.6-2 s without a leader; a leader steps down after 2 s without a majority
     * (docs/replication.md, "Failover").
     */
    public static final long DEFAULT_ELECTION_TIMEOUT_MILLIS = 2_000;
    /** Shorter than this, a collection or a scheduling delay alone would depose leaders all the time. */
    public static final long MIN_ELECTION_TIMEOUT_MILLIS = 200;
    /** The largest piece: below the Raft message limit ({@code ReplicaNode.MAX_ENTRY_BYTES}) with room for headers. */
    public static final int MAX_PIECE_BYTES = 12 << 20;
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Pattern ADDRESS = Pattern.compile("[^\\s:,=]+:\\d{1,5}");

    public ReplicationSettings {
        peers = Collections.unmodifiableMap(new LinkedHashMap<>(peers));
        if (!ID.matcher(nodeId).matches()) {
            throw new IllegalArgumentException("node id '" + nodeId + "' may use only letters, digits, '_' and '-'");
        }
        if (!peers.containsKey(nodeId)) {
            throw new IllegalArgumentException("node id '" + nodeId + "' is not among the peers " + peers.keySet());
        }
        for (Map.Entry<String, String> p : peers.entrySet()) {
            if (!ID.matcher(p.getKey()).matches() || !ADDRESS.matcher(p.getValue()).matches()) {
                throw new IllegalArgumentException("peer '" + p.getKey() + "=" + p.getValue()
                        + "' must be ID=HOST:PORT (id of letters, digits, '_', '-')");
            }
        }
        if (pieceBytes < 1 || pieceBytes > MAX_PIECE_BYTES) {
            throw new IllegalArgumentException("pieceBytes must be 1.." + MAX_PIECE_BYTES + ", got " + pieceBytes);
        }
        if (electionTimeoutMillis < MIN_ELECTION_TIMEOUT_MILLIS || electionTimeoutMillis > 60_000) {
            throw new IllegalArgumentException("electionTimeoutMillis must be " + MIN_ELECTION_TIMEOUT_MILLIS
                    + "..60000, got " + electionTimeoutMillis);
        }
        if (commitTimeoutMillis <= 0 || snapshotEvery < 0 || retainEntries < 0 || segmentBytes < 1024) {
            throw new IllegalArgumentException("commit timeout must be positive, snapshotEvery and retainEntries"
                    + " at least 0, segmentBytes at least 1024; got " + commitTimeoutMillis + ", " + snapshotEvery
                    + ", " + retainEntries + ", " + segmentBytes);
        }
    }

    /** Settings with the default cluster name, commit timeout and retention. */
    public static ReplicationSettings of(String nodeId, String peers) {
        return new ReplicationSettings(nodeId, parsePeers(peers), DEFAULT_CLUSTER, DEFAULT_COMMIT_TIMEOUT_MILLIS,
                DEFAULT_SNAPSHOT_EVERY, DEFAULT_RETAIN_ENTRIES, DEFAULT_SEGMENT_BYTES,
                DEFAULT_PIECE_BYTES, DEFAULT_ELECTION_TIMEOUT_MILLIS);
    }

    /** Parses {@code id=host:port,id=host:port,...}. */
    public static Map<String, String> parsePeers(String peers) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String part : peers.split(",")) {
            String p = part.trim();
            int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("peer '" + p + "' in '" + peers + "' must be ID=HOST:PORT");
            }
            if (map.put(p.substring(0, eq), p.substring(eq + 1)) != null) {
                throw new IllegalArgumentException("peer id '" + p.substring(0, eq) + "' appears twice in '" + peers + "'");
            }
        }
        return map;
    }

    /** The peers as {@link #parsePeers} reads them. */
    public String peersString() {
        StringBuilder b = new StringBuilder();
        peers.forEach((id, address) -> b.append(b.length() == 0 ? "" : ",").append(id).append('=').append(address));
        return b.toString();
    }

    public int raftPort() {
        String address = peers.get(nodeId);
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    public ReplicationSettings withCommitTimeoutMillis(long millis) {
        return new ReplicationSettings(nodeId, peers, cluster, millis, snapshotEvery, retainEntries, segmentBytes,
                pieceBytes, electionTimeoutMillis);
    }

    public ReplicationSettings withRetention(long snapshotEvery, long retainEntries, long segmentBytes) {
        return new ReplicationSettings(nodeId, peers, cluster, commitTimeoutMillis, snapshotEvery, retainEntries,
                segmentBytes, pieceBytes, electionTimeoutMillis);
    }

    public ReplicationSettings withElectionTimeoutMillis(long millis) {
        return new ReplicationSettings(nodeId, peers, cluster, commitTimeoutMillis, snapshotEvery, retainEntries,
                segmentBytes, pieceBytes, millis);
    }

    /**
     * The shortest election timeout, 30 % of the longest: Ratis draws each follower's timeout between
     * the two and sends heartbeats every half of the shortest, while a leader steps down only after
     * the longest without a majority. A wide range keeps the failover's start early (the first of
     * the survivors to time out) and the leader's tolerance of a slow follower long, and makes two
     * survivors' timeouts rarely end together (a split vote).
     */
    public long electionTimeoutMinMillis() {
        return electionTimeoutMillis * 3 / 10;
    }

    public ReplicationSettings withPieceBytes(int bytes) {
        return new ReplicationSettings(nodeId, peers, cluster, commitTimeoutMillis, snapshotEvery, retainEntries,
                segmentBytes, bytes, electionTimeoutMillis);
    }
}
