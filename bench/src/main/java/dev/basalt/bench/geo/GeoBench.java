package dev.basalt.bench.geo;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.lmdb.LmdbStore;
import org.eclipse.rdf4j.sail.lmdb.config.LmdbStoreConfig;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.store.Snapshot;
import dev.basalt.store.Store;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.btree.BTreeStats;
import dev.basalt.store.spatial.SpatialIndex;

/**
 * The GeoSPARQL benchmark: random points ({@code ex:pN geo:asWKT "POINT(lon lat)"^^geo:wktLiteral},
 * uniform over the globe) loaded into Basalt and into RDF4J's LmdbStore (which evaluates the same
 * queries with RDF4J's GeoSPARQL functions, without a spatial index), then in the same run: window
 * queries ({@code geof:sfWithin} a box holding about 0.1% of the points), warm, on both; k-nearest
 * queries ({@code ORDER BY geof:distance LIMIT 10}), warm, on both; and the bytes of Basalt's spatial
 * index per point. Every answer is compared between the two stores.
 *
 * <p>Not thread-safe: one benchmark run on the calling thread.
 */
public final class GeoBench {
    static final String PREFIXES = "PREFIX geo: <http://www.opengis.net/ont/geosparql#> "
            + "PREFIX geof: <http://www.opengis.net/def/function/geosparql/> "
            + "PREFIX uom: <http://www.opengis.net/def/uom/OGC/1.0/> ";
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    /** What to run. */
    public record Settings(int points, int windows, int lmdbWindows, int knnQueries, int lmdbKnn, long seed, Path workDir,
            boolean reuse) {
    }

    private GeoBench() {
    }

