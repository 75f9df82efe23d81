package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.rdf4j.query.parser.ParsedBooleanQuery;
import org.eclipse.rdf4j.query.parser.ParsedGraphQuery;
import org.eclipse.rdf4j.query.parser.ParsedQuery;
import org.eclipse.rdf4j.query.parser.sparql.SPARQLParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

/**
 * The launcher's data warm-up ({@link DataWarmup}, {@link DataSample}, {@link DataQueries}): its sample stays within
 * its bound and reaches every class the links reach; its queries are read-only queries whose IRIs all come from the
 * store; an empty store gives none; failing queries are counted and do not stop it; and a launcher started on a
 * store with data and no query log warms up from it, answers every warm-up query and writes nothing.
 */
class DataWarmupTest {
    private static final String NS = "http://example.org/shop/";
    private static final String XSD = "http://www.w3.org/2001/XMLSchema#";
    private static final Pattern SEED = Pattern.compile("SELECT \\?s \\?p \\?o WHERE \\{ \\?s \\?p \\?o \\} LIMIT (\\d+)");
    private static final Pattern OUT = Pattern.compile("SELECT \\?p \\?o WHERE \\{ (<[^>]+>) \\?p \\?o \\} LIMIT (\\d+)");
    private static final Pattern IN = Pattern.compile("SELECT \\?s \\?p WHERE \\{ \\?s \\?p (<[^>]+>) \\} LIMIT (\\d+)");
    private static final Pattern SPREAD = Pattern.compile("SELECT \\?s \\?o WHERE \\{ \\?s (<[^>]+>) \\?o \\} LIMIT (\\d+)");
    private static final Pattern COUNT = Pattern.compile(
            "SELECT \\(COUNT\\(\\*\\) AS \\?n\\) WHERE \\{ SELECT \\?s WHERE \\{ \\?s <[^>]+> (<[^>]+>) \\} LIMIT (\\d+) \\}");

    @TempDir
    Path dir;

    /** A store in memory answering the sample's four kinds of query, counting the rows it served. */
    static final class FakeStore implements DataSample.Endpoint {
        final List<DataSample.Statement> statements;
        final AtomicInteger served = new AtomicInteger();
        final AtomicInteger limits = new AtomicInteger();

        FakeStore(List<DataSample.Statement> statements) {
            this.statements = statements;
        }

        @Override
        public List<List<String>> select(String query) throws IOException {
            Matcher m;
            List<List<String>> rows = new ArrayList<>();
            int limit;
            if ((m = SEED.matcher(query)).matches()) {
                limit = Integer.parseInt(m.group(1));
                statements.stream().limit(limit).forEach(s -> rows.add(List.of(s.s(), s.p(), s.o())));
            } else if ((m = OUT.matcher(query)).matches()) {
                limit = Integer.parseInt(m.group(2));
                String s = m.group(1);
                statements.stream().filter(st -> st.s().equals(s)).limit(limit)
                        .forEach(st -> rows.add(List.of(st.p(), st.o())));
            } else if ((m = IN.matcher(query)).matches()) {
                limit = Integer.parseInt(m.group(2));
                String o = m.group(1);
                statements.stream().filter(st -> st.o().equals(o)).limit(limit)
                        .forEach(st -> rows.add(List.of(st.s(), st.p())));
            } else if ((m = SPREAD.matcher(query)).matches()) {
                // in the order of the objects, as a store's index by predicate and object gives them
                limit = Integer.parseInt(m.group(2));
                String p = m.group(1);
                statements.stream().filter(st -> st.p().equals(p)).sorted(Comparator.comparing(st -> st.o()))
                        .limit(limit).forEach(st -> rows.add(List.of(st.s(), st.o())));
            } else if ((m = COUNT.matcher(query)).matches()) {
                limit = Integer.parseInt(m.group(2));
                String c = m.group(1);
                long n = statements.stream().filter(st -> st.p().equals(DataSample.RDF_TYPE) && st.o().equals(c))
                        .limit(limit).count();
                served.addAndGet((int) n);
                limits.addAndGet(limit);
                return List.of(List.of(Long.toString(n)));
            } else {
                throw new IOException("not a sampling query: " + query);
            }
            served.addAndGet(rows.size());
            limits.addAndGet(limit);
            return rows;
        }
    }

    private static String iri(String local) {
        return "<" + NS + local + ">";
    }

