package dev.basalt.federation;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A federation on one machine: N Basalt servers as child processes on loopback ports (data in
 * {@code <data>/member-<i>}), the partitioning loader, and the FedX front in this process. What
 * {@code basalt-federation cluster} runs, and what the tests start.
 *
 * <p>{@link #close()} stops the front and every member and leaves no process behind; it is safe to
 * call from a shutdown hook. Not otherwise thread-safe.
 */
public final class LocalCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);
    public static final String HOST = "127.0.0.1";

    private final List<MemberServer> servers;
    private final Path dataDir;
    private final boolean reasoning;
    private final ReplicatedVocabulary replication;
    private SparqlFront front;

    private LocalCluster(List<MemberServer> servers, Path dataDir, boolean reasoning, ReplicatedVocabulary replication) {
        this.servers = servers;
        this.dataDir = dataDir;
        this.reasoning = reasoning;
        this.replication = replication;
    }

    /**
     * Starts {@code shards} members at once. {@code memberPorts} gives their ports, or is empty to take
     * free ports. If one fails to start, the others are stopped and the error is thrown.
     */
    public static LocalCluster start(int shards, Path dataDir, List<String> launcher, List<Integer> memberPorts)
            throws IOException, InterruptedException {
        return start(shards, dataDir, launcher, memberPorts, null, ReplicatedVocabulary.schema());
    }

    /**
     * Starts {@code shards} members whose repositories reason with {@code inference} ({@code rdfs},
     * {@code owl-rl}, or null for none); loads send the subjects {@code replication} names to every member.
     */
    public static LocalCluster start(int shards, Path dataDir, List<String> launcher, List<Integer> memberPorts,
            String inference, ReplicatedVocabulary replication) throws IOException, InterruptedException {
        return start(shards, dataDir, launcher, memberPorts, null, inference, replication);
    }

    /**
     * As above; each member also opens a select port (docs/federation.md) on {@code selectPorts}' port, or on a
     * free port when it is empty; null: no select ports (the front sends its star SELECTs to RDF4J Server).
     */
    public static LocalCluster start(int shards, Path dataDir, List<String> launcher, List<Integer> memberPorts,
            List<Integer> selectPorts, String inference, ReplicatedVocabulary replication)
            throws IOException, InterruptedException {
        if (!memberPorts.isEmpty() && memberPorts.size() != shards) {
            throw new IllegalArgumentException(memberPorts.size() + " member ports for " + shards + " shards");
        }
        if (selectPorts != null && !selectPorts.isEmpty() && selectPorts.size() != shards) {
            throw new IllegalArgumentException(selectPorts.size() + " member select ports for " + shards + " shards");
        }
        List<MemberServer> servers = new ArrayList<>();
        for (int i = 0; i < shards; i++) {
            int port = memberPorts.isEmpty() ? MemberServer.freePort() : memberPorts.get(i);
            int selectPort = selectPorts == null ? -1 : selectPorts.isEmpty() ? MemberServer.freePort() : selectPorts.get(i);
            servers.add(new MemberServer(launcher, HOST, port, dataDir.resolve("member-" + i), inference, selectPort));
        }
        LocalCluster cluster = new LocalCluster(servers, dataDir, inference != null, replication);
        ExecutorService pool = Executors.newFixedThreadPool(shards);
        try {
            List<Future<MemberServer>> starts = new ArrayList<>();
            for (MemberServer server : servers) {
                starts.add(pool.submit(server::start));
            }
            for (Future<MemberServer> start : starts) {
                start.get();
            }
        } catch (ExecutionException e) {
            cluster.close();
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
        return cluster;
    }

    /** The members in shard order. */
    public List<Member> members() {
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            members.add(new Member(i, servers.get(i).repositoryUrl(), servers.get(i).selectUrl()));
        }
        return members;
    }

    public MemberServer server(int shard) {
        return servers.get(shard);
    }

    /**
     * Partitions the files and loads every shard into its member in parallel; when the members reason,
     * then runs the {@link DistributedClosure}.
     */
    public PartitioningLoader.LoadResult load(List<Path> inputs) throws IOException, InterruptedException {
        PartitioningLoader.LoadResult result = new PartitioningLoader(members(), replication)
                .load(inputs, dataDir.resolve("split"));
        if (reasoning) {
            closure();
        }
        if (front != null) {
            front.refresh();
        }
        return result;
    }

    /** Exchanges the members' inferences until each holds the whole data set's closure of its subjects. */
    public DistributedClosure.Result closure() throws IOException, InterruptedException {
        return new DistributedClosure(members(), replication).run();
    }

    /** Starts the FedX front on {@code port} (0: a free one). */
    public SparqlFront startFront(FrontSettings settings, int port) throws IOException {
        if (front != null) {
            throw new IllegalStateException("the front runs already on port " + front.port());
        }
        front = SparqlFront.start(Federation.open(members(), settings.withReplication(replication)), settings, HOST, port);
        return front;
    }

    /** The repository id under which the front appears in the first member's RDF4J Server and Workbench. */
    public static final String WORKBENCH_REPOSITORY = "federation";

    /**
     * Adds the running front to the first member's RDF4J Server as the SPARQL-endpoint repository
     * {@value #WORKBENCH_REPOSITORY}, so the Workbench served by that member lists and queries the
     * federation; returns that repository's Workbench page.
     */
    public String registerWithWorkbench() throws IOException, InterruptedException {
        if (front == null) {
            throw new IllegalStateException("start the front first");
        }
        MemberServer first = servers.get(0);
        first.registerEndpoint(WORKBENCH_REPOSITORY, "Basalt federation of " + servers.size() + " members (read-only)",
                frontUrl());
        return first.workbenchUrl(WORKBENCH_REPOSITORY);
    }

    public String frontUrl() {
        return "http://" + HOST + ":" + front.port() + SparqlFront.PATH;
    }

    @Override
    public synchronized void close() throws InterruptedException {
        if (front != null) {
            front.close();
            front = null;
        }
        InterruptedException interrupted = null;
        for (MemberServer server : servers) {
            try {
                server.stop();
            } catch (InterruptedException e) {
                server.kill();
                interrupted = e;
            }
        }
        LOG.info("local cluster stopped ({} members)", servers.size());
        if (interrupted != null) {
            throw interrupted;
        }
    }
}
