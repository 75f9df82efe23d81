package dev.basalt.federation;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code basalt-federation.jar} command line: split, load, owner, serve, cluster and closure. Progress
 * goes to the log (standard error); answers meant for scripts (shard numbers, URLs) to standard output.
 *
 * <p>Not thread-safe: picocli fills and runs its command objects on the main thread, which then blocks
 * while the front's and the cluster's own threads serve; only the shutdown hooks run elsewhere.
 */
@Command(name = "basalt-federation", mixinStandardHelpOptions = true,
        subcommands = { FederationMain.Split.class, FederationMain.Load.class, FederationMain.Owner.class,
                FederationMain.Serve.class, FederationMain.Cluster.class, FederationMain.Closure.class },
        description = "Basalt shards federated by RDF4J FedX (docs/federation.md).")
public final class FederationMain implements Runnable {

    public static void main(String[] args) {
        System.exit(new CommandLine(new FederationMain()).execute(args));
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    /** The FedX front's options, shared by serve and cluster. */
    static final class FrontOptions {
        @Option(names = "--port", description = "port of the SPARQL front (default ${DEFAULT-VALUE})")
        int port = 8090;

        @Option(names = "--member-timeout", description = "seconds a member may take to connect or to send more of its answer; a request"
                + " never waits past its query's timeout either (default ${DEFAULT-VALUE})")
        long memberTimeoutSeconds = FrontSettings.defaults().memberTimeout().toSeconds();

        @Option(names = "--query-timeout", description = "seconds a federated query may run, member requests and the front's own"
                + " evaluation included (default ${DEFAULT-VALUE})")
        long queryTimeoutSeconds = FrontSettings.defaults().queryTimeout().toSeconds();

        @Option(names = "--bound-join-block-size", description = "bindings per bound-join request (default ${DEFAULT-VALUE})")
        int boundJoinBlockSize = FrontSettings.defaults().boundJoinBlockSize();

        @Option(names = "--join-threads", description = "FedX join worker threads (default ${DEFAULT-VALUE})")
        int joinThreads = FrontSettings.defaults().joinWorkerThreads();

        @Option(names = "--union-threads", description = "FedX union worker threads (default ${DEFAULT-VALUE})")
        int unionThreads = FrontSettings.defaults().unionWorkerThreads();

        @Option(names = "--max-result-bytes", description = "largest answer the front buffers (default ${DEFAULT-VALUE})")
        long maxResultBytes = FrontSettings.defaults().maxResultBytes();

        @Option(names = "--max-member-rows", description = "most rows the front reads from one member's answer to a"
                + " star subquery; it holds them in memory while it joins (default ${DEFAULT-VALUE})")
        long maxMemberRows = FrontSettings.defaults().maxMemberRows();

        @Option(names = "--star-pushdown", negatable = true, defaultValue = "true", fallbackValue = "true",
                description = "send the patterns sharing a subject to the members as one subquery (default ${DEFAULT-VALUE};"
                        + " --no-star-pushdown leaves every pattern to FedX)")
        boolean starPushdown = true;

        @Option(names = "--warmup", description = "queries the front sends itself before it announces its URL, made from"
                + " a sample of the members' data, so that the JIT compiles its request path first; 0: none"
                + " (default ${DEFAULT-VALUE})")
        int warmup = FrontWarmup.DEFAULT_QUERIES;

        /**
         * Warms {@code server} and says what it did; over members without data it warms itself at the first
         * refresh that finds data ({@link SparqlFront#warmUp}).
         */
        void warm(SparqlFront server) {
            FrontWarmup.Result r = server.warmUp(warmup);
            if (r != null) {
                System.out.println(r.queries() > 0 ? r.line() : "front warm-up: no data on the members yet; the front"
                        + " warms itself at the first refresh that finds data (load --front URL)");
            }
        }

        FrontSettings settings(ReplicatedVocabulary replication) {
            FrontSettings d = FrontSettings.defaults();
            return new FrontSettings(Duration.ofSeconds(memberTimeoutSeconds), Duration.ofSeconds(queryTimeoutSeconds),
                    boundJoinBlockSize, joinThreads, unionThreads, d.sourceSelectionCache(), maxResultBytes, maxMemberRows,
                    d.httpThreads(), starPushdown, replication);
        }
    }

    /** Which subjects go to every member besides the ontology's; loader, closure and front must agree. */
    static final class ReplicationOptions {
        @Option(names = "--replicate-class", split = ",", description = "class IRIs whose instances every member holds")
        List<String> classes = new ArrayList<>();

        @Option(names = "--replicate-predicate", split = ",",
                description = "predicate IRIs whose subjects every member holds (with all their statements)")
        List<String> predicates = new ArrayList<>();

        ReplicatedVocabulary vocabulary() {
            return ReplicatedVocabulary.with(predicates, classes);
        }
    }

    /** The {@code --members} option that load, owner and serve share. */
    static final class MembersOption {
        @Option(names = "--members", required = true, description = "comma-separated repository URLs; position i = shard i")
        String urls;

        List<Member> list() {
            return Member.parseList(urls);
        }
    }

    @Command(name = "split", mixinStandardHelpOptions = true,
            description = "Writes one N-Triples/N-Quads file per shard (subject hash), without loading them.")
    static final class Split implements Callable<Integer> {
        @Option(names = "--shards", required = true, description = "number of shards")
        int shards;

        @Option(names = "--out", required = true, description = "directory for shard-<i>.nt / .nq")
        Path out;

        @Parameters(arity = "1..*", description = "N-Triples (.nt) or N-Quads (.nq) files, optionally .gz")
        List<Path> files;

        @CommandLine.Mixin
        ReplicationOptions replication = new ReplicationOptions();

        @Override
        public Integer call() throws Exception {
            ShardSplitter.Split split = new ShardSplitter(new SubjectHashPartition(shards), replication.vocabulary())
                    .split(files, out);
            for (int i = 0; i < shards; i++) {
                System.out.println(split.files().get(i) + "\t" + split.statements()[i]);
            }
            return 0;
        }
    }

    @Command(name = "load", mixinStandardHelpOptions = true,
            description = "Splits the files by subject hash and loads each shard into its running member, in parallel.")
    static final class Load implements Callable<Integer> {
        @CommandLine.Mixin
        MembersOption members = new MembersOption();

        @Option(names = "--work", description = "directory for the shard files (default: a temporary directory)")
        Path work;

        @Option(names = "--closure", description = "then run the distributed closure (members with basalt:inference)")
        boolean closure;

        @Option(names = "--front", description = "the front's SPARQL URL: told to refresh what it learned from the data")
        String front;

        @Parameters(arity = "1..*", description = "N-Triples (.nt) or N-Quads (.nq) files, optionally .gz")
        List<Path> files;

        @CommandLine.Mixin
        ReplicationOptions replication = new ReplicationOptions();

        @Override
        public Integer call() throws Exception {
            Path dir = work != null ? work : java.nio.file.Files.createTempDirectory("basalt-split");
            PartitioningLoader.LoadResult result = new PartitioningLoader(members.list(), replication.vocabulary())
                    .load(files, dir);
            System.out.printf("%d statements in %.1f s%n", result.statements(), result.totalNanos() / 1e9);
            if (closure) {
                runClosure(members.list(), replication.vocabulary());
            }
            if (front != null) {
                java.net.http.HttpResponse<String> refreshed = java.net.http.HttpClient.newHttpClient().send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(front.replaceAll("/sparql/?$", "")
                                + SparqlFront.REFRESH_PATH)).POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                System.out.println("front " + front + ": " + refreshed.body().trim());
            }
            return 0;
        }
    }