    /**
     * A shop: types and producers first (as a file lists them), then products with labels, numbers, dates and
     * features, offers linking products and vendors, reviews in two languages by persons.
     */
    static List<DataSample.Statement> shop() {
        Random r = new Random(34);
        List<DataSample.Statement> st = new ArrayList<>();
        String[] words = { "alpha", "bright", "carbon", "delta", "engine", "forest", "garden", "harbor" };
        for (int f = 0; f < 400; f++) {
            st.add(new DataSample.Statement(iri("feature" + f), DataSample.RDF_TYPE, iri("vocab/Feature")));
            st.add(new DataSample.Statement(iri("feature" + f), iri("vocab/label"), "\"feature " + words[f % 8] + "\""));
        }
        for (int p = 0; p < 300; p++) {
            String product = iri("product" + p);
            st.add(new DataSample.Statement(product, DataSample.RDF_TYPE, iri("vocab/Product")));
            st.add(new DataSample.Statement(product, DataSample.RDF_TYPE, iri("vocab/Type" + p % 5)));
            st.add(new DataSample.Statement(product, iri("vocab/label"), "\"" + words[p % 8] + " " + words[r.nextInt(8)]
                    + " product\""));
            st.add(new DataSample.Statement(product, iri("vocab/weight"), Integer.toString(r.nextInt(2000))));
            st.add(new DataSample.Statement(product, iri("vocab/height"), "\"" + r.nextInt(500) + "\"^^<" + XSD + "integer>"));
            st.add(new DataSample.Statement(product, iri("vocab/feature"), iri("feature" + r.nextInt(400))));
            st.add(new DataSample.Statement(product, iri("vocab/feature"), iri("feature" + r.nextInt(400))));
            st.add(new DataSample.Statement(product, iri("vocab/since"), "\"2008-0" + (1 + p % 9) + "-1" + p % 10
                    + "\"^^<" + XSD + "date>"));
        }
        for (int o = 0; o < 900; o++) {
            String offer = iri("offer" + o);
            st.add(new DataSample.Statement(offer, DataSample.RDF_TYPE, iri("vocab/Offer")));
            st.add(new DataSample.Statement(offer, iri("vocab/product"), iri("product" + o % 300)));
            st.add(new DataSample.Statement(offer, iri("vocab/vendor"), iri("vendor" + o % 10)));
            st.add(new DataSample.Statement(offer, iri("vocab/price"), "\"" + r.nextInt(9000) / 100.0 + "\"^^<" + XSD
                    + "decimal>"));
        }
        for (int v = 0; v < 10; v++) {
            st.add(new DataSample.Statement(iri("vendor" + v), DataSample.RDF_TYPE, iri("vocab/Vendor")));
            st.add(new DataSample.Statement(iri("vendor" + v), iri("vocab/label"), "\"vendor " + words[v % 8] + "\""));
        }
        for (int v = 0; v < 600; v++) {
            String review = iri("review" + v);
            st.add(new DataSample.Statement(review, DataSample.RDF_TYPE, iri("vocab/Review")));
            st.add(new DataSample.Statement(review, iri("vocab/reviewFor"), iri("product" + v % 300)));
            st.add(new DataSample.Statement(review, iri("vocab/reviewer"), iri("person" + v % 100)));
            st.add(new DataSample.Statement(review, iri("vocab/text"), "\"the " + words[v % 8] + " was "
                    + words[(v + 3) % 8] + "\"@" + (v % 2 == 0 ? "en" : "de")));
            st.add(new DataSample.Statement(review, iri("vocab/rating"), Integer.toString(1 + v % 10)));
        }
        for (int p = 0; p < 100; p++) {
            st.add(new DataSample.Statement(iri("person" + p), DataSample.RDF_TYPE, iri("vocab/Person")));
            st.add(new DataSample.Statement(iri("person" + p), iri("vocab/name"), "\"person " + words[p % 8] + "\""));
        }
        return st;
    }

    private static LauncherWarmup.Budget open() {
        return LauncherWarmup.Budget.fromNow(60, 60);
    }

    @Test
    void sampleStaysWithinItsBoundAndReachesTheLinkedClasses() throws IOException {
        FakeStore store = new FakeStore(shop());
        DataSample sample = DataSample.read(store, 40_000, open());
        assertTrue(sample.rowsBound() <= 40_000, "LIMITs " + sample.rowsBound());
        assertEquals(store.limits.get(), sample.rowsBound());
        assertTrue(store.served.get() <= 40_000, "rows served " + store.served.get());
        Set<String> classes = new HashSet<>();
        for (DataSample.Statement st : sample.statements()) {
            if (st.p().equals(DataSample.RDF_TYPE)) {
                classes.add(st.o());
            }
        }
        // the store lists 800 statements of features first; the crawl still reaches the rest through the links
        for (String c : List.of("Feature", "Product", "Offer", "Vendor", "Review", "Person")) {
            assertTrue(classes.contains(iri("vocab/" + c)), c + " in " + classes);
        }
        assertTrue(sample.smallClasses().containsKey(iri("vocab/Vendor")), sample.smallClasses().toString());
        assertEquals(Integer.valueOf(300), sample.smallClasses().get(iri("vocab/Product")));
        // the spread reads each predicate's statements beyond the subjects the crawl visits: every review's text
        long texts = sample.statements().stream().filter(st -> st.p().equals(iri("vocab/text"))).count();
        assertEquals(600, texts, "review texts in the sample");

        FakeStore tiny = new FakeStore(shop());
        DataSample small = DataSample.read(tiny, 300, open());
        assertTrue(tiny.served.get() <= 300 && small.rowsBound() <= 300, small.rowsBound() + " " + tiny.served.get());
    }

