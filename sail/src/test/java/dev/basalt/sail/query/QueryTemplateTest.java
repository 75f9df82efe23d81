package dev.basalt.sail.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.eclipse.rdf4j.model.vocabulary.RDFS;
import org.eclipse.rdf4j.query.MalformedQueryException;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.parser.ParsedGraphQuery;
import org.eclipse.rdf4j.query.parser.ParsedQuery;
import org.eclipse.rdf4j.query.parser.QueryParserUtil;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import dev.basalt.sail.repository.BasaltRepository;
import org.junit.jupiter.api.Test;

/**
 * The template cache returns what RDF4J's parser returns. Over every query file of the W3C and
 * RDF4J SPARQL test suites (948 files, syntax tests with malformed queries included): the first
 * query of a shape, and a second query of the same shape with every constant changed, parse
 * through the cache to the same algebra, dataset and namespaces as through the parser, or fail
 * alike. A share of the shapes must actually be instantiated from a template, so the test cannot
 * pass by caching nothing.
 */
class QueryTemplateTest {
    private static ParsedQuery direct(String query) {
        return QueryParserUtil.parseQuery(QueryLanguage.SPARQL, query, null);
    }

    private static void assertSameQuery(ParsedQuery expected, ParsedQuery actual, String query) {
        assertEquals(expected.getClass(), actual.getClass(), query);
        assertEquals(QueryTemplate.canonical(expected.getTupleExpr()),
                QueryTemplate.canonical(actual.getTupleExpr()), query);
        assertEquals(expected.getDataset(), actual.getDataset(), query);
        assertEquals(query, actual.getSourceString());
        if (expected instanceof ParsedGraphQuery g) {
            assertEquals(g.getQueryNamespaces(), ((ParsedGraphQuery) actual).getQueryNamespaces(), query);
        }
    }

    /** {@code query} with every constant changed (same kinds, so the same shape). */
    static String changeConstants(String query, QueryShape shape) {
        StringBuilder b = new StringBuilder();
        int at = 0;
        for (QueryShape.Slot s : shape.slots()) {
            b.append(query, at, s.start());
            String text = query.substring(s.start(), s.end());
            switch (s.kind()) {
                case IRI -> b.append(text, 0, text.length() - 1).append("x2>");
                case PREFIXED_NAME, STRING -> b.append(text).append("x2");
                case INTEGER, DECIMAL -> b.append('1').append(text);
                case DOUBLE -> b.append('1').append(text);
            }
            at = s.end();
        }
        return b.append(query, at, query.length()).toString();
    }