    @Command(name = "owner", mixinStandardHelpOptions = true,
            description = "Prints the shard (and member URL) that owns each subject: where to send its updates.")
    static final class Owner implements Callable<Integer> {
        @CommandLine.Mixin
        MembersOption members = new MembersOption();

        @Parameters(arity = "1..*", description = "subject IRIs, or _:label for blank nodes")
        List<String> subjects;

        @Override
        public Integer call() {
            List<Member> list = members.list();
            SubjectHashPartition partition = new SubjectHashPartition(list.size());
            for (String subject : subjects) {
                String key = subject.startsWith("<") && subject.endsWith(">") ? subject.substring(1, subject.length() - 1)
                        : subject;
                Member owner = list.get(partition.shardOf(key));
                System.out.println(subject + "\t" + owner.shard() + "\t" + owner.repositoryUrl());
            }
            return 0;
        }
    }

    @Command(name = "serve", mixinStandardHelpOptions = true,
            description = "Runs the FedX front over running members until stopped (Ctrl-C).")
    static final class Serve implements Callable<Integer> {
        @CommandLine.Mixin
        MembersOption members = new MembersOption();

        @Option(names = "--host", description = "address to listen on (default ${DEFAULT-VALUE}; the front has no authentication)")
        String host = "127.0.0.1";

        @Option(names = "--member-select-urls", description = "the members' select ports (launcher option"
                + " -Dbasalt.server.selectPort), comma-separated in the order of --members, e.g."
                + " http://h0:8081/repositories/basalt: the front sends its star SELECTs there (default: to --members)")
        String selectUrls;

        @CommandLine.Mixin
        FrontOptions front = new FrontOptions();

        @CommandLine.Mixin
        ReplicationOptions replication = new ReplicationOptions();