    @Test
    void queriesAreReadOnlyQueriesOfTheStoresOwnTerms() throws IOException {
        List<DataSample.Statement> data = shop();
        Set<String> iris = new HashSet<>();
        for (DataSample.Statement st : data) {
            for (String t : List.of(st.s(), st.p(), st.o())) {
                if (DataSample.isIri(t)) {
                    iris.add(t.substring(1, t.length() - 1));
                }
            }
        }
        // the crawl gets half the bound less the spread's three eighths: enough of it for every kind of query
        DataSample sample = DataSample.read(new FakeStore(data), 12_000, open());
        List<QueryLog.Entry> entries = DataQueries.entries(sample, 600, 808);
        assertEquals(600, entries.size());
        Map<String, Integer> forms = new LinkedHashMap<>();
        Set<String> accepts = new LinkedHashSet<>();
        Pattern limit = Pattern.compile("LIMIT (\\d+)");
        Pattern iri = Pattern.compile("<([^<>\"\\s]*)>");
        for (QueryLog.Entry e : entries) {
            String text = e.text();
            ParsedQuery parsed = new SPARQLParser().parseQuery(text, null); // an update would be refused here
            String form = parsed instanceof ParsedGraphQuery ? "graph" : parsed instanceof ParsedBooleanQuery ? "ask"
                    : "select";
            forms.merge(form, 1, Integer::sum);
            accepts.add(e.accept());
            // every IRI, written in full or as a prefixed name, is one of the store's (or a datatype)
            Map<String, String> declared = new LinkedHashMap<>();
            Matcher d = Pattern.compile("PREFIX ([A-Za-z][A-Za-z0-9_-]*): <([^>]*)>").matcher(text);
            while (d.find()) {
                declared.put(d.group(1), d.group(2));
            }
            String body = text.replaceAll("PREFIX [^\\n]*\\n", "");
            Matcher m = iri.matcher(body);
            while (m.find()) {
                assertTrue(iris.contains(m.group(1)) || m.group(1).startsWith(XSD), m.group(1) + " in " + text);
            }
            Matcher names = Pattern.compile("(?<![<\\w?\"-])([A-Za-z][A-Za-z0-9_-]*):([A-Za-z0-9_][A-Za-z0-9_-]*)")
                    .matcher(body.replaceAll("<[^>]*>", "<>").replaceAll("\"[^\"]*\"", "\"\""));
            while (names.find()) {
                String ns = declared.get(names.group(1));
                assertTrue(ns != null, names.group() + " undeclared in " + text);
                String full = ns + names.group(2);
                assertTrue(iris.contains(full) || full.startsWith(XSD), full + " in " + text);
            }
            // what starts from a class starts from a class counted below its bound, and is limited
            Matcher c = Pattern.compile("\\?s (a|rdf:type|" + Pattern.quote(DataSample.RDF_TYPE) + ") (\\S+)")
                    .matcher(body);
            while (c.find()) {
                String cls = c.group(2);
                int colon = cls.indexOf(':');
                String full = cls.startsWith("<") ? cls : "<" + declared.get(cls.substring(0, colon))
                        + cls.substring(colon + 1) + ">";
                assertTrue(sample.smallClasses().containsKey(full), full + " in " + text);
                Matcher l = limit.matcher(body);
                assertTrue(l.find() && Integer.parseInt(l.group(1)) <= DataQueries.MAX_LIMIT, text);
            }
        }
        assertEquals(Set.of("select", "ask", "graph"), forms.keySet(), forms.toString());
        assertEquals(Set.of("application/sparql-results+xml", "application/sparql-results+json",
                "application/rdf+xml", "text/turtle"), accepts);
        String all = String.join("\n", entries.stream().map(QueryLog.Entry::text).toList());
        for (String feature : List.of("OPTIONAL", "UNION", "ORDER BY", "DISTINCT", "regex(", "!bound", "langMatches",
                "OFFSET", "DESCRIBE", "CONSTRUCT", "FILTER (?v", "(?xv + 100)", "COUNT(?s)", "ASK")) {
            assertTrue(all.contains(feature), feature);
        }
    }