    static List<String> suiteQueries() throws IOException {
        URI jar = URI.create("jar:" + QueryTemplateTest.class.getClassLoader()
                .getResource("testcases-sparql-1.1-w3c/manifest-all.ttl").toString().replaceFirst("^jar:", "")
                .replaceFirst("!.*$", ""));
        List<String> queries = new ArrayList<>();
        try (FileSystem fs = FileSystems.newFileSystem(jar, Map.of());
                Stream<Path> files = Files.walk(fs.getPath("/"))) {
            for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".rq")).sorted()::iterator) {
                queries.add(new String(Files.readAllBytes(p), StandardCharsets.UTF_8));
            }
        }
        return queries;
    }

    @Test
    void everySuiteQueryParsesAsTheParserParsesIt() throws IOException {
        List<String> queries = suiteQueries();
        assertTrue(queries.size() > 900, "suite query files found: " + queries.size());
        QueryFront cache = new QueryFront(10_000, true);
        int withSlots = 0;
        int instantiated = 0;
        for (String query : queries) {
            ParsedQuery expected;
            try {
                expected = direct(query);
            } catch (MalformedQueryException | IllegalArgumentException e) {
                assertThrows(e.getClass(), () -> cache.parse(QueryLanguage.SPARQL, query, null), query);
                continue;
            }
            assertSameQuery(expected, cache.parse(QueryLanguage.SPARQL, query, null), query);
            QueryShape shape = QueryShape.of(query, null);
            if (shape == null || shape.slots().isEmpty()) {
                continue;
            }
            withSlots++;
            String changed = changeConstants(query, shape);
            assertEquals(shape.key(), QueryShape.of(changed, null).key(), "same shape: " + changed);
            ParsedQuery expectedChanged;
            try {
                expectedChanged = direct(changed);
            } catch (MalformedQueryException | IllegalArgumentException e) {
                continue;
            }
            if (cache.holdsTemplate(changed, null)) {
                instantiated++;
            }
            assertSameQuery(expectedChanged, cache.parse(QueryLanguage.SPARQL, changed, null), changed);
        }
        assertTrue(instantiated > withSlots / 2, instantiated + " of " + withSlots + " shapes instantiated");
    }

    @Test
    void constantsOfEveryKindAreReplaced() {
        QueryFront cache = new QueryFront(10, true);
        String template = "PREFIX ex: <http://ex.org/> CONSTRUCT { <http://ex.org/s%d> ex:p ?o } WHERE {"
                + " GRAPH <http://ex.org/g%d> { ?x ex:q%d ?o ; ex:r \"a%d\"@en , \"b%d\"^^ex:dt , %d , %d.5 , %de3 }"
                + " FILTER(?o != ex:v%d && regex(str(?o), \"c%d\", \"i\")) VALUES ?z { ex:w%d %d } } LIMIT 10";
        for (int i = 1; i <= 3; i++) {
            Object[] args = new Object[12];
            java.util.Arrays.fill(args, i);
            String query = String.format(template, args);
            ParsedQuery parsed = cache.parse(QueryLanguage.SPARQL, query, null);
            assertSameQuery(direct(query), parsed, query);
            assertTrue(cache.holdsTemplate(query, null), "the shape has a template after query " + i);
        }
        assertTrue(cache.holdsTemplate(String.format(template, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9), null));
    }

    @Test
    void twoSlotsGivenEqualValuesStayTwoSlots() {
        QueryFront cache = new QueryFront(10, true);
        String first = "SELECT * WHERE { ?s <http://ex.org/a> ?o . ?o <http://ex.org/b> ?z }";
        String second = "SELECT * WHERE { ?s <http://ex.org/c> ?o . ?o <http://ex.org/c> ?z }";
        cache.parse(QueryLanguage.SPARQL, first, null);
        assertTrue(cache.holdsTemplate(second, null));
        assertSameQuery(direct(second), cache.parse(QueryLanguage.SPARQL, second, null), second);
        String third = "SELECT * WHERE { ?s <http://ex.org/d> ?o . ?o <http://ex.org/e> ?z }";
        assertSameQuery(direct(third), cache.parse(QueryLanguage.SPARQL, third, null), third);
    }

    @Test
    void anIriWrittenOnceAsPrefixedNameAndOnceInFullStaysTwoSlots() {
        // <http://e/p> is also ex:p: a template that took them for one constant would change the predicate with
        // the object
        QueryFront cache = new QueryFront(10, true);
        String form = "PREFIX ex: <http://e/> SELECT * WHERE { ?s ex:p <http://e/%s> }";
        for (String object : new String[] { "p", "q", "r", "p" }) {
            String query = String.format(form, object);
            assertSameQuery(direct(query), cache.parse(QueryLanguage.SPARQL, query, null), query);
        }
        assertEquals(3, cache.getInstantiated());
    }

    @Test
    void whatDecidesTheParseIsPartOfTheShape() {
        String q = "PREFIX ex: <http://ex.org/> SELECT * FROM <http://ex.org/g1> WHERE { ?s ex:p ?o } LIMIT 5";
        String key = QueryShape.of(q, null).key();
        assertFalse(key.equals(QueryShape.of(q.replace("LIMIT 5", "LIMIT 6"), null).key()), "LIMIT");
        assertFalse(key.equals(QueryShape.of(q.replace("g1", "g2"), null).key()), "FROM");
        assertFalse(key.equals(QueryShape.of(q.replace("<http://ex.org/>", "<http://ex.net/>"), null).key()), "PREFIX");
        assertFalse(key.equals(QueryShape.of(q, "http://base/").key()), "base IRI");
        assertEquals(key, QueryShape.of(q.replace("ex:p", "ex:q"), null).key(), "a constant");
        assertEquals(key, QueryShape.of(q.replace("?o }", "?o # comment\n }"), null).key(), "a comment");
        assertNull(QueryShape.of("SELECT * WHERE { SERVICE <http://x/> { ?s ?p ?o } }", null), "SERVICE");
        assertNull(QueryShape.of("SELECT * WHERE { ?s ?p \"\\u0041\" }", null), "unicode escape");
        QueryShape escaped = QueryShape.of("SELECT * WHERE { ?s ?p \"a\\nb\", \"c\" }", null);
        assertNotNull(escaped);
        assertEquals(1, escaped.slots().size(), "a string with an escape is part of the shape");
    }

    @Test
    void malformedQueriesFailAsTheParserFails() {
        QueryFront cache = new QueryFront(10, true);
        String bad = "SELECT * WHERE { ?s <http://ex.org/a> ?o ";
        assertThrows(MalformedQueryException.class, () -> cache.parse(QueryLanguage.SPARQL, bad, null));
        assertThrows(MalformedQueryException.class, () -> cache.parse(QueryLanguage.SPARQL, bad, null));
        String undeclared = "SELECT * WHERE { ?s nope:a ?o }";
        assertThrows(MalformedQueryException.class, () -> cache.parse(QueryLanguage.SPARQL, undeclared, null));
    }

    @Test
    void aRepositoryAnswersThroughTheCache() {
        BasaltRepository repo = new BasaltRepository(new MemoryStore());
        try (RepositoryConnection c = repo.getConnection()) {
            var vf = c.getValueFactory();
            c.add(vf.createIRI("http://ex.org/a"), RDFS.LABEL, vf.createLiteral("A"));
            c.add(vf.createIRI("http://ex.org/b"), RDFS.LABEL, vf.createLiteral("B"));
            for (String s : List.of("a", "b", "a")) {
                String q = "SELECT ?l WHERE { <http://ex.org/" + s + "> <" + RDFS.LABEL + "> ?l }";
                try (TupleQueryResult r = c.prepareTupleQuery(q).evaluate()) {
                    assertEquals(s.toUpperCase(), r.next().getValue("l").stringValue());
                    assertFalse(r.hasNext());
                }
            }
            assertTrue(c.prepareBooleanQuery("ASK { <http://ex.org/a> ?p \"A\" }").evaluate());
            assertFalse(c.prepareBooleanQuery("ASK { <http://ex.org/a> ?p \"B\" }").evaluate());
            assertEquals(1, c.prepareGraphQuery("CONSTRUCT { <http://ex.org/b> ?p ?o } WHERE { <http://ex.org/a> ?p ?o }")
                    .evaluate().stream().count());
        } finally {
            repo.shutDown();
        }
        assertEquals(3, repo.front.getShapes());
    }
}
