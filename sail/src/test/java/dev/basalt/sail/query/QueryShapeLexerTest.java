package dev.basalt.sail.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * {@link QueryShape}'s lexer, which reads tokens as ranges of the query's text, splits every query exactly as
 * {@link SubstringShapeLexer} (the same rules, a substring per token) does: same key, same slots at the same
 * offsets with the same text, same IRIs for prefixed names. Over the W3C and RDF4J SPARQL suites' query files, each
 * with a base IRI as well, each cut off at random points (unterminated tokens), queries written to reach each
 * context rule, and non-ASCII text.
 */
class QueryShapeLexerTest {
    private static final String[] WRITTEN = {
        "PREFIX ex: <http://ex.org/> SELECT * FROM <http://ex.org/g1> FROM NAMED <http://ex.org/g2> WHERE { ?s ex:p ?o }"
                + " LIMIT 5 OFFSET 10",
        "base <http://b/> prefix e: <x/> select * { ?s e:p <rel> , <http://abs/x> }",
        "PREFIX ex: <http://ex.org/> SELECT * WHERE { ?s ex:p \"a\"^^ex:dt , \"b\"^^<http://dt/> , 'c'@en-GB , -5 , +2.5"
                + " , 3e10 , .5 , 1.e3 , 7E-2 , \"\"\"long\nstring\"\"\" , '''x''' , \"esc\\\"aped\" }",
        "PREFIX : <http://d/> PREFIX ex: <http://e/> SELECT ?x WHERE { :a :b :c . ex:f(?x) ex:g ( 1 2 ) . ?x ex:h."
                + " _:b1 ex:i ex:j.k. ex:l\\.m ex:n%20 . FILTER(<http://f/fn>(?x) && ex:fn (?x)) }",
        "PREFIX ex: <http://e/> PREFIX ex: <http://f/> SELECT * WHERE { ?s ex:p $o . ?s nope:q 1 }",
        "INSERT DATA { GRAPH <http://g/> { <http://s/> <http://p/> 'o' } } ; WITH <http://g/> DELETE { ?s ?p ?o }"
                + " USING <http://u/> WHERE { ?s ?p ?o }",
        "SELECT * WHERE { SERVICE <http://x/> { ?s ?p ?o } }",
        "SELECT * WHERE { ?s ?p \"\\u0041\" }",
        "SELECT * WHERE { ?s ?p 12abc }",
        "SELECT * WHERE { ?s ?p \"unterminated\n\" }",
        "SELECT * WHERE { ?s <http://ex.org/é> \"größe\" ; <http://ex.org/a b> ?o . ?s ex·:p ?x ; é:ü ?y }",
        "PREFIX ex: <http://e/>\tSELECT\u000b*\u001cWHERE\u00a0{ ?s ex:p ?o # ex:q\r\n ?s ex:r 5 }",
        "ASK { ?s ?p ?o FILTER(?o < 5 && ?o <= 7 && ?o<http://x/>) } LIMIT 1",
        "PREFIX ex: <http://e/> SELECT * WHERE { ?s ex:p ?o } Limit 3 oFfSeT 4",
        "PREFIX ex: <http://e/> SELECT ?x (ex:f (?x) AS ?y) WHERE { ?s ^ex:p ?x ; ex:q/^ex:r ?z ; !ex:t ?w }",
        "PREFIX ex: <http://e/> SELECT * WHERE { ?s ex:p ?o } LIMIT",
        "PREFIX ex: <http://e/> SELECT * WHERE { ?s ex:p <http://unterminated",
        "PREFIX ex: <http://e/> SELECT * WHERE { ?s ex:p \"a\\",
        "PREFIX ex: <http://e/> SELECT * WHERE { ?s ex:p ex:\\",
    };

    @Test
    void queriesWrittenToReachEachRuleSplitAsTheReferenceSplitsThem() {
        for (String query : WRITTEN) {
            assertSameSplit(query, null);
            assertSameSplit(query, "http://base/");
        }
    }

