package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractSimpleQueryModelVisitor;
import org.eclipse.rdf4j.query.parser.QueryParserUtil;
import org.junit.jupiter.api.Test;

/**
 * {@link TreeText} says what RDF4J's tree printer says (the keyed text turns back into the printed tree, the
 * one-line text equals the printed tree with its whitespace collapsed and cut), in text linear in the tree's size
 * for a chain of 5,000 {@code ||}, whose printed tree grows with the square of its depth.
 */
class TreeTextTest {
    private static final List<String> QUERIES = List.of(
            "SELECT * WHERE { ?s ?p ?o OPTIONAL { ?s <http://x/q> ?x FILTER(?x > 3 && regex(str(?x), \"a b\")) } }",
            "SELECT ?s (COUNT(*) AS ?n) WHERE { { ?s ?p ?o } UNION { ?o ?p ?s } MINUS { ?s a <http://x/C> } } "
                    + "GROUP BY ?s ORDER BY DESC(?n) LIMIT 5",
            "SELECT * WHERE { ?s <http://x/p>+ ?o { SELECT ?o WHERE { ?o ?q ?z } } VALUES ?z { 1 2 } }",
            "ASK { ?s ?p ?o FILTER NOT EXISTS { ?o ?p ?s } BIND(?o + 1 AS ?k) }");

    private static TupleExpr parse(String query) {
        return QueryParserUtil.parseQuery(QueryLanguage.SPARQL, query, null).getTupleExpr();
    }

    private static String orChain(int depth) {
        StringBuilder q = new StringBuilder("SELECT * WHERE { ?s ?p ?o FILTER(?o = 0");
        for (int i = 1; i <= depth; i++) {
            q.append(" || ?o = ").append(i);
        }
        return q.append(") }").toString();
    }

    /** The keyed text with each depth turned back into the printer's indentation. */
    private static String indented(String keyed) {
        StringBuilder sb = new StringBuilder();
        for (String line : keyed.split("(?<=\n)")) {
            int blank = line.indexOf(' ');
            sb.append("   ".repeat(Integer.parseInt(line.substring(0, blank)))).append(line.substring(blank + 1));
        }
        return sb.toString();
    }

    private static ValueExpr condition(TupleExpr tree) {
        AtomicReference<ValueExpr> found = new AtomicReference<>();
        tree.visit(new AbstractSimpleQueryModelVisitor<RuntimeException>() {
            @Override
            public void meet(Filter node) {
                found.compareAndSet(null, node.getCondition());
                super.meet(node);
            }
        });
        return found.get();
    }

    @Test
    void keyedTextIsThePrintedTreeWithDepthsForIndentation() {
        for (String query : QUERIES) {
            TupleExpr tree = parse(query);
            assertEquals(tree.toString(), indented(TreeText.keyed(tree)), query);
        }
        assertEquals(TreeText.keyed(parse(QUERIES.get(0))), TreeText.keyed(parse(QUERIES.get(0))));
        assertNotEquals(TreeText.keyed(parse(QUERIES.get(0))), TreeText.keyed(parse(QUERIES.get(0).replace('3', '4'))));
    }

    @Test
    void oneLineIsThePrintedTreeCollapsedAndCut() {
        for (String query : QUERIES.subList(0, 2)) {
            TupleExpr tree = parse(query);
            String collapsed = tree.toString().replaceAll("\\s+", " ").trim();
            assertEquals(collapsed.length() > 80 ? collapsed.substring(0, 77) + "..." : collapsed, TreeText.oneLine(tree, 80));
            assertEquals(collapsed, TreeText.oneLine(tree, collapsed.length()));
        }
        ValueExpr filter = condition(parse(QUERIES.get(3)));
        assertEquals(filter.toString().replaceAll("\\s+", " ").trim(), TreeText.oneLine(filter, 10_000));
    }

    @Test
    void deepChainsPrintInLinearSpace() throws Exception {
        int depth = 5_000;
        AtomicReference<Object> outcome = new AtomicReference<>();
        // a chain this deep needs more stack than a test thread's default to be parsed and walked at all
        Thread t = new Thread(null, () -> {
            try {
                TupleExpr tree = parse(orChain(depth));
                outcome.set(new String[] { TreeText.keyed(tree), TreeText.oneLine(condition(tree), 120) });
            } catch (Throwable e) {
                outcome.set(e);
            }
        }, "deep-chain", 256L << 20);
        t.start();
        t.join();
        if (outcome.get() instanceof Throwable e) {
            throw new AssertionError(e);
        }
        String[] texts = (String[]) outcome.get();
        // 3 nodes per || at about 60 characters each; the printer's indentation alone would add 3 * 3 * depth^2 / 2
        assertTrue(texts[0].length() < 200L * depth, "keyed text of " + texts[0].length() + " characters");
        assertEquals(120, texts[1].length(), texts[1]);
        assertTrue(texts[1].startsWith("Or Compare (=) Var (name=o) ValueConstant"), texts[1]);
    }
}
