package dev.basalt.workbench;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;

import org.eclipse.rdf4j.rio.RDFFormat;

/**
 * Hostile requests for one repository of RDF4J Server's REST API, drawn from a seeded random: mutated and
 * truncated uploads of a valid corpus in every format, uploads under the wrong or an unknown content type,
 * mutated queries and updates, deeply nested and oversized queries, and transaction requests for transactions
 * that do not exist. Not thread-safe: one fuzzing loop owns it.
 */
final class Fuzzer {
    record Request(String kind, boolean write, HttpRequest.Builder http, String sample) {
    }

    /** The {@code timeout} every query is sent with. */
    static final int QUERY_TIMEOUT_SECONDS = 20;
    private static final String EX = RestFuzzTest.EX;
    private static final List<String> QUERIES = List.of(
            "SELECT * WHERE { ?s ?p ?o } LIMIT 20",
            "PREFIX ex: <" + EX + "> SELECT ?s ?n WHERE { ?s ex:name ?n FILTER(lang(?n) = 'en') } ORDER BY ?n",
            "PREFIX ex: <" + EX + "> SELECT ?s (SUM(?a) AS ?t) WHERE { ?s ex:age ?a OPTIONAL { ?s ex:score ?x } } GROUP BY ?s HAVING (SUM(?a) > 21)",
            "PREFIX ex: <" + EX + "> SELECT ?c WHERE { GRAPH ?g { ?b ex:city ?c } FILTER(CONTAINS(STR(?c), '1')) }",
            "PREFIX ex: <" + EX + "> ASK { ?s ex:address/ex:city ?c }",
            "PREFIX ex: <" + EX + "> CONSTRUCT { ?s ex:older ?a } WHERE { ?s ex:age ?x BIND(?x + 1 AS ?a) }",
            "PREFIX ex: <" + EX + "> SELECT ?s WHERE { { ?s ex:age 20 } UNION { ?s ex:age 21 } MINUS { ?s ex:name 'x' } }",
            "PREFIX ex: <" + EX + "> SELECT ?s ?d WHERE { ?s ex:score ?d FILTER NOT EXISTS { ?s ex:age 22 } VALUES ?z { 1 2 } }",
            "DESCRIBE <" + EX + "s1>",
            "PREFIX ex: <" + EX + "> SELECT (COUNT(DISTINCT ?s) AS ?n) (GROUP_CONCAT(?n; separator='|') AS ?all) WHERE { ?s ex:name ?n }");
    private static final List<String> UPDATES = List.of(
            "PREFIX ex: <" + EX + "> INSERT DATA { ex:new ex:age 99 }",
            "PREFIX ex: <" + EX + "> DELETE DATA { ex:new ex:age 99 }",
            "PREFIX ex: <" + EX + "> DELETE { ?s ex:age ?a } INSERT { ?s ex:age ?b } WHERE { ?s ex:age ?a FILTER(?a > 1000) BIND(?a + 1 AS ?b) }",
            "PREFIX ex: <" + EX + "> INSERT { GRAPH ex:copy { ?s ?p ?o } } WHERE { ?s ex:nothing ?o ; ?p ?o }",
            "CLEAR GRAPH <" + EX + "empty>");
    private static final List<String> TOKENS = List.of("{", "}", "(", ")", ".", ";", ",", "?x", "<", ">", "\"", "'",
            "SELECT", "WHERE", "FILTER", "OPTIONAL", "UNION", "GRAPH", "BIND", "AS", "VALUES", "SERVICE", "*", "^^", "@en",
            "\\", "\u0000", "\uFFFF", "é", "#", "INSERT", "DELETE", "LOAD <http://127.0.0.1:1/x>", "1e999999", "-0", "[]");

    private final SplittableRandom random;
    private final Map<RDFFormat, byte[]> corpus;
    private final List<RDFFormat> formats;
    private final String repositoryUrl;

    Fuzzer(SplittableRandom random, Map<RDFFormat, byte[]> corpus, String repositoryUrl) {
        this.random = random;
        this.corpus = corpus;
        this.formats = new ArrayList<>(corpus.keySet());
        this.repositoryUrl = repositoryUrl;
    }

