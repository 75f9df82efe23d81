package dev.basalt.replication;

/**
 * A replica's consistency controls over JMX, {@code dev.basalt:type=Replica,node=<id>}: what the
 * launcher's {@code /replication} endpoint serves to clients for read-your-writes and linearizable
 * reads (docs/replication.md). Any thread may call it.
 */
public interface ReplicaMXBean {
    String getNodeId();

    /** LEADER, FOLLOWER, CANDIDATE, or STOPPED when the replica stopped applying the log. */
    String getRole();

    /** The leader's id as this replica knows it, or an empty string. */
    String getLeaderId();

    /** One line for a diagnosis (see {@link ReplicatedSail#describe}). */
    String getDiagnostics();

    /** The last log index applied here: every write acknowledged at or below it is visible here. */
    long getAppliedIndex();

    /** Waits until log index {@code index} is applied here; false if {@code timeoutMillis} passed first. */
    boolean awaitApplied(long index, long timeoutMillis) throws InterruptedException;

    /**
     * The leader's applied index confirmed by Ratis's read-index protocol (the leader checks it
     * still leads), then waited for here: a read on this replica after it returns sees every write
     * acknowledged before the call. -1 if that took longer than {@code timeoutMillis}.
     */
    long linearizableIndex(long timeoutMillis) throws InterruptedException;

    /**
     * Changes the membership to {@code peers} ({@code id=host:port,...}, every member of the new
     * configuration); returns an empty string on success, else why it was refused.
     */
    String setPeers(String peers);
}
