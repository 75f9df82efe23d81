package dev.basalt.workbench;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the launcher's data warm-up ({@link DataWarmup}) knows of a repository: statements read from it over HTTP with
 * SELECT queries of bounded size, from which {@link DataQueries} makes queries of the shapes clients send with the
 * repository's own predicates, classes and values.
 *
 * <p>How it reads ({@link #read}): the first {@value #SEED_LIMIT} statements of the store, then a crawl along the links
 * it finds: for each subject visited, at most {@value #FORWARD_LIMIT} of its statements and {@value #REVERSE_LIMIT} of
 * the statements whose object it is; the subjects found next are queued by the predicate (and direction) they were
 * found through, and the crawl takes its next subject from the queue visited least so far, so that every kind of link,
 * and so every class the links reach, gets its share of visits rather than the kind of subject the store holds most of
 * in its first pages. After the first eighth of the bound, a spread: for each predicate read so far (at most {@value
 * #SPREAD_PREDICATES}), up to {@value #SPREAD_LIMIT} of its statements in the store's order by that predicate (so by
 * value, far from the first subjects' pages), with three eighths of the bound shared by the predicates: the store's
 * values of every length and form (the long texts it keeps compressed or on their own pages among them) and many more
 * distinct terms than the crawl meets, read by the server and kept in the sample; each predicate's subjects are queued
 * for the crawl, which goes on to half the bound. Then, for the classes most seen, how many instances each has, counted up to {@value
 * #CLASS_COUNT_LIMIT} or what the bound leaves (a class below that may anchor a query that reads all its instances). Every query it sends has a
 * {@code LIMIT}, and it stops before the sum of those limits would pass {@code maxRows}: that sum bounds what it reads,
 * whatever the store's size. Blank nodes are read but never queried (they cannot be named).
 *
 * <p>Thread rules: {@link #read} runs on one thread (the launcher's main thread) and builds the sample; a sample is
 * immutable once returned and may be read from any thread.
 */
final class DataSample {
    static final String RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
    static final int SEED_LIMIT = 256;
    /** Statements of one subject read per visit; a subject with fewer was read whole. */
    static final int FORWARD_LIMIT = 64;
    /** Statements whose object is the visited subject read per visit; fewer means all of them were read. */
    static final int REVERSE_LIMIT = 64;
    /** Instances a class is counted up to. */
    static final int CLASS_COUNT_LIMIT = 2_000;
    /** Classes counted, the most seen first. */
    static final int MAX_CLASSES_COUNTED = 12;
    /** Subjects kept in the queue of one link (predicate and direction). */
    static final int QUEUE_PER_LINK = 64;
    /** Predicates the spread reads. */
    static final int SPREAD_PREDICATES = 48;
    /** The most statements the spread reads of one predicate. */
    static final int SPREAD_LIMIT = 2_000;
    private static final int MAX_BODY_CHARS = 4 << 20;
    private static final int TIMEOUT_MS = 60_000;

    /** A statement as SPARQL terms: IRIs in angle brackets, literals quoted with their datatype or language. */
    record Statement(String s, String p, String o) {
    }

    /** Answers a SELECT query with its rows, each a list of SPARQL terms (an empty string for an unbound variable). */
    interface Endpoint {
        List<List<String>> select(String query) throws IOException;
    }

    private final List<Statement> statements;
    private final Set<String> outComplete;
    private final Set<String> inComplete;
    private final Map<String, Integer> smallClasses;
    private final int rowsBound;
    private final int requests;

    private DataSample(List<Statement> statements, Set<String> outComplete, Set<String> inComplete,
            Map<String, Integer> smallClasses, int rowsBound, int requests) {
        this.statements = List.copyOf(statements);
        this.outComplete = Set.copyOf(outComplete);
        this.inComplete = Set.copyOf(inComplete);
        this.smallClasses = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(smallClasses));
        this.rowsBound = rowsBound;
        this.requests = requests;
    }

    /** The distinct statements read, in the order first read. */
    List<Statement> statements() {
        return statements;
    }

    /** Whether every statement of subject {@code iri} was read. */
    boolean outComplete(String iri) {
        return outComplete.contains(iri);
    }

    /** Whether every statement with object {@code iri} was read. */
    boolean inComplete(String iri) {
        return inComplete.contains(iri);
    }

    /** Classes counted below {@value #CLASS_COUNT_LIMIT} instances, with their counts. */
    Map<String, Integer> smallClasses() {
        return smallClasses;
    }

    /** The sum of the {@code LIMIT}s of the queries sent: at most the {@code maxRows} asked for. */
    int rowsBound() {
        return rowsBound;
    }

    int requests() {
        return requests;
    }

    static boolean isIri(String term) {
        return term.length() > 2 && term.charAt(0) == '<' && term.charAt(term.length() - 1) == '>';
    }

    /**
     * Reads a sample through {@code endpoint}, sending queries whose {@code LIMIT}s add up to at most {@code maxRows};
     * stops early when {@code budget} is spent. Fails with the endpoint's error.
     */
    static DataSample read(Endpoint endpoint, int maxRows, LauncherWarmup.Budget budget) throws IOException {
        return new Crawl(endpoint, maxRows, budget).run();
    }

    /** The crawl's state; one thread. */
    private static final class Crawl {
        private final Endpoint endpoint;
        private final int maxRows;
        private final LauncherWarmup.Budget budget;
        private final Set<Statement> read = new LinkedHashSet<>();
        private final Set<String> visited = new HashSet<>();
        private final Set<String> outComplete = new HashSet<>();
        private final Set<String> inComplete = new HashSet<>();
        private final Map<String, ArrayDeque<String>> queues = new LinkedHashMap<>();
        private final Map<String, Integer> visits = new LinkedHashMap<>();
        private int charged;
        private int requests;

        Crawl(Endpoint endpoint, int maxRows, LauncherWarmup.Budget budget) {
            this.endpoint = endpoint;
            this.maxRows = maxRows;
            this.budget = budget;
        }

        /** Sends {@code query}, whose LIMIT is {@code limit}, if the bound allows; null if it does not. */
        private List<List<String>> select(String query, int limit) throws IOException {
            if (charged + limit > maxRows || budget.reached() != null) {
                return null;
            }
            charged += limit;
            requests++;
            return endpoint.select(query);
        }

        DataSample run() throws IOException {
            // the crawl may use half the bound; the class counts the rest
            int crawlRows = maxRows / 2;
            List<List<String>> seed = select("SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT " + SEED_LIMIT, SEED_LIMIT);
            if (seed != null) {
                for (List<String> row : seed) {
                    if (row.size() == 3) {
                        read.add(new Statement(row.get(0), row.get(1), row.get(2)));
                        enqueue("seed", row.get(0));
                        if (!RDF_TYPE.equals(row.get(1))) {
                            enqueue(">" + row.get(1), row.get(2));
                        }
                    }
                }
            }
            if (crawl(maxRows / 8)) {
                spread(maxRows / 2);
                crawl(crawlRows);
            }
            Map<String, Integer> small = countClasses();
            return new DataSample(new ArrayList<>(read), outComplete, inComplete, small, charged, requests);
        }

        /** Visits subjects until {@code untilRows} would be passed or none is queued; false when the bound stopped it. */
        private boolean crawl(int untilRows) throws IOException {
            for (String s; charged + FORWARD_LIMIT + REVERSE_LIMIT <= untilRows && (s = next()) != null;) {
                if (!visit(s)) {
                    return false;
                }
            }
            return budget.reached() == null;
        }

        /**
         * Reads up to {@value #SPREAD_LIMIT} statements of each predicate read so far, the predicates sharing what is
         * left below {@code untilRows}; keeps them and queues their subjects (and IRI objects) for the crawl.
         */
        private void spread(int untilRows) throws IOException {
            List<String> predicates = new ArrayList<>();
            for (Statement st : read) {
                if (isIri(st.p()) && !predicates.contains(st.p()) && predicates.size() < SPREAD_PREDICATES) {
                    predicates.add(st.p());
                }
            }
            for (int i = 0; i < predicates.size(); i++) {
                int limit = Math.min(SPREAD_LIMIT, (untilRows - charged) / (predicates.size() - i));
                if (limit < 1) {
                    return;
                }
                String p = predicates.get(i);
                List<List<String>> rows = select("SELECT ?s ?o WHERE { ?s " + p + " ?o } LIMIT " + limit, limit);
                if (rows == null) {
                    return;
                }
                for (List<String> row : rows) {
                    if (row.size() == 2) {
                        read.add(new Statement(row.get(0), p, row.get(1)));
                        enqueue("~" + p, row.get(0));
                        if (!RDF_TYPE.equals(p)) {
                            enqueue(">" + p, row.get(1));
                        }
                    }
                }
            }
        }

        /** The next subject to visit: from the queue of the link visited least so far; null when all are empty. */
        private String next() {
            String best = null;
            int fewest = Integer.MAX_VALUE;
            for (Map.Entry<String, ArrayDeque<String>> q : queues.entrySet()) {
                int v = visits.getOrDefault(q.getKey(), 0);
                if (!q.getValue().isEmpty() && v < fewest) {
                    best = q.getKey();
                    fewest = v;
                }
            }
            if (best == null) {
                return null;
            }
            visits.merge(best, 1, Integer::sum);
            return queues.get(best).removeFirst();
        }

        private void enqueue(String link, String term) {
            if (!isIri(term) || visited.contains(term)) {
                return;
            }
            ArrayDeque<String> q = queues.computeIfAbsent(link, k -> new ArrayDeque<>());
            if (q.size() < QUEUE_PER_LINK && !q.contains(term)) {
                q.addLast(term);
            }
        }

        /** Reads a subject's statements and those pointing at it; false when the bound stopped it. */
        private boolean visit(String s) throws IOException {
            if (!visited.add(s)) {
                return true;
            }
            return visitSide(s, true) && visitSide(s, false);
        }

        /**
         * Reads the statements with {@code s} as subject ({@code forward}) or as object, notes whether all were
         * read, and queues each non-type link's far end under its predicate and direction; false when the bound
         * stopped it.
         */
        private boolean visitSide(String s, boolean forward) throws IOException {
            int limit = forward ? FORWARD_LIMIT : REVERSE_LIMIT;
            List<List<String>> rows = select(forward
                    ? "SELECT ?p ?o WHERE { " + s + " ?p ?o } LIMIT " + limit
                    : "SELECT ?s ?p WHERE { ?s ?p " + s + " } LIMIT " + limit, limit);
            if (rows == null) {
                return false;
            }
            if (rows.size() < limit) {
                (forward ? outComplete : inComplete).add(s);
            }
            for (List<String> row : rows) {
                String predicate = row.size() == 2 ? row.get(forward ? 0 : 1) : null;
                if (predicate != null && isIri(predicate)) {
                    String other = row.get(forward ? 1 : 0);
                    read.add(forward ? new Statement(s, predicate, other) : new Statement(other, predicate, s));
                    if (!RDF_TYPE.equals(predicate)) {
                        enqueue((forward ? ">" : "<") + predicate, other);
                    }
                }
            }
            return true;
        }

        /** Counts the classes most seen, up to {@value #CLASS_COUNT_LIMIT}; those below it with their counts. */
        private Map<String, Integer> countClasses() throws IOException {
            Map<String, Integer> seen = new LinkedHashMap<>();
            for (Statement st : read) {
                if (RDF_TYPE.equals(st.p()) && isIri(st.o())) {
                    seen.merge(st.o(), 1, Integer::sum);
                }
            }
            List<String> ranked = new ArrayList<>(seen.keySet());
            ranked.sort((a, b) -> Integer.compare(seen.get(b), seen.get(a)));
            Map<String, Integer> small = new LinkedHashMap<>();
            List<String> counted = ranked.subList(0, Math.min(MAX_CLASSES_COUNTED, ranked.size()));
            for (int i = 0; i < counted.size(); i++) {
                // the bound left, shared by the classes left
                int limit = Math.min(CLASS_COUNT_LIMIT, (maxRows - charged) / (counted.size() - i));
                if (limit < 2) {
                    break;
                }
                String c = counted.get(i);
                List<List<String>> rows = select("SELECT (COUNT(*) AS ?n) WHERE { SELECT ?s WHERE { ?s " + RDF_TYPE
                        + " " + c + " } LIMIT " + limit + " }", limit);
                if (rows == null) {
                    break;
                }
                long n = rows.isEmpty() || rows.get(0).isEmpty() ? -1 : number(rows.get(0).get(0));
                if (n > 0 && n < limit) {
                    small.put(c, (int) n);
                }
            }
            return small;
        }
    }

    /** The integer a SPARQL term holds ({@code 12} or {@code "12"^^<...>}), or -1. */
    static long number(String term) {
        String t = term.startsWith("\"") ? term.substring(1, Math.max(1, term.indexOf('"', 1))) : term;
        try {
            return Long.parseLong(t.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The rows of a SPARQL results table in the tab-separated format ({@code text/tab-separated-values}): the header
     * line left out, each row split at tabs; a last line cut short is left out.
     */
    static List<List<String>> tsvRows(String body, boolean complete) {
        List<List<String>> rows = new ArrayList<>();
        String[] lines = body.split("\n", -1);
        int end = complete ? lines.length : lines.length - 1;
        for (int i = 1; i < end; i++) {
            String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
            if (!line.isEmpty()) {
                rows.add(List.of(line.split("\t", -1)));
            }
        }
        return rows;
    }

    /** An endpoint over HTTP: {@code GET repositoryUrl?query=} with tab-separated results. */
    static Endpoint http(String repositoryUrl) {
        return query -> {
            HttpURLConnection c = (HttpURLConnection) URI.create(repositoryUrl + "?query="
                    + URLEncoder.encode(query, StandardCharsets.UTF_8)).toURL().openConnection();
            c.setConnectTimeout(TIMEOUT_MS);
            c.setReadTimeout(TIMEOUT_MS);
            c.setRequestProperty("Accept", "text/tab-separated-values");
            int status = c.getResponseCode();
            InputStream stream = status >= 400 ? c.getErrorStream() : c.getInputStream();
            StringBuilder body = new StringBuilder();
            boolean complete = true;
            if (stream != null) {
                try (var reader = new java.io.InputStreamReader(stream, StandardCharsets.UTF_8)) {
                    char[] buffer = new char[8192];
                    for (int n; (n = reader.read(buffer)) >= 0;) {
                        if (body.length() + n > MAX_BODY_CHARS) {
                            complete = false;
                            break;
                        }
                        body.append(buffer, 0, n);
                    }
                }
            }
            if (status / 100 != 2) {
                throw new IOException("GET " + repositoryUrl + " (" + query + ") answered HTTP " + status + ": "
                        + body.substring(0, Math.min(300, body.length())));
            }
            return tsvRows(body.toString(), complete);
        };
    }
}
