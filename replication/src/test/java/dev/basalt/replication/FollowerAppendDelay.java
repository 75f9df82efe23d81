package dev.basalt.replication;

import java.lang.reflect.Field;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;

/**
 * Fault injection for one replica's Raft log: holds back the log appends of the entries its leader
 * sends, as a busy machine does when the thread that would append them waits for a core, while
 * the replica goes on receiving heartbeats. It works on Ratis's "compose" append path (Ratis 3.3's
 * default), where a follower registers the received entries' terms and indices and chains the
 * append itself behind the previous one on another thread: the hold puts an open future at the end
 * of that chain (Ratis's private {@code RaftServerImpl.appendLogTermIndices.future}, reached by
 * reflection) and {@link #close} completes it. A replica that appends synchronously, in the thread
 * that received the entries (how {@link ReplicaNode#appendSynchronously} configures Ratis), has no
 * such chain: then {@link #holding()} is false and nothing is held, because nothing can be.
 *
 * <p>Reflection into private fields breaks silently when Ratis changes them, so {@link #hold} fails
 * with an {@link AssertionError} naming what is missing when the fields are not what this class
 * expects, or when the replica appends on the compose path and yet no chain is found;
 * {@code FollowerAppendDelayTest} checks against the Ratis on the class path that a hold still
 * keeps a follower's log from growing.
 *
 * <p>Thread rules: {@link #hold} and {@link #close} from the test thread; Ratis's threads run the
 * held appends once closed.
 */
final class FollowerAppendDelay implements AutoCloseable {
    private final CompletableFuture<Void> gate;

    private FollowerAppendDelay(CompletableFuture<Void> gate) {
        this.gate = gate;
    }

    /**
     * Holds every append of leader entries on {@code division} from now until {@link #close}; holds
     * nothing if the division appends synchronously (compose off).
     *
     * @throws AssertionError if Ratis's private append chain is not where this class looks for it
     */
    static FollowerAppendDelay hold(RaftServer.Division division) {
        boolean compose = RaftServerConfigKeys.Log.appendEntriesComposeEnabled(division.getRaftServer()
                .getProperties());
        Object indices = read(division, "appendLogTermIndices");
        if (indices == null) {
            if (compose) {
                throw internalsChanged("append-entries.compose is on but RaftServerImpl.appendLogTermIndices is null",
                        null);
            }
            return new FollowerAppendDelay(null);
        }
        Object chain = read(indices, "future");
        if (!(chain instanceof AtomicReference<?> reference) || !(reference.get() instanceof CompletableFuture<?>)) {
            throw internalsChanged("appendLogTermIndices.future is " + (chain == null ? "null"
                    : "a " + chain.getClass().getName()) + ", not an AtomicReference to a CompletableFuture", null);
        }
        @SuppressWarnings("unchecked")
        AtomicReference<CompletableFuture<Void>> appends = (AtomicReference<CompletableFuture<Void>>) chain;
        CompletableFuture<Void> gate = new CompletableFuture<>();
        appends.updateAndGet(previous -> previous.thenCompose(done -> gate));
        return new FollowerAppendDelay(gate);
    }

    private static Object read(Object owner, String name) {
        try {
            Field field = owner.getClass().getDeclaredField(name);
            field.setAccessible(true);
            return field.get(owner);
        } catch (NoSuchFieldException e) {
            throw internalsChanged(owner.getClass().getName() + " has no field '" + name + "'", e);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw internalsChanged("cannot read " + owner.getClass().getName() + "." + name + ": " + e, e);
        }
    }

    private static AssertionError internalsChanged(String what, Throwable cause) {
        return new AssertionError("FollowerAppendDelay holds a follower's appends through Ratis's private append"
                + " chain, which " + ratisJar() + " no longer has as expected: " + what + ". Find where a follower"
                + " appends the entries it receives (RaftServerImpl.appendEntriesAsync) and hold that instead;"
                + " until then PartitionTest's held-append case cannot reproduce the race ReplicaNode"
                + ".appendSynchronously is for.", cause);
    }

    /** The jar Ratis's server implementation was loaded from (its file name carries the version). */
    static String ratisJar() {
        try {
            var source = Class.forName("org.apache.ratis.server.impl.RaftServerImpl").getProtectionDomain()
                    .getCodeSource();
            String location = source == null ? "Ratis" : source.getLocation().getPath();
            return location.substring(location.lastIndexOf('/', location.length() - 2) + 1);
        } catch (ClassNotFoundException e) {
            return "this Ratis (no org.apache.ratis.server.impl.RaftServerImpl)";
        }
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
