package dev.basalt.sail.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.query.parser.ParsedQuery;
import org.eclipse.rdf4j.query.parser.QueryParserUtil;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailTupleQuery;
import org.eclipse.rdf4j.sail.helpers.NotifyingSailWrapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.repository.BasaltRepository;

/** A SELECT of a known shape whose kept plan runs without its tree being made; everything else still gets it. */
class PendingTreeTest {
    private static final String EX = "http://ex.org/";
    private static final String HINT = "http://basalt.dev/hint#";
    @TempDir
    Path dir;

    private static String select(int subject) {
        return "SELECT ?o WHERE { <" + EX + "s" + subject + "> <" + EX + "p> ?o }";
    }

    @Test
    void aKeptPlanRunsWithoutMakingTheTree() {
        BasaltStore store = store(dir.resolve("a"));
        BasaltRepository repo = new BasaltRepository(store, 100);
        try {
            fill(repo);
            for (int i = 0; i < 8; i++) {
                assertEquals(List.of(EX + "o" + (i % 3)), answer(repo, select(i % 3)), "query " + i);
            }
            QueryFront front = repo.front;
            assertEquals(1, front.getParsed());
            assertEquals(7, front.getInstantiated());
            assertTrue(store.getNativeQueryStats().shapePlansReused() >= 5,
                    "reused " + store.getNativeQueryStats().shapePlansReused());
            // the second query optimizes its own tree (the shape's optimized stage is made from it); later ones not
            assertEquals(7, front.getPendingTrees());
            assertTrue(front.getPendingTreesMade() <= 1, "trees made: " + front.getPendingTreesMade());
        } finally {
            repo.shutDown();
        }
    }

    @Test
    void aWrappedStoreGetsTreesMadeInFull() {
        BasaltStore store = store(dir.resolve("b"));
        BasaltRepository repo = new BasaltRepository(new NotifyingSailWrapper(store), 100);
        try {
            fill(repo);
            for (int i = 0; i < 5; i++) {
                assertEquals(List.of(EX + "o" + (i % 3)), answer(repo, select(i % 3)));
            }
            assertEquals(0, repo.front.getPendingTrees());
        } finally {
            repo.shutDown();
        }
    }

    /** A hint's predicate is one of the shape's constants: a query of the shape that has a hint must be stripped. */
    @Test
    void aHintInAConstantOfAKnownShapeIsStillAHint() {
        BasaltRepository repo = new BasaltRepository(store(dir.resolve("c")), 100);
        try {
            fill(repo);
            for (int i = 0; i < 3; i++) {
                assertEquals(List.of(), answer(repo, hinted("<" + EX + "q>", i)), "no such pattern in the data");
            }
            assertEquals(List.of(EX + "o1"), answer(repo, hinted("<" + HINT + "joins>", 1)), "the hint is no pattern");
            String prologue = "PREFIX h: <" + HINT + "> PREFIX e: <" + EX + "> ";
            for (int i = 0; i < 3; i++) {
                assertEquals(List.of(), answer(repo, prologue + hinted("e:q", i)));
            }
            assertEquals(List.of(EX + "o2"), answer(repo, prologue + hinted("h:joins", 2)));
            assertEquals(List.of(), answer(repo, prologue + hinted("e:q", 2)), "the shape still answers");
        } finally {
            repo.shutDown();
        }
    }

    private static String hinted(String predicate, int subject) {
        return "SELECT ?o WHERE { <" + EX + "s" + subject + "> <" + EX + "p> ?o . [] " + predicate
                + " \"nested-loop\" }";
    }

    @Test
    void aPendingRootIsMadeByWhatReadsItAndCopiedCheaply() {
        QueryFront front = new QueryFront(10, true);
        String first = select(0);
        front.prepare(QueryLanguage.SPARQL, first, null, true);
        ParsedQuery pendingQuery = front.prepare(QueryLanguage.SPARQL, select(1), null, true).query();
        TupleExpr root = pendingQuery.getTupleExpr();
        assertInstanceOf(PendingTree.class, root);
        assertTrue(PendingTree.isPending(root));
        ParsedQuery parsed = QueryParserUtil.parseQuery(QueryLanguage.SPARQL, select(1), null);
        assertEquals(parsed.getTupleExpr().getBindingNames(), root.getBindingNames());
        TupleExpr copy = root.clone();
        assertNotSame(root, copy);
        assertTrue(PendingTree.isPending(copy), "a copy of a pending root is pending");
        assertNotNull(ShapedQuery.preparedFor(root), "the root carries the front door's preparation");
        assertNull(ShapedQuery.preparedFor(copy), "a copy does not");
        assertTrue(PendingTree.isPending(root));
        String printed = copy.toString();
        assertFalse(PendingTree.isPending(copy), "printing reads the tree");
        assertTrue(printed.contains(EX + "s1"), printed);
        assertEquals(QueryTemplate.canonical(parsed.getTupleExpr()), QueryTemplate.canonical(copy),
                "the parser's tree, under one root");
        assertEquals(1, front.getPendingTrees());
        assertEquals(1, front.getPendingTreesMade());
    }

    @Test
    void explainReadsThePendingTree() {
        BasaltRepository repo = new BasaltRepository(store(dir.resolve("d")), 100);
        try {
            fill(repo);
            answer(repo, select(0));
            try (RepositoryConnection c = repo.getConnection()) {
                SailTupleQuery q = (SailTupleQuery) c.prepareTupleQuery(select(2));
                assertTrue(PendingTree.isPending(q.getParsedQuery().getTupleExpr()));
                String explained = q.explain(Explanation.Level.Optimized).toString();
                assertTrue(explained.contains("Scan :s2 :p ?o"), explained);
            }
        } finally {
            repo.shutDown();
        }
    }

    private static BasaltStore store(Path path) {
        return QueryFrontTest.store(path);
    }

    private static void fill(BasaltRepository repo) {
        QueryFrontTest.fill(repo, 3);
    }

    private static List<String> answer(BasaltRepository repo, String query) {
        try (RepositoryConnection c = repo.getConnection();
                TupleQueryResult r = c.prepareTupleQuery(query).evaluate()) {
            return r.stream().map(b -> b.getValue("o").stringValue()).toList();
        }
    }
}