    Request next() {
        int dice = random.nextInt(100);
        if (dice < 30) {
            RDFFormat format = pick(formats);
            byte[] body = mutate(corpus.get(format));
            return upload("upload mutated " + format.getName(), format.getDefaultMIMEType(), body);
        }
        if (dice < 40) {
            RDFFormat format = pick(formats);
            byte[] valid = corpus.get(format);
            byte[] body = Arrays.copyOf(valid, random.nextInt(valid.length));
            return upload("upload truncated " + format.getName(), format.getDefaultMIMEType(), body);
        }
        if (dice < 47) {
            RDFFormat format = pick(formats);
            RDFFormat claimed = pick(formats);
            String type = random.nextInt(4) == 0 ? "application/x-unknown-" + random.nextInt(100) : claimed.getDefaultMIMEType();
            return upload("upload as another type", type, corpus.get(format));
        }
        if (dice < 70) {
            String query = mutate(pick(QUERIES));
            return query("query mutated", query);
        }
        if (dice < 80) {
            String update = mutate(pick(UPDATES));
            return new Request("update mutated", true, form(repositoryUrl + "/statements", "update=" + Rest.encode(update)), update);
        }
        if (dice < 90) {
            return hostileQuery();
        }
        if (dice < 95) {
            String tx = repositoryUrl + "/transactions/" + UUID.randomUUID() + "?action="
                    + pick(List.of("COMMIT", "ADD", "DELETE", "ROLLBACK", "QUERY", "SIZE", "BOGUS"));
            return new Request("transaction unknown", true, HttpRequest.newBuilder(URI.create(tx))
                    .header("Content-Type", "text/turtle").PUT(HttpRequest.BodyPublishers.ofString("<a:b> <a:c> <a:d> .")), tx);
        }
        String query = pick(QUERIES);
        String accept = pick(List.of("application/x-unknown", "text/turtle;q=0.1, image/png", "*/*;q=oops", ""));
        return new Request("query with odd Accept", false, HttpRequest.newBuilder(URI.create(repositoryUrl + "?query="
                + Rest.encode(query) + "&timeout=" + pick(List.of("20", "-1", "abc", "99999999999999")))).header("Accept",
                accept.isEmpty() ? "application/sparql-results+json" : accept).GET(), query);
    }

    /** Deep nesting, huge VALUES blocks, enormous IRIs and literals, long chains of operators. */
    private Request hostileQuery() {
        int depth = 50 + random.nextInt(random.nextBoolean() ? 500 : 20_000);
        StringBuilder q = new StringBuilder("SELECT * WHERE ");
        switch (random.nextInt(6)) {
        case 0 -> q.append("{ ".repeat(depth)).append("?s ?p ?o").append(" }".repeat(depth));
        case 1 -> q.append("{ ?s ?p ?o FILTER(").append("(".repeat(depth)).append("?o").append(")".repeat(depth)).append(") }");
        case 2 -> {
            q.append("{ ?s ?p ?o FILTER(?o = 0");
            for (int i = 0; i < depth; i++) {
                q.append(" || ?o = ").append(i);
            }
            q.append(") }");
        }
        case 3 -> {
            q.append("{ ?s ?p ?o } VALUES ?o {");
            for (int i = 0; i < depth * 5; i++) {
                q.append(' ').append(i);
            }
            q.append(" }");
        }
        case 4 -> q.append("{ ?s ?p <http://example.org/").append("x".repeat(depth * 100)).append("> }");
        default -> {
            q.append("{ ?s ?p ?o ");
            for (int i = 0; i < Math.min(depth, 2000); i++) {
                q.append("OPTIONAL { ?s ?p ?o").append(i).append(" } ");
            }
            q.append("} LIMIT 5");
        }
        }
        return query("query hostile", q.toString());
    }

    private Request upload(String kind, String contentType, byte[] body) {
        return new Request(kind, true, HttpRequest.newBuilder(URI.create(repositoryUrl + "/statements"))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body)),
                new String(body, 0, Math.min(body.length, 200), StandardCharsets.ISO_8859_1));
    }

    private Request query(String kind, String query) {
        return new Request(kind, false, form(repositoryUrl, "query=" + Rest.encode(query) + "&timeout=" + QUERY_TIMEOUT_SECONDS)
                .header("Accept", "application/sparql-results+json, application/n-triples;q=0.5, text/boolean;q=0.4"), query);
    }

    private static HttpRequest.Builder form(String url, String body) {
        return HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    /** One to four random edits: flip a bit, delete, duplicate or insert a range of bytes. */
    private byte[] mutate(byte[] valid) {
        byte[] b = valid.clone();
        for (int edits = 1 + random.nextInt(4); edits > 0 && b.length > 0; edits--) {
            int at = random.nextInt(b.length);
            int len = 1 + random.nextInt(Math.min(64, b.length - at));
            b = switch (random.nextInt(4)) {
            case 0 -> {
                b[at] ^= (byte) (1 << random.nextInt(8));
                yield b;
            }
            case 1 -> concat(Arrays.copyOf(b, at), Arrays.copyOfRange(b, at + len, b.length));
            case 2 -> concat(Arrays.copyOf(b, at + len), Arrays.copyOfRange(b, at, b.length));
            default -> {
                byte[] noise = new byte[len];
                random.nextBytes(noise);
                yield concat(concat(Arrays.copyOf(b, at), noise), Arrays.copyOfRange(b, at, b.length));
            }
            };
        }
        return b;
    }

    /** One to three edits on the text: delete a span, duplicate a span, or insert a SPARQL token. */
    private String mutate(String valid) {
        StringBuilder s = new StringBuilder(valid);
        for (int edits = 1 + random.nextInt(3); edits > 0 && s.length() > 0; edits--) {
            int at = random.nextInt(s.length());
            int len = 1 + random.nextInt(Math.min(12, s.length() - at));
            switch (random.nextInt(3)) {
            case 0 -> s.delete(at, at + len);
            case 1 -> s.insert(at, s.substring(at, at + len));
            default -> s.insert(at, " " + pick(TOKENS) + " ");
            }
        }
        return s.toString();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private <T> T pick(List<T> items) {
        return items.get(random.nextInt(items.size()));
    }
}
