package dev.basalt.replication;

import java.lang.reflect.Field;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.ratis.server.RaftServer;

/**
 * Fault injection for one replica's Raft log: holds back the log appends of the entries its leader
 * sends, as a busy machine does when the thread that would append them waits for a core, while
 * the replica goes on receiving heartbeats. It works on Ratis's "compose" append path (Ratis 3.3's
 * default), where a follower registers the received entries' terms and indices and chains the
 * append itself behind the previous one on another thread: the hold puts an open future at the end
 * of that chain (Ratis's private {@code RaftServerImpl.appendLogTermIndices.future}, reached by
 * reflection) and {@link #close} completes it. A replica that appends synchronously, in the thread
 * that received the entries (how {@link ReplicaNode} configures Ratis), has no such chain: then
 * {@link #holding()} is false and nothing is held, because nothing can be.
 *
 * <p>Thread rules: {@link #hold} and {@link #close} from the test thread; Ratis's threads run the
 * held appends once closed.
 */
final class FollowerAppendDelay implements AutoCloseable {
    private final CompletableFuture<Void> gate;

    private FollowerAppendDelay(CompletableFuture<Void> gate) {
        this.gate = gate;
    }

    /** Holds every append of leader entries on {@code division} from now until {@link #close}. */
    @SuppressWarnings("unchecked")
    static FollowerAppendDelay hold(RaftServer.Division division) throws ReflectiveOperationException {
        Field indicesField = division.getClass().getDeclaredField("appendLogTermIndices");
        indicesField.setAccessible(true);
        Object indices = indicesField.get(division);
        if (indices == null) {
            return new FollowerAppendDelay(null);
        }
        Field futureField = indices.getClass().getDeclaredField("future");
        futureField.setAccessible(true);
        AtomicReference<CompletableFuture<Void>> chain = (AtomicReference<CompletableFuture<Void>>) futureField
                .get(indices);
        CompletableFuture<Void> gate = new CompletableFuture<>();
        chain.updateAndGet(previous -> previous.thenCompose(done -> gate));
        return new FollowerAppendDelay(gate);
    }

    /** True if appends are held (the replica appends on Ratis's compose path). */
    boolean holding() {
        return gate != null;
    }

    /** Lets the held appends run. */
    @Override
    public void close() {
        if (gate != null) {
            gate.complete(null);
        }
    }
}
