package dev.basalt.bench.ordering;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;

import dev.basalt.bench.store.StoreSetup;

/**
 * Nested groups (UNION, BIND, a filtered branch) after a pattern that binds a few subjects, on
 * every store side by side. {@code subjects} nodes each have one of seven {@code :pN} literal
 * properties and one of three {@code :qN} links to another node; {@code :a :link} points at 10 of
 * them (every tenth of the subjects). SPARQL evaluates such a group on its own and joins its solutions, so an engine that does
 * exactly that reads whole properties; one that passes the left rows' bindings in does a few
 * lookups. Each query is timed after warm-up on every store, median of the repeats (at most 10 s
 * of them, at least 3); the stores' result counts must agree.
 *
 * <p>Not thread-safe: a run loads and times the stores one after another on the calling thread.
 */
public final class NestedGroupBench {
    static final String EX = "http://example.org/nested/";
    static final String PREFIX = "PREFIX : <" + EX + "> ";
    /** The measured queries, by a short name. */
    static final String[][] QUERIES = {
            { "union", "SELECT * { :a :link ?x . { ?x :p1 ?o } UNION { ?x :p2 ?o } }" },
            { "bind", "SELECT * { :a :link ?x . { ?x ?p ?o BIND(1 AS ?k) } }" },
            { "union-chain", "SELECT * { :a :link ?x . { ?x :q0 ?y . ?y :q1 ?z } UNION { ?x :q2 ?y } }" },
            { "union-filter", "SELECT * { :a :link ?x . { ?x :p1 ?o FILTER(?o > 5) } UNION { ?x :p2 ?o } }" },
    };

    /** Median and minimum milliseconds of one query on one store. */
    public record Timing(String store, String query, long rows, double medianMillis, double minMillis) {
    }

    private final int subjects;
    private final int repeats;
    private final Consumer<String> progress;

    public NestedGroupBench(int subjects, int repeats, Consumer<String> progress) {
        if (subjects < 1_000) {
            throw new IllegalArgumentException("--subjects must be at least 1,000, was " + subjects);
        }
        this.subjects = subjects;
        this.repeats = repeats;
        this.progress = progress;
    }

    public List<Timing> run(List<StoreSetup> stores, Path workDir) {
        List<Statement> data = data();
        List<Timing> out = new ArrayList<>();
        for (StoreSetup setup : stores) {
            Path dir = workDir.resolve(setup.id());
            OrderingBench.deleteRecursively(dir);
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create " + dir, e);
            }
            Repository repo = setup.createRepository(dir);
            repo.init();
            try (RepositoryConnection conn = repo.getConnection()) {
                long t = System.nanoTime();
                for (int from = 0; from < data.size(); from += 100_000) {
                    conn.begin();
                    conn.add(data.subList(from, Math.min(data.size(), from + 100_000)));
                    conn.commit();
                }
                progress.accept(String.format(Locale.ROOT, "%s: loaded %,d statements in %.1f s", setup.id(),
                        conn.size(), (System.nanoTime() - t) / 1e9));
                for (String[] q : QUERIES) {
                    out.add(time(conn, setup.id(), q[0], PREFIX + q[1]));
                }
            } finally {
                repo.shutDown();
                OrderingBench.deleteRecursively(dir);
            }
        }
        for (String[] q : QUERIES) {
            long[] counts = out.stream().filter(t -> t.query().equals(q[0])).mapToLong(Timing::rows).distinct().toArray();
            if (counts.length != 1) {
                throw new IllegalStateException("stores disagree on " + q[0] + ": " + out);
            }
        }
        return out;
    }

    private List<Statement> data() {
        ValueFactory vf = SimpleValueFactory.getInstance();
        List<Statement> out = new ArrayList<>(2 * subjects + 20);
        IRI[] p = new IRI[7];
        for (int i = 0; i < p.length; i++) {
            p[i] = vf.createIRI(EX, "p" + i);
        }
        IRI[] q = { vf.createIRI(EX, "q0"), vf.createIRI(EX, "q1"), vf.createIRI(EX, "q2") };
        IRI a = vf.createIRI(EX, "a");
        IRI link = vf.createIRI(EX, "link");
        for (int i = 0; i < subjects; i++) {
            IRI s = vf.createIRI(EX, "s" + i);
            out.add(vf.createStatement(s, p[i % 7], vf.createLiteral(i)));
            out.add(vf.createStatement(s, q[i % 3], vf.createIRI(EX, "s" + (i * 7919L) % subjects)));
            if (i % (subjects / 10) == 0) {
                out.add(vf.createStatement(a, link, s));
            }
        }
        return out;
    }

    /** Time one query may take in all its warm-up runs, and in all its measured runs (at least 3 of each). */
    static final long BUDGET_NANOS = 10_000_000_000L;

    private Timing time(RepositoryConnection conn, String store, String name, String query) {
        long rows = 0;
        long start = System.nanoTime();
        for (int i = 0; i < Math.max(3, repeats / 4) && (i < 3 || System.nanoTime() - start < BUDGET_NANOS); i++) {
            rows = count(conn, query);
        }
        double[] ms = new double[repeats];
        int n = 0;
        start = System.nanoTime();
        while (n < repeats && (n < 3 || System.nanoTime() - start < BUDGET_NANOS)) {
            long t = System.nanoTime();
            count(conn, query);
            ms[n++] = (System.nanoTime() - t) / 1e6;
        }
        Arrays.sort(ms, 0, n);
        Timing timing = new Timing(store, name, rows, ms[n / 2], ms[0]);
        progress.accept(String.format(Locale.ROOT, "%s %s: %d rows, median %.2f ms, min %.2f ms over %d runs", store,
                name, rows, timing.medianMillis(), timing.minMillis(), n));
        return timing;
    }

    private static long count(RepositoryConnection conn, String query) {
        long n = 0;
        try (TupleQueryResult r = conn.prepareTupleQuery(query).evaluate()) {
            while (r.hasNext()) {
                r.next();
                n++;
            }
        }
        return n;
    }

    /** The timings as a Markdown table: one row per query, one column per store, median [min] ms. */
    public static String table(List<Timing> timings) {
        List<String> stores = timings.stream().map(Timing::store).distinct().toList();
        StringBuilder sb = new StringBuilder("| query | rows |");
        stores.forEach(s -> sb.append(' ').append(s).append(" |"));
        sb.append("\n|---|---:|").append("---:|".repeat(stores.size())).append('\n');
        for (String[] q : QUERIES) {
            List<Timing> row = timings.stream().filter(t -> t.query().equals(q[0])).toList();
            sb.append("| ").append(q[0]).append(" | ").append(row.get(0).rows()).append(" |");
            for (String s : stores) {
                row.stream().filter(t -> t.store().equals(s)).findFirst().ifPresent(t -> sb.append(String.format(Locale.ROOT,
                        " %.2f [%.2f] |", t.medianMillis(), t.minMillis())));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