    @Test
    void everySuiteQueryWholeAndCutOffSplitsAsTheReferenceSplitsIt() throws IOException {
        List<String> queries = QueryTemplateTest.suiteQueries();
        assertTrue(queries.size() > 900, "suite query files found: " + queries.size());
        Random random = new Random(34);
        int withSlots = 0;
        int prefixedSlots = 0;
        for (String query : queries) {
            QueryShape shape = assertSameSplit(query, null);
            if (shape != null && !shape.slots().isEmpty()) {
                withSlots++;
                prefixedSlots += (int) shape.slots().stream().filter(s -> s.kind() == QueryShape.Kind.PREFIXED_NAME)
                        .count();
                assertSameSplit(QueryTemplateTest.changeConstants(query, shape), null);
            }
            assertSameSplit(query, "http://base/");
            for (int i = 0; i < 3 && query.length() > 1; i++) {
                assertSameSplit(query.substring(0, 1 + random.nextInt(query.length() - 1)), null);
            }
        }
        assertTrue(withSlots > 400, withSlots + " suite queries with constants");
        assertTrue(prefixedSlots > 400, prefixedSlots + " prefixed-name constants");
    }

    @Test
    void anIriMayStartWithAHintNamespaceThroughItsPrefix() {
        QueryShape shape = QueryShape.of("PREFIX h: <http://h.org/hints#> PREFIX a: <http://h.org/> PREFIX z: <http://z/>"
                + " SELECT * WHERE { ?s h:x <http://h.org/hints#y> ; a:hints_x 1 ; a:other 2 ; z:hints <http://z/> }", null);
        List<Boolean> found = new ArrayList<>();
        List<String> iris = new ArrayList<>();
        for (QueryShape.Slot slot : shape.slots()) {
            if (slot.kind() == QueryShape.Kind.IRI || slot.kind() == QueryShape.Kind.PREFIXED_NAME) {
                found.add(shape.iriMayStartWith(slot, "http://h.org/hints"));
                iris.add(shape.iri(slot));
            }
        }
        assertEquals(List.of("http://h.org/hints#x", "http://h.org/hints#y", "http://h.org/hints_x", "http://h.org/other",
                "http://z/hints", "http://z/"), iris);
        assertEquals(List.of(true, true, true, false, false, false), found);
    }

    @Test
    void aShapeIsRefusedWhereTheReferenceRefusesIt() {
        assertNull(QueryShape.of("SELECT * WHERE { ?s ?p \"\\U00000041\" }", null));
        assertNull(QueryShape.of("select * { service <http://x/> { ?s ?p ?o } }", null));
        assertFalse(QueryShape.of("SELECT * WHERE { ?s ?p \"\\\\\" }", null) == null, "an escaped backslash");
    }

    /** Splits {@code query} both ways, asserts they agree and returns {@link QueryShape}'s split. */
    private static QueryShape assertSameSplit(String query, String baseUri) {
        SubstringShapeLexer expected = SubstringShapeLexer.of(query, baseUri);
        QueryShape actual = QueryShape.of(query, baseUri);
        if (expected == null) {
            assertNull(actual, query);
            return null;
        }
        assertEquals(expected.key(), actual.key(), query);
        List<SubstringShapeLexer.Slot> slots = expected.slots();
        assertEquals(slots.size(), actual.slots().size(), query);
        for (int i = 0; i < slots.size(); i++) {
            SubstringShapeLexer.Slot e = slots.get(i);
            QueryShape.Slot a = actual.slots().get(i);
            assertEquals(e.kind().name(), a.kind().name(), query);
            assertEquals(e.start(), a.start(), query);
            assertEquals(e.end(), a.end(), query);
            assertEquals(e.text(), actual.text(a), query);
            if (e.kind() == SubstringShapeLexer.Kind.IRI) {
                assertEquals(e.text(), actual.iri(a), query);
            } else if (e.kind() == SubstringShapeLexer.Kind.PREFIXED_NAME) {
                int colon = e.text().indexOf(':');
                String ns = expected.namespace(e.text().substring(0, colon));
                assertEquals(ns + e.text().substring(colon + 1), actual.iri(a), query);
            }
        }
        return actual;
    }
}