    @Test
    void anEmptyStoreGivesNoQueries() throws IOException {
        DataSample sample = DataSample.read(new FakeStore(List.of()), 1_000, open());
        assertEquals(0, sample.statements().size());
        assertEquals(List.of(), DataQueries.entries(sample, 100, 1));
    }

    @Test
    void failingQueriesAreCountedAndDoNotStopIt() throws IOException {
        FakeStore store = new FakeStore(shop());
        AtomicInteger queries = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/repositories/", exchange -> {
            String q = URLDecoder.decode(exchange.getRequestURI().getRawQuery().substring("query=".length()),
                    StandardCharsets.UTF_8);
            int status = 200;
            StringBuilder body = new StringBuilder("?a\t?b\t?c\n");
            try {
                for (List<String> row : store.select(q)) {
                    body.append(String.join("\t", row)).append('\n');
                }
            } catch (IOException notSampling) {
                status = queries.incrementAndGet() % 3 == 0 ? 500 : 200; // every third warm-up query fails
            }
            byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            List<String> lines = new DataWarmup(url).run(List.of("shop"), 300, 3_000);
            String all = String.join("\n", lines);
            assertTrue(lines.get(0).startsWith("data warm-up: sample of "), all);
            Matcher m = Pattern.compile("data warm-up: (\\d+) requests.* (\\d+) failed").matcher(all);
            assertTrue(m.find(), all);
            int sent = Integer.parseInt(m.group(1));
            assertTrue(sent >= 300, all);
            assertTrue(Integer.parseInt(m.group(2)) >= sent / 3 - 2, all);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void settings() {
        assertEquals(QueryLogReplay.DEFAULT_REQUESTS, DataWarmup.requests(null, 17));
        assertEquals(0, DataWarmup.requests(null, 25));
        assertEquals(500, DataWarmup.requests("500", 25));
        assertEquals(0, DataWarmup.requests("0", 17));
        assertEquals(DataWarmup.DEFAULT_ROWS, DataWarmup.rows(null));
        assertEquals(1000, DataWarmup.rows(" 1000 "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DataWarmup.rows("many"));
        assertTrue(e.getMessage().contains(DataWarmup.ROWS_PROPERTY), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DataWarmup.requests("-3", 17));
    }

    @Test
    void launcherWarmsUpFromItsStoresDataAndWritesNothing() throws Exception {
        Path data = dir.resolve("data");
        Path log = dir.resolve("launcher.log");
        String[] options = { "-Xmx512m", "-D" + DataWarmup.REQUESTS_PROPERTY + "=400",
                "-D" + DataWarmup.ROWS_PROPERTY + "=4000", "-D" + QueryLog.CAPACITY_PROPERTY + "=0" };
        HttpClient http = HttpClient.newHttpClient();
        String stored;
        try (LauncherProcess launcher = new LauncherProcess(data, log).jvmOptions(options).start()) {
            // an empty store: nothing to ask, and the launcher serves
            String out = Files.readString(log);
            assertTrue(out.contains("data warm-up: nothing to ask of repository basalt (0 statements read)"), out);
            HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(launcher.serverUrl()
                    + "/repositories/basalt/statements")).header("Content-Type", "application/n-triples")
                    .PUT(HttpRequest.BodyPublishers.ofString(WarmupData.ntriples())).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(204, put.statusCode(), put.body());
            stored = http.send(HttpRequest.newBuilder(URI.create(launcher.serverUrl() + "/repositories/basalt/size"))
                    .build(), HttpResponse.BodyHandlers.ofString()).body().trim();
            assertTrue(Integer.parseInt(stored) > 10_000, stored);
            launcher.stop();
        }
        long before = Files.size(log);
        try (LauncherProcess launcher = new LauncherProcess(data, log).jvmOptions(options).start()) {
            String out = Files.readString(log).substring((int) before);
            Matcher m = Pattern.compile("data warm-up: (\\d+) requests.* of (\\d+) generated queries to 1 repository.*"
                    + ", (\\d+) failed").matcher(out);
            assertTrue(m.find(), out);
            assertTrue(Integer.parseInt(m.group(1)) >= 400, out);
            assertEquals(DataWarmup.ENTRIES, Integer.parseInt(m.group(2)), out);
            assertEquals("0", m.group(3), out);
            assertFalse(out.contains("skipped"), out);
            HttpResponse<String> size = http.send(HttpRequest.newBuilder(URI.create(launcher.serverUrl()
                    + "/repositories/basalt/size")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(stored, size.body().trim(), "statements after the warm-up");
            launcher.stop();
        }
    }
}