        @Override
        public Integer call() throws Exception {
            FrontSettings settings = front.settings(replication.vocabulary());
            SparqlFront server = SparqlFront.start(Federation.open(Member.withSelectUrls(members.list(), selectUrls),
                    settings), settings, host, front.port);
            front.warm(server);
            System.out.println("federation SPARQL endpoint: http://" + host + ":" + server.port() + SparqlFront.PATH);
            awaitShutdown(server::close);
            return 0;
        }
    }

    @Command(name = "cluster", mixinStandardHelpOptions = true,
            description = "Starts N Basalt servers on loopback, loads the files partitioned, and serves the FedX front.")
    static final class Cluster implements Callable<Integer> {
        @Option(names = "--shards", description = "number of Basalt servers (default ${DEFAULT-VALUE})")
        int shards = 3;

        @Option(names = "--data", required = true, description = "directory of the members' data (member-<i>/)")
        Path data;

        @Option(names = "--server-jar", description = "the Basalt launcher (default ${DEFAULT-VALUE})")
        Path serverJar = Path.of("workbench-config/target/basalt-server.jar");

        @Option(names = "--member-heap", description = "heap of each Basalt server (default ${DEFAULT-VALUE})")
        String memberHeap = "1g";

        @Option(names = "--member-ports", split = ",", description = "ports of the members (default: free ports)")
        List<Integer> memberPorts = new ArrayList<>();

        @Option(names = "--member-select-ports", split = ",", description = "ports of the members' select ports,"
                + " where the front sends its star SELECTs (default: free ports)")
        List<Integer> selectPorts = new ArrayList<>();

        @Option(names = "--select-ports", negatable = true, defaultValue = "true", fallbackValue = "true",
                description = "open a select port on every member for the front's star SELECTs (default ${DEFAULT-VALUE};"
                        + " --no-select-ports sends them to the members' RDF4J Servers; docs/federation.md)")
        boolean selectPortsOn = true;

        @Option(names = "--load", split = ",", description = "N-Triples/N-Quads files to partition and load")
        List<Path> load = new ArrayList<>();

        @Option(names = "--inference", description = "rule set of the members' reasoner: rdfs or owl-rl (default: none);"
                + " loads then run the distributed closure")
        String inference;

        @CommandLine.Mixin
        FrontOptions front = new FrontOptions();

        @CommandLine.Mixin
        ReplicationOptions replication = new ReplicationOptions();

        @Override
        public Integer call() throws Exception {
            LocalCluster cluster = LocalCluster.start(shards, data, MemberServer.jarLauncher(serverJar, memberHeap),
                    memberPorts, selectPortsOn || !selectPorts.isEmpty() ? selectPorts : null, inference, replication.vocabulary());
            Thread hook = new Thread(() -> {
                try {
                    cluster.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "basalt-cluster-stop");
            Runtime.getRuntime().addShutdownHook(hook);
            if (!load.isEmpty()) {
                cluster.load(load);
            }
            front.warm(cluster.startFront(front.settings(replication.vocabulary()), front.port));
            for (Member member : cluster.members()) {
                System.out.println(member.id() + ": " + member.repositoryUrl()); // the bench reads the URL after "shard-i:"
                if (member.selectUrl() != null) {
                    System.out.println(member.id() + " select port: " + member.selectUrl());
                }
            }
            String workbench = cluster.registerWithWorkbench();
            System.out.println("federation SPARQL endpoint: " + cluster.frontUrl());
            System.out.println("federation in the Workbench: " + workbench);
            System.out.flush();
            new CountDownLatch(1).await();
            return 0;
        }
    }

    @Command(name = "closure", mixinStandardHelpOptions = true,
            description = "Exchanges the members' inferences until each holds the closure of the whole data set"
                    + " for its subjects (members with basalt:inference; run after every load).")
    static final class Closure implements Callable<Integer> {
        @CommandLine.Mixin
        MembersOption members = new MembersOption();

        @CommandLine.Mixin
        ReplicationOptions replication = new ReplicationOptions();

        @Override
        public Integer call() throws Exception {
            runClosure(members.list(), replication.vocabulary());
            return 0;
        }
    }

    /** Runs the distributed closure over {@code members} and prints what it did. */
    private static void runClosure(List<Member> members, ReplicatedVocabulary replication)
            throws java.io.IOException, InterruptedException {
        DistributedClosure.Result r = new DistributedClosure(members, replication).run();
        System.out.printf("distributed closure: %d rounds, %d statements sent (%d borrowed premises), %.1f s%n",
                r.rounds(), r.shipped(), r.borrowed(), r.nanos() / 1e9);
    }

    /** Blocks until the JVM is asked to stop, running {@code onStop} from the shutdown hook. */
    private static void awaitShutdown(Runnable onStop) throws InterruptedException {
        Runtime.getRuntime().addShutdownHook(new Thread(onStop, "basalt-front-stop"));
        new CountDownLatch(1).await();
    }
}