    public static void run(Settings s, Consumer<String> out) throws IOException {
        Random r = new Random(s.seed());
        IRI asWkt = VF.createIRI("http://www.opengis.net/ont/geosparql#asWKT");
        IRI wkt = VF.createIRI("http://www.opengis.net/ont/geosparql#wktLiteral");
        List<Statement> data = new ArrayList<>(s.points());
        for (int i = 0; i < s.points(); i++) {
            double lon = r.nextDouble() * 360 - 180;
            double lat = Math.toDegrees(Math.asin(r.nextDouble() * 2 - 1)); // uniform over the sphere's area
            data.add(VF.createStatement(VF.createIRI("http://example.org/p" + i), asWkt,
                    VF.createLiteral(String.format(Locale.ROOT, "POINT(%.6f %.6f)", lon, lat), wkt)));
        }
        Path basaltDir = s.workDir().resolve("basalt");
        Path lmdbDir = s.workDir().resolve("lmdb");
        Path marker = s.workDir().resolve("loaded");
        String loadedWith = s.points() + " points, seed " + s.seed();
        boolean reuse = s.reuse() && Files.exists(marker) && Files.readString(marker).equals(loadedWith);
        if (!reuse) {
            delete(s.workDir());
        }
        Files.createDirectories(basaltDir);
        Files.createDirectories(lmdbDir);
        BasaltStoreConfig bc = new BasaltStoreConfig();
        Repository basalt = new SailRepository(new BasaltStore(basaltDir.toFile(), bc));
        basalt.init();
        Repository lmdb = new SailRepository(new LmdbStore(lmdbDir.toFile(), new LmdbStoreConfig("spoc,posc")));
        lmdb.init();
        try {
            if (reuse) {
                out.accept("reusing the stores loaded in " + s.workDir() + " (" + loadedWith + ")");
            } else {
                out.accept(String.format(Locale.ROOT, "load %,d points: Basalt %.1f s, LmdbStore %.1f s", s.points(),
                        load(basalt, data), load(lmdb, data)));
                Files.writeString(marker, loadedWith);
            }
            data = null;
            // windows of about 0.1% of the sphere's area, centred away from the poles
            List<String> windows = new ArrayList<>();
            for (int i = 0; i < s.windows(); i++) {
                double lat = r.nextDouble() * 120 - 60;
                double h = 5.2; // degrees of latitude; the width makes 0.1% of the area at this latitude
                double area = 0.001 * 4 * Math.PI;
                double w = Math.toDegrees(area / (Math.sin(Math.toRadians(lat + h / 2)) - Math.sin(Math.toRadians(lat - h / 2))));
                double lon = r.nextDouble() * (360 - w) - 180;
                windows.add(PREFIXES + "SELECT ?f WHERE { ?f geo:asWKT ?g . FILTER(geof:sfWithin(?g, \"POLYGON(("
                        + box(lon, lat - h / 2, lon + w, lat + h / 2) + "))\"^^geo:wktLiteral)) }");
            }
            Timing bw = measure(basalt, windows, 3, 1, false);
            Timing lw = measure(lmdb, windows.subList(0, Math.min(s.lmdbWindows(), windows.size())), 0, 1, false);
            checkSame(basalt, lmdb, windows.subList(0, Math.min(s.lmdbWindows(), windows.size())), out);
            if (!windows.isEmpty()) {
                out.accept(String.format(Locale.ROOT, "window query (%d windows, %.0f rows on average, ~0.1%% of the points), "
                        + "warm median: Basalt %.2f ms, LmdbStore %.1f ms (%d windows): %.0fx", windows.size(), bw.rows,
                        bw.medianMs(), lw.medianMs(), lw.count, lw.medianMs() / bw.medianMs()));
            }
            List<String> knn = new ArrayList<>();
            for (int i = 0; i < s.knnQueries(); i++) {
                knn.add(knnQuery(r.nextDouble() * 360 - 180, r.nextDouble() * 160 - 80));
            }
            Timing bk = measure(basalt, knn, 5, 5, true);
            List<String> lmdbKnn = knn.subList(0, Math.min(s.lmdbKnn(), knn.size()));
            Timing lk = measure(lmdb, lmdbKnn, 0, 1, false);
            checkSame(basalt, lmdb, lmdbKnn, out);
            out.accept(String.format(Locale.ROOT, "k-nearest (LIMIT 10, %d points, latitudes -80..80), warm: Basalt %s; "
                    + "LmdbStore %s (%d queries): median %.0fx", knn.size(), bk.summary(), lk.summary(), lk.count,
                    lk.medianMs() / bk.medianMs()));
            slowest(bk, out);
            // the query points a latitude/longitude grid makes hardest: near the poles and across the antimeridian
            Random edge = new Random(s.seed() + 1);
            List<String> polar = new ArrayList<>();
            List<String> antimeridian = new ArrayList<>();
            for (int i = 0; i < Math.max(1, s.knnQueries() / 4); i++) {
                polar.add(knnQuery(edge.nextDouble() * 360 - 180, (edge.nextBoolean() ? 1 : -1) * (88 + edge.nextDouble() * 2)));
                antimeridian.add(knnQuery((edge.nextBoolean() ? 1 : -1) * (179.9 + edge.nextDouble() * 0.1),
                        edge.nextDouble() * 160 - 80));
            }
            Timing bp = measure(basalt, polar, 5, 5, true);
            checkSame(basalt, lmdb, polar.subList(0, Math.min(1, s.lmdbKnn())), out);
            out.accept(String.format(Locale.ROOT, "k-nearest near the poles (%d points, |latitude| 88..90), warm: Basalt %s",
                    polar.size(), bp.summary()));
            slowest(bp, out);
            Timing ba = measure(basalt, antimeridian, 5, 5, true);
            checkSame(basalt, lmdb, antimeridian.subList(0, Math.min(1, s.lmdbKnn())), out);
            out.accept(String.format(Locale.ROOT, "k-nearest at the antimeridian (%d points, |longitude| 179.9..180), warm: "
                    + "Basalt %s", antimeridian.size(), ba.summary()));
            slowest(ba, out);
        } finally {
            basalt.shutDown();
            lmdb.shutDown();
        }
        try (Store store = Store.open(basaltDir.resolve(BasaltStore.JOURNAL_FILE), StoreConfig.defaults());
                Snapshot snap = store.snapshot()) {
            BTreeStats st = snap.tree(SpatialIndex.TREE).verify();
            out.accept(String.format(Locale.ROOT, "spatial index: %,d entries, %,d pages, %,d bytes of records: %.1f bytes per point",
                    st.entries(), st.pages(), st.recordBytes(), (double) st.recordBytes() / s.points()));
        }
    }

