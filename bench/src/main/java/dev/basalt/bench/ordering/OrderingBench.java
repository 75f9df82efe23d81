package dev.basalt.bench.ordering;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.query.TupleQuery;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * Static versus runtime join ordering on one Basalt store, on data where the static (greedy) order
 * is bad: {@code seeds} nodes of kind :Seed each link to {@code fanOut} nodes with status :Open;
 * {@code closed} nodes (more than seeds) have status :Closed and no incoming link. The query
 * {@code ?x :kind :Seed . ?x :link ?y . ?y :status :Closed} is empty. The static order starts at the
 * smaller :Seed pattern and makes seeds × fanOut rows before :Closed removes them; the runtime
 * optimizer measures the joins on samples and starts at :Closed. Both runs use the same store and
 * query, differing only in the query hint; each is timed after warm-up, median of the repeats.
 *
 * <p>Not thread-safe: a run loads and times its store on the calling thread.
 */
public final class OrderingBench {
    static final String EX = "http://example.org/ordering/";
    static final String QUERY = "PREFIX : <" + EX + "> SELECT * WHERE { %s ?x :kind :Seed . ?x :link ?y . "
            + "?y :status :Closed }";
    static final String HINT = "[] <http://basalt.dev/hint#optimizer> \"%s\" .";

    /** The measured figures of one mode. */
    public record Timing(String mode, long rows, double medianMillis, double minMillis, String plan) {
    }

    private final int seeds;
    private final int fanOut;
    private final int closed;
    private final int repeats;
    private final Consumer<String> progress;

    public OrderingBench(int seeds, int fanOut, int closed, int repeats, Consumer<String> progress) {
        if (closed <= seeds) {
            throw new IllegalArgumentException("--closed (" + closed + ") must exceed --seeds (" + seeds
                    + ") for the static order to start at the seeds");
        }
        this.seeds = seeds;
        this.fanOut = fanOut;
        this.closed = closed;
        this.repeats = repeats;
        this.progress = progress;
    }

    public Timing[] run(Path dir) {
        deleteRecursively(dir);
        Repository repo = new SailRepository(new BasaltStore(dir.toFile(), new BasaltStoreConfig()));
        repo.init();
        try (RepositoryConnection conn = repo.getConnection()) {
            load(conn);
            Timing[] out = { time(conn, "static"), time(conn, "runtime") };
            if (out[0].rows() != out[1].rows()) {
                throw new IllegalStateException("static and runtime orders disagree: " + out[0].rows() + " vs "
                        + out[1].rows() + " rows");
            }
            return out;
        } finally {
            repo.shutDown();
            deleteRecursively(dir);
        }
    }

    private void load(RepositoryConnection conn) {
        ValueFactory vf = conn.getValueFactory();
        IRI kind = vf.createIRI(EX, "kind");
        IRI link = vf.createIRI(EX, "link");
        IRI status = vf.createIRI(EX, "status");
        int open = seeds * fanOut / 4 + 1;
        conn.begin();
        for (int i = 0; i < seeds; i++) {
            IRI x = vf.createIRI(EX, "seed" + i);
            conn.add(x, kind, vf.createIRI(EX, "Seed"));
            for (int f = 0; f < fanOut; f++) {
                conn.add(x, link, vf.createIRI(EX, "open" + (i * 7 + f) % open));
            }
        }
        for (int y = 0; y < open; y++) {
            conn.add(vf.createIRI(EX, "open" + y), status, vf.createIRI(EX, "Open"));
        }
        for (int y = 0; y < closed; y++) {
            conn.add(vf.createIRI(EX, "closed" + y), status, vf.createIRI(EX, "Closed"));
        }
        conn.commit();
        progress.accept(String.format(Locale.ROOT, "loaded %,d triples (%,d seeds x %,d links, %,d closed)",
                conn.size(), seeds, fanOut, closed));
    }

    private Timing time(RepositoryConnection conn, String mode) {
        String q = String.format(Locale.ROOT, QUERY, String.format(Locale.ROOT, HINT, mode));
        long rows = 0;
        for (int i = 0; i < Math.max(3, repeats / 4); i++) {
            rows = count(conn, q);
        }
        double[] ms = new double[repeats];
        for (int i = 0; i < repeats; i++) {
            long t = System.nanoTime();
            count(conn, q);
            ms[i] = (System.nanoTime() - t) / 1e6;
        }
        Arrays.sort(ms);
        String plan = conn.prepareTupleQuery(q).explain(Explanation.Level.Executed).toString();
        Timing timing = new Timing(mode, rows, ms[repeats / 2], ms[0], plan);
        progress.accept(String.format(Locale.ROOT, "%s: %d rows, median %.2f ms, min %.2f ms over %d runs", mode, rows,
                timing.medianMillis(), timing.minMillis(), repeats));
        return timing;
    }

    private static long count(RepositoryConnection conn, String query) {
        TupleQuery tq = conn.prepareTupleQuery(query);
        long n = 0;
        try (TupleQueryResult r = tq.evaluate()) {
            while (r.hasNext()) {
                r.next();
                n++;
            }
        }
        return n;
    }

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
