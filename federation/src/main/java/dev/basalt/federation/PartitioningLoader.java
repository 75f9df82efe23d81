package dev.basalt.federation;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads N-Triples/N-Quads files into a running federation: splits them by
 * {@link SubjectHashPartition} into one file per member, then sends every shard file to its member
 * at once, each as one {@code POST <repository>/statements} of RDF4J Server's REST API, which Basalt
 * takes through its bulk write path. The statements of replicated subjects ({@link ReplicatedVocabulary}:
 * the ontology, configured small classes) go to every member. One request per shard keeps each shard's load one transaction
 * (all or nothing on that member) and keeps a blank node label meaning one node within the shard.
 *
 * <p>The load adds to what the members hold; it is not atomic across members: if one member fails,
 * the others keep their shard, and the error names the member that failed so that its shard file
 * can be sent again. Thread rules: one load at a time per instance; the uploads run on their own
 * threads.
 */
public final class PartitioningLoader {
    private static final Logger LOG = LoggerFactory.getLogger(PartitioningLoader.class);

    /** Timing of one load, for the report and the benchmark. */
    public record LoadResult(long statements, long splitNanos, long uploadNanos, long[] memberNanos) {
        public long totalNanos() {
            return splitNanos + uploadNanos;
        }
    }

    private final List<Member> members;
    private final ReplicatedVocabulary replication;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    public PartitioningLoader(List<Member> members) {
        this(members, ReplicatedVocabulary.schema());
    }

    /** A loader that sends the statements of the subjects {@code replication} names to every member. */
    public PartitioningLoader(List<Member> members, ReplicatedVocabulary replication) {
        this.members = List.copyOf(members);
        this.replication = replication;
    }

    /** Splits {@code inputs} into {@code workDir} (shard files are deleted after a successful load) and loads them. */
    public LoadResult load(List<Path> inputs, Path workDir) throws IOException, InterruptedException {
        long started = System.nanoTime();
        ShardSplitter.Split split = new ShardSplitter(new SubjectHashPartition(members.size()), replication)
                .split(inputs, workDir);
        long splitNanos = System.nanoTime() - started;
        long uploadStarted = System.nanoTime();
        long[] memberNanos = uploadAll(split);
        long uploadNanos = System.nanoTime() - uploadStarted;
        for (Path file : split.files()) {
            Files.deleteIfExists(file);
        }
        LoadResult result = new LoadResult(split.total(), splitNanos, uploadNanos, memberNanos);
        LOG.info("loaded {} statements into {} members in {} ms (split {} ms, parallel upload {} ms), {} statements/s",
                result.statements(), members.size(), result.totalNanos() / 1_000_000, splitNanos / 1_000_000,
                uploadNanos / 1_000_000, (long) (result.statements() / (result.totalNanos() / 1e9)));
        return result;
    }

    /** Sends already split shard files (shard i to member i) in parallel; returns each member's time. */
    public long[] uploadAll(ShardSplitter.Split split) throws IOException, InterruptedException {
        if (split.files().size() != members.size()) {
            throw new IllegalArgumentException(split.files().size() + " shard files for " + members.size() + " members");
        }
        ExecutorService pool = Executors.newFixedThreadPool(members.size(), r -> {
            Thread t = new Thread(r, "basalt-shard-upload");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Long>> uploads = new ArrayList<>();
            for (Member member : members) {
                Path file = split.files().get(member.shard());
                String type = split.quads() ? "application/n-quads" : "application/n-triples";
                uploads.add(pool.submit(() -> upload(member, file, type)));
            }
            long[] nanos = new long[members.size()];
            IOException failure = null;
            for (int i = 0; i < uploads.size(); i++) {
                try {
                    nanos[i] = uploads.get(i).get();
                } catch (ExecutionException e) {
                    IOException cause = e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
                    if (failure == null) {
                        failure = cause;
                    } else {
                        failure.addSuppressed(cause);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
            return nanos;
        } finally {
            pool.shutdownNow();
        }
    }

    private long upload(Member member, Path file, String contentType) throws IOException, InterruptedException {
        long started = System.nanoTime();
        HttpRequest request = HttpRequest.newBuilder(URI.create(member.repositoryUrl() + "/statements"))
                .header("Content-Type", contentType + "; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofFile(file))
                .build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IOException("member " + member.describe() + " did not take shard file " + file + ": " + e
                    + "; check that the server runs, then load that file again", e);
        }
        if (response.statusCode() / 100 != 2) {
            throw new IOException("member " + member.describe() + " refused shard file " + file + " (HTTP "
                    + response.statusCode() + "): " + response.body());
        }
        long nanos = System.nanoTime() - started;
        LOG.info("{}: {} loaded in {} ms", member.id(), file.getFileName(), nanos / 1_000_000);
        return nanos;
    }
}