    private static String knnQuery(double lon, double lat) {
        return PREFIXES + String.format(Locale.ROOT, "SELECT ?f ?g WHERE { ?f geo:asWKT ?g } ORDER BY "
                + "geof:distance(?g, \"POINT(%.5f %.5f)\"^^geo:wktLiteral, uom:metre) LIMIT 10", lon, lat);
    }

    private static void slowest(Timing t, Consumer<String> out) {
        for (int i = 0; i < Math.min(3, t.slowest.size()); i++) {
            String q = t.slowest.get(i);
            out.accept(String.format(Locale.ROOT, "  slow: %.2f ms at %s", t.slowestMs[i],
                    q.substring(q.indexOf("POINT("), q.indexOf(')', q.indexOf("POINT(")) + 1)));
        }
    }

    private static String box(double x0, double y0, double x1, double y1) {
        return String.format(Locale.ROOT, "%.5f %.5f, %.5f %.5f, %.5f %.5f, %.5f %.5f, %.5f %.5f", x0, y0, x1, y0, x1, y1, x0, y1,
                x0, y0);
    }

    private static double load(Repository repo, List<Statement> data) {
        long t = System.nanoTime();
        int batch = 100_000;
        for (int i = 0; i < data.size(); i += batch) {
            try (RepositoryConnection c = repo.getConnection()) {
                c.add(data.subList(i, Math.min(data.size(), i + batch)));
            }
        }
        return (System.nanoTime() - t) / 1e9;
    }

