package dev.basalt.federation;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.query.impl.TupleQueryResultBuilder;
import org.eclipse.rdf4j.query.resultio.QueryResultIO;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultFormat;
import org.eclipse.rdf4j.rio.helpers.NTriplesUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The front's warm-up: after the front has started and before its URL is announced, it sends its own
 * endpoint SPARQL queries over HTTP on the loopback, so that the JIT compiles the front's request path
 * (the HTTP server, the parse by shape and the kept plans, the star writer, the member client and the
 * binary results reader, the front's own evaluation and every result writer) before the first client's
 * queries rather than during its first thousands (a cold front spends 2.4-2.8x the CPU of a warm one per
 * query, docs/benchmarks-federation.md).
 *
 * <p>The queries are made from the federation's own data, since the front has none of its own: a sample of
 * statements ({@value #SAMPLE} rows of {@code ?s ?p ?o}, which the members cut, see "Star pushdown" in
 * docs/federation.md) gives subjects, their predicates and objects, which fill {@link #TEMPLATES} with other
 * constants each time: stars with a variable subject (ORDER BY and LIMIT sent to the members), stars with a
 * constant subject (to the owner), a bound join, a UNION of two stars, CONSTRUCT, DESCRIBE and ASK, answered
 * in every format the front writes. Only subjects with few statements pointing at them ({@value #DESCRIBE_BOUND})
 * are described, so a DESCRIBE never reads a large part of the data. The members answer these queries too, so
 * the warm-up costs them some CPU as well.
 *
 * <p>It stops after the given number of queries, once the front's JVM has spent {@value #MAX_CPU_SECONDS} s of CPU
 * in it (its compiler threads included), or after {@value #MAX_WALL_SECONDS} s of wall time: a cap of CPU rather
 * than of wall time, so that a front on a busy machine does the same warm-up as on an idle one (at load 20 on two
 * cores, 60 s of wall time gave about 900 queries and the front's compiler kept working for thousands more,
 * docs/benchmarks-federation.md); a query that fails ends it
 * with a warning, and the front serves regardless. Data without IRI subjects gives no queries: nothing is sent.
 *
 * <p>Thread rules: runs on the caller's thread (the command's main thread before the front's URL is printed, or
 * the thread of the first {@code POST /refresh} that finds data, {@link SparqlFront#warmUp}); it sends one query
 * at a time and shares nothing with the front but its endpoint.
 */
final class FrontWarmup {
    static final int DEFAULT_QUERIES = 3_000;
    static final long MAX_CPU_SECONDS = 30;
    static final long MAX_WALL_SECONDS = 240;
    static final int SAMPLE = 400;
    static final int DESCRIBE_BOUND = 200;
    private static final int TIMEOUT_MS = 30_000;
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$(S2|P1|O1|P2|P3|S|D)");
    private static final Logger LOG = LoggerFactory.getLogger(FrontWarmup.class);

    private static final String JSON = "application/sparql-results+json";
    private static final String[] SELECT_TYPES = {"application/sparql-results+json", "application/sparql-results+xml",
        "text/csv", "text/tab-separated-values"};
    private static final String[] GRAPH_TYPES = {"application/rdf+xml", "text/turtle", "application/n-triples",
        "application/ld+json", "application/n-quads"};
    private static final String[] ASK_TYPES = {"application/sparql-results+json", "application/sparql-results+xml"};

    /** Query templates: {@code $S}, {@code $S2} subjects; {@code $P1 $O1}, {@code $P2}, {@code $P3} statements of $S; {@code $D} a subject to describe. */
    static final List<String> TEMPLATES = List.of(
            "SELECT ?x ?v WHERE { ?x $P1 $O1 . ?x $P2 ?v } ORDER BY ?v LIMIT 10",
            "SELECT ?x ?v ?w WHERE { ?x $P1 $O1 . ?x $P2 ?v OPTIONAL { ?x $P3 ?w } FILTER(?x != $S) } ORDER BY ?x LIMIT 10",
            "SELECT ?p ?o WHERE { $S ?p ?o }",
            "SELECT ?p ?o ?q WHERE { { $S ?p ?o } UNION { $S2 ?q ?o } }",
            "SELECT ?y ?q ?z WHERE { $S ?p ?y . ?y ?q ?z FILTER(isIRI(?y)) } LIMIT 50",
            "CONSTRUCT { $S ?p ?o } WHERE { $S ?p ?o }",
            "DESCRIBE $D",
            "ASK { ?x $P1 $O1 }");

    /** What a warm-up did: queries answered, wall time, and the CPU the front's JVM spent meanwhile. */
    record Result(int queries, long millis, long cpuMillis) {
        /** What the warm-up did, as the commands print it. */
        String line() {
            return "front warm-up: " + queries + " queries in " + millis + " ms, " + cpuMillis + " ms of the front's CPU";
        }
    }

    /** One subject of the sample with its predicates and objects, as N-Triples terms. */
    record Subject(String iri, List<String[]> statements) {
    }

    private final String endpoint;
    private final Random random = new Random(1);

    FrontWarmup(String endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * Warms the front at {@code endpoint} (its {@code /sparql} URL) with {@code queries} queries; 0 or less:
     * nothing. Never throws: a failure ends the warm-up with a warning.
     */
    static Result run(String endpoint, int queries) {
        if (queries <= 0) {
            return new Result(0, 0, 0);
        }
        long start = System.nanoTime();
        long cpu = processCpuMillis();
        int sent = 0;
        try {
            FrontWarmup warmup = new FrontWarmup(endpoint);
            List<Subject> subjects = warmup.sample();
            List<String> described = warmup.describable(subjects);
            long deadline = start + MAX_WALL_SECONDS * 1_000_000_000L;
            long cpuLimit = cpu + MAX_CPU_SECONDS * 1_000;
            for (int i = 0; !subjects.isEmpty() && sent < queries && System.nanoTime() < deadline
                    && processCpuMillis() < cpuLimit; i++) {
                String template = TEMPLATES.get(i % TEMPLATES.size());
                if (template.startsWith("DESCRIBE") && described.isEmpty()) {
                    continue;
                }
                warmup.send(warmup.fill(template, subjects, described), accept(template, i / TEMPLATES.size()));
                sent++;
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("the front's warm-up stopped after {} queries: {}", sent, e.toString());
        }
        return new Result(sent, (System.nanoTime() - start) / 1_000_000, processCpuMillis() - cpu);
    }

    /** The Accept header of the {@code round}-th query of {@code template}: every format in turn. */
    static String accept(String template, int round) {
        String[] types = template.startsWith("CONSTRUCT") || template.startsWith("DESCRIBE") ? GRAPH_TYPES
                : template.startsWith("ASK") ? ASK_TYPES : SELECT_TYPES;
        return types[Math.floorMod(round, types.length)];
    }

    /** Subjects (IRIs) of a sample of the data, each with its sampled statements. */
    List<Subject> sample() throws IOException {
        Map<String, List<String[]>> bySubject = new LinkedHashMap<>();
        for (BindingSet row : rows(send("SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT " + SAMPLE, JSON))) {
            Value s = row.getValue("s");
            Value o = row.getValue("o");
            if (s instanceof IRI && row.getValue("p") instanceof IRI p && o != null && !(o instanceof BNode)) {
                bySubject.computeIfAbsent(term(s), k -> new ArrayList<>()).add(new String[] {term(p), term(o)});
            }
        }
        List<Subject> subjects = new ArrayList<>();
        bySubject.forEach((iri, statements) -> subjects.add(new Subject(iri, statements)));
        return subjects;
    }

    /** Up to ten sampled subjects that fewer than {@value #DESCRIBE_BOUND} statements have as object. */
    List<String> describable(List<Subject> subjects) throws IOException {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < subjects.size() && out.size() < 10 && i < 40; i++) {
            String iri = subjects.get(i).iri();
            if (rows(send("SELECT ?x WHERE { ?x ?p " + iri + " } LIMIT " + DESCRIBE_BOUND, JSON)).size() < DESCRIBE_BOUND) {
                out.add(iri);
            }
        }
        return out;
    }

    /** {@code template} with constants of random sampled subjects. */
    String fill(String template, List<Subject> subjects, List<String> described) {
        Subject s = subjects.get(random.nextInt(subjects.size()));
        String[] first = s.statements().get(random.nextInt(s.statements().size()));
        String[] second = s.statements().get(random.nextInt(s.statements().size()));
        String[] third = s.statements().get(random.nextInt(s.statements().size()));
        String other = subjects.get(random.nextInt(subjects.size())).iri();
        String d = described.isEmpty() ? s.iri() : described.get(random.nextInt(described.size()));
        Map<String, String> values = Map.of("S2", other, "P1", first[0], "O1", first[1], "P2", second[0], "P3",
                third[0], "S", s.iri(), "D", d);
        return PLACEHOLDER.matcher(template).replaceAll(m -> Matcher.quoteReplacement(values.get(m.group(1))));
    }

    private static String term(Value value) {
        return NTriplesUtil.toNTriplesString(value);
    }

    private static List<BindingSet> rows(byte[] json) throws IOException {
        try {
            TupleQueryResultBuilder rows = new TupleQueryResultBuilder();
            QueryResultIO.parseTuple(new ByteArrayInputStream(json), TupleQueryResultFormat.JSON, rows,
                    SimpleValueFactory.getInstance());
            return QueryResults.asList(rows.getQueryResult());
        } catch (RuntimeException e) {
            throw new IOException("the front's answer is not SPARQL JSON: " + e.getMessage(), e);
        }
    }

    /** Sends one query, answered with HTTP 200, and returns its answer; anything else is an IOException. */
    byte[] send(String query, String accept) throws IOException {
        HttpURLConnection http = (HttpURLConnection) URI.create(endpoint).toURL().openConnection();
        http.setConnectTimeout(TIMEOUT_MS);
        http.setReadTimeout(TIMEOUT_MS);
        http.setRequestMethod("POST");
        http.setDoOutput(true);
        http.setRequestProperty("Content-Type", "application/sparql-query; charset=UTF-8");
        http.setRequestProperty("Accept", accept);
        try (OutputStream out = http.getOutputStream()) {
            out.write(query.getBytes(StandardCharsets.UTF_8));
        }
        int status = http.getResponseCode();
        InputStream in = status == 200 ? http.getInputStream() : http.getErrorStream();
        byte[] body = in == null ? new byte[0] : in.readAllBytes();
        if (in != null) {
            in.close();
        }
        if (status != 200) {
            throw new IOException("HTTP " + status + " for " + query + ": "
                    + new String(body, StandardCharsets.UTF_8).trim());
        }
        return body;
    }

    private static long processCpuMillis() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime() / 1_000_000;
        }
        return 0;
    }
}