    /**
     * Times of a set of queries: median, 95th percentile and maximum over the queries of each query's
     * wall time (the median of its measured runs), of its first measured run alone, and of its CPU
     * time on the calling thread (the median of its runs, which leaves out the waits for a core a
     * loaded machine adds, and garbage collections); how many measured runs met a collection; the
     * wall time of a busy loop of each query's CPU time run right after it (what the machine alone
     * adds at that moment); and the slowest queries, slowest first.
     */
    private record Timing(double[] wall, double[] single, double[] cpu, double[] control, double rows, int count, List<String> slowest,
            double[] slowestMs, int gcRuns, int runs) {
        double medianMs() {
            return wall.length == 0 ? Double.NaN : wall[wall.length / 2];
        }

        String summary() {
            if (wall.length == 0) {
                return "not run";
            }
            return String.format(Locale.ROOT, "median %.2f ms, p95 %.2f ms, max %.2f ms (CPU median %.2f, p95 %.2f, max %.2f; "
                    + "single run median %.2f, p95 %.2f, max %.2f; %d of %d measured runs met a garbage collection)", medianMs(),
                    p95(wall), wall[wall.length - 1], cpu[cpu.length / 2], p95(cpu), cpu[cpu.length - 1],
                    single[single.length / 2], p95(single), single[single.length - 1], gcRuns, runs)
                    + (control.length == 0 ? "" : String.format(Locale.ROOT, "; control: a busy loop of each query's CPU median, "
                            + "timed the same way right after it, wall median %.2f ms, p95 %.2f ms, max %.2f ms",
                            control[control.length / 2], p95(control), control[control.length - 1]));
        }

        private static double p95(double[] sorted) {
            return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.95) - 1)];
        }
    }

    /** Runs each query {@code warmups} times unmeasured, then {@code repeats} times measured. */
    private static Timing measure(Repository repo, List<String> queries, int warmups, int repeats, boolean withControl) {
        if (queries.isEmpty()) {
            return new Timing(new double[0], new double[0], new double[0], new double[0], 0, 0, List.of(), new double[0], 0, 0);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double[] ms = new double[queries.size()];
        double[] single = new double[queries.size()];
        double[] cpu = new double[queries.size()];
        double[] control = new double[withControl ? queries.size() : 0];
        int gcRuns = 0;
        long rows = 0;
        for (int i = 0; i < queries.size(); i++) {
            for (int w = 0; w < warmups; w++) {
                count(repo, queries.get(i));
            }
            double[] wall = new double[repeats];
            double[] cpuRun = new double[repeats];
            for (int k = 0; k < repeats; k++) {
                long collections = collections();
                long c = threads.getCurrentThreadCpuTime();
                long t = System.nanoTime();
                int n = count(repo, queries.get(i));
                wall[k] = (System.nanoTime() - t) / 1e6;
                cpuRun[k] = (threads.getCurrentThreadCpuTime() - c) / 1e6;
                if (collections() != collections) {
                    gcRuns++;
                }
                if (k == 0) {
                    rows += n;
                }
            }
            single[i] = wall[0];
            Arrays.sort(wall);
            Arrays.sort(cpuRun);
            ms[i] = wall[repeats / 2];
            cpu[i] = cpuRun[repeats / 2];
            if (withControl) {
                double[] spins = new double[repeats];
                for (int k = 0; k < repeats; k++) {
                    spins[k] = spin(threads, cpu[i]);
                }
                Arrays.sort(spins);
                control[i] = spins[repeats / 2];
            }
        }
        Integer[] order = new Integer[ms.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Double.compare(ms[y], ms[x]));
        List<String> slowest = new ArrayList<>();
        double[] slowestMs = new double[Math.min(5, ms.length)];
        for (int i = 0; i < slowestMs.length; i++) {
            slowest.add(queries.get(order[i]));
            slowestMs[i] = ms[order[i]];
        }
        Arrays.sort(ms);
        Arrays.sort(single);
        Arrays.sort(cpu);
        Arrays.sort(control);
        return new Timing(ms, single, cpu, control, (double) rows / queries.size(), queries.size(), slowest, slowestMs, gcRuns,
                queries.size() * repeats);
    }

    /** Wall time in ms of a busy loop that uses {@code cpuMs} of the thread's CPU. */
    private static double spin(ThreadMXBean threads, double cpuMs) {
        long c = threads.getCurrentThreadCpuTime();
        long t = System.nanoTime();
        long sink = 0;
        while (threads.getCurrentThreadCpuTime() - c < cpuMs * 1e6) {
            sink += System.nanoTime();
        }
        return (System.nanoTime() - t) / 1e6 + (sink == 42 ? 1e-9 : 0);
    }

    private static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    private static int count(Repository repo, String query) {
        return answers(repo, query).size();
    }

    private static Set<String> answers(Repository repo, String query) {
        Set<String> out = new HashSet<>();
        try (RepositoryConnection c = repo.getConnection(); TupleQueryResult res = c.prepareTupleQuery(query).evaluate()) {
            for (BindingSet bs : res) {
                out.add(bs.getValue("f").stringValue());
            }
        }
        return out;
    }

    private static void checkSame(Repository a, Repository b, List<String> queries, Consumer<String> out) {
        for (String q : queries) {
            Set<String> x = answers(a, q);
            Set<String> y = answers(b, q);
            if (!x.equals(y)) {
                throw new IllegalStateException("Basalt and LmdbStore disagree (" + x.size() + " vs " + y.size()
                        + " answers) on " + q);
            }
        }
        out.accept("answers of " + queries.size() + " queries equal on both stores");
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted((x, y) -> y.compareTo(x)).toList()) {
                Files.delete(p);
            }
        }
    }
}
