package dev.basalt.sail.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.util.Models;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.GraphQuery;
import org.eclipse.rdf4j.query.GraphQueryResult;
import org.eclipse.rdf4j.query.QueryResult;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.rdf4j.NativeQueryStats;
import dev.basalt.sail.BasaltStore;

/**
 * CONSTRUCT and DESCRIBE queries of a known shape take the SELECTs' route: a pending root, and the shape's kept plan
 * run without RDF4J's evaluation set up ({@code NativeQueries.Session#runKept}, {@code ShapePlans#run}). Their
 * answers are those of a Basalt store that keeps no shapes and of RDF4J's evaluator over a MemoryStore (as graphs,
 * blank nodes up to renaming, and as lists with their repetitions where no blank node is made): templates with
 * constants, blank nodes, a triple repeated, variables left unbound by an OPTIONAL; DESCRIBE of constants and of
 * variables; a transaction's pending changes, which only the transaction sees (it never runs a kept plan); and the
 * front door's direct route ({@link QueryFront#answer}), which answers them without a connection.
 */
class KeptGraphQueryTest extends CachedAgainstReference {
    private Repository memory;

    @Override
    int shapesKept() {
        return 100;
    }

    @BeforeEach
    void fill() {
        memory = new SailRepository(new MemoryStore());
        List<Repository> all = List.of(cached, reference, memory);
        for (Repository repo : all) {
            try (RepositoryConnection c = repo.getConnection()) {
                c.begin();
                for (int i = 0; i < 30; i++) {
                    IRI offer = ex("offer" + i);
                    c.add(offer, ex("product"), ex("product" + (i % 10)));
                    c.add(offer, ex("price"), VF.createLiteral(Integer.toString(5 * i), XSD.INTEGER));
                    if (i % 3 != 0) {
                        c.add(offer, ex("vendor"), ex("vendor" + (i % 4)));
                    }
                    c.add(ex("product" + (i % 10)), ex("label"), VF.createLiteral("product " + (i % 10)));
                    c.add(ex("review" + i), ex("reviewer"), ex("person" + (i % 7)));
                    c.add(ex("person" + (i % 7)), ex("name"), VF.createLiteral("person " + (i % 7)));
                }
                BNode address = VF.createBNode("address");
                c.add(ex("person1"), ex("address"), address);
                c.add(address, ex("city"), VF.createLiteral("Gent"));
                c.commit();
            }
        }
    }

    @AfterEach
    void closeMemory() {
        memory.shutDown();
    }

    private NativeQueryStats stats() {
        return ((BasaltStore) cached.getSail()).getNativeQueryStats();
    }

    private static String offerTemplate(int i) {
        return PREFIX + "CONSTRUCT { ex:offer" + i + " ex:exportProduct ?product ; ex:exportLabel ?label ; "
                + "ex:exportVendor ?vendor } WHERE { ex:offer" + i + " ex:product ?product . ?product ex:label ?label "
                + "OPTIONAL { ex:offer" + i + " ex:vendor ?vendor } }";
    }

    private static String repeatedTriple(int i) {
        // the same triple twice in the template, and once per offer of the product in the WHERE
        return PREFIX + "CONSTRUCT { ?product ex:offered ex:yes . ?product ex:offered ex:yes . ?product ex:cheapest "
                + "?price } WHERE { ?offer ex:product ex:product" + i + " ; ex:price ?price . ?offer ex:product ?product }";
    }

    private static String blankNodes(int i) {
        return PREFIX + "CONSTRUCT { ?offer ex:summary [ ex:of ?product ; ex:price ?price ] . _:b ex:label ?label } "
                + "WHERE { ?offer ex:product ex:product" + i + " ; ex:price ?price ; ex:product ?product . "
                + "?product ex:label ?label }";
    }

    private static String describeReviewer(int i) {
        return PREFIX + "DESCRIBE ?x WHERE { ex:review" + i + " ex:reviewer ?x }";
    }

    private static String describeConstant(int i) {
        return PREFIX + "DESCRIBE ex:offer" + i;
    }

    /** The statements of {@code query} on {@code repo}, in the order answered, repetitions kept. */
    private static List<Statement> statements(Repository repo, String query) {
        try (RepositoryConnection c = repo.getConnection()) {
            return QueryResults.asList(c.prepareGraphQuery(query).evaluate());
        }
    }

    private static boolean hasBlankNode(List<Statement> statements) {
        return statements.stream().anyMatch(s -> s.getSubject() instanceof BNode || s.getObject() instanceof BNode);
    }

    /**
     * {@code query} answers the same on the three stores: as graphs (RDF4J's and Basalt's engines may give a
     * statement a different number of times: RDF4J drops a repetition only where it follows its twin, and the engines
     * read rows in different orders), and on the store with shapes exactly as on the one without (the same engine;
     * as sorted lists, repetitions kept, where the answer makes no blank node).
     */
    private void assertSameAnswers(String query) {
        List<Statement> expected = statements(memory, query);
        List<Statement> unshaped = statements(reference, query);
        List<Statement> actual = statements(cached, query);
        assertTrue(Models.isomorphic(new LinkedHashModel(expected), new LinkedHashModel(actual)),
                query + "\nexpected " + expected + "\nactual " + actual);
        assertEquals(unshaped.size(), actual.size(), query + "\nwithout shapes " + unshaped + "\nactual " + actual);
        if (hasBlankNode(unshaped)) {
            assertTrue(Models.isomorphic(new LinkedHashModel(unshaped), new LinkedHashModel(actual)), query);
        } else {
            assertEquals(sorted(unshaped), sorted(actual), query);
        }
    }

    private static List<String> sorted(List<Statement> statements) {
        List<String> lines = new ArrayList<>();
        // written here: the statement classes of the stores print themselves differently
        statements.forEach(s -> lines.add(s.getSubject() + " " + s.getPredicate() + " " + s.getObject() + " "
                + s.getContext()));
        lines.sort(null);
        return lines;
    }

    @Test
    void constructTemplatesRunTheirKeptPlansDirectly() {
        long direct = stats().shapePlansRunDirectly();
        for (int i = 0; i < 30; i++) {
            assertSameAnswers(offerTemplate(i));
        }
        long afterTemplates = stats().shapePlansRunDirectly();
        assertTrue(afterTemplates - direct >= 25, "kept plans run directly: " + (afterTemplates - direct));
        for (int i = 0; i < 10; i++) {
            assertSameAnswers(repeatedTriple(i));
        }
        assertTrue(stats().shapePlansRunDirectly() - afterTemplates >= 7,
                "kept plans run directly: " + (stats().shapePlansRunDirectly() - afterTemplates));
    }

    @Test
    void unboundTemplateVariablesDropTheirStatements() {
        for (int i = 0; i < 6; i++) {
            assertSameAnswers(offerTemplate(i));
        }
        // offer0 and offer3 have no vendor: two statements each, no third with an unbound object
        assertEquals(2, statements(cached, offerTemplate(3)).size());
        assertEquals(3, statements(cached, offerTemplate(4)).size());
    }

    @Test
    void blankNodesOfATemplateAreNewPerRowAndPerQuery() {
        for (int i = 0; i < 10; i++) {
            assertSameAnswers(blankNodes(i));
        }
        List<Statement> first = statements(cached, blankNodes(4));
        List<Statement> second = statements(cached, blankNodes(4));
        Set<BNode> firstNodes = blankNodesOf(first);
        Set<BNode> secondNodes = blankNodesOf(second);
        // three offers of product4, two blank nodes per row
        assertEquals(6, firstNodes.size(), first.toString());
        assertEquals(6, secondNodes.size(), second.toString());
        firstNodes.retainAll(secondNodes);
        assertTrue(firstNodes.isEmpty(), "each evaluation makes new blank nodes: " + firstNodes);
    }

    private static Set<BNode> blankNodesOf(List<Statement> statements) {
        Set<BNode> nodes = new HashSet<>();
        for (Statement s : statements) {
            if (s.getSubject() instanceof BNode b) {
                nodes.add(b);
            }
            if (s.getObject() instanceof BNode b) {
                nodes.add(b);
            }
        }
        return nodes;
    }

    @Test
    void describeRunsItsKeptPlanDirectly() {
        long direct = stats().shapePlansRunDirectly();
        for (int i = 0; i < 30; i++) {
            assertSameAnswers(describeReviewer(i));
        }
        assertTrue(stats().shapePlansRunDirectly() - direct >= 25,
                "kept plans run directly: " + (stats().shapePlansRunDirectly() - direct));
        // person1's address is a blank node: its statements are part of the description
        assertTrue(hasBlankNode(statements(cached, describeReviewer(1))));
        for (int i = 0; i < 30; i++) {
            assertSameAnswers(describeConstant(i));
        }
    }

    /**
     * The front door's direct route ({@link QueryFront#answer}) answers a CONSTRUCT or DESCRIBE whose plan is kept
     * without a connection, with the same statements and the prologue's namespaces; {@link QueryFront#select} never
     * answers one, and a graph query with FROM, an ASK or a shape not seen yet gets null.
     */
    @Test
    void theFrontDoorAnswersGraphQueriesWithoutAConnection() {
        List<String> queries = List.of(offerTemplate(7), repeatedTriple(7), blankNodes(7), describeReviewer(7));
        assertNull(cached.front.answer(offerTemplate(8), true), "a shape not seen yet");
        for (int i = 0; i < 3; i++) {
            statements(cached, offerTemplate(i));
            statements(cached, repeatedTriple(i));
            statements(cached, blankNodes(i));
            statements(cached, describeReviewer(i));
        }
        for (String q : queries) {
            assertNull(cached.front.select(q, true), "select answers SELECTs only: " + q);
            // a connection's query reads inferred statements too (RDF4J's default): the plans kept for that choice
            QueryResult<?> direct = cached.front.answer(q, true);
            assertTrue(direct instanceof GraphQueryResult, q);
            List<Statement> actual;
            try (GraphQueryResult graph = (GraphQueryResult) direct) {
                assertEquals("http://ex.org/", graph.getNamespaces().get("ex"), q);
                actual = QueryResults.asList(graph);
            }
            List<Statement> expected = statements(memory, q);
            List<Statement> unshaped = statements(reference, q);
            assertTrue(Models.isomorphic(new LinkedHashModel(expected), new LinkedHashModel(actual)),
                    q + "\nexpected " + expected + "\nactual " + actual);
            assertEquals(unshaped.size(), actual.size(), q);
            if (!hasBlankNode(unshaped)) {
                assertEquals(sorted(unshaped), sorted(actual), q);
            }
        }
        String fromGraph = offerTemplate(7).replace("WHERE", "FROM ex:g WHERE");
        statements(cached, fromGraph);
        statements(cached, fromGraph);
        assertNull(cached.front.answer(fromGraph, true), "a query with FROM");
        String ask = PREFIX + "ASK { ex:offer7 ex:product ?p }";
        for (int i = 0; i < 3; i++) {
            try (RepositoryConnection c = cached.getConnection()) {
                assertTrue(c.prepareBooleanQuery(ask).evaluate());
            }
        }
        assertNull(cached.front.answer(ask, true), "an ASK");
        assertEquals(0, ((BasaltStore) cached.getSail()).nativeQueries().running(), "every snapshot released");
    }

    @Test
    void aTransactionSeesItsOwnChangesAndOthersDoNot() {
        for (int i = 0; i < 6; i++) {
            statements(cached, offerTemplate(i));
            statements(cached, describeReviewer(i));
        }
        String construct = offerTemplate(5);
        String describe = describeReviewer(5);
        try (RepositoryConnection writer = cached.getConnection(); RepositoryConnection m = memory.getConnection()) {
            long direct = stats().shapePlansRunDirectly();
            writer.begin(IsolationLevels.SNAPSHOT);
            m.begin(IsolationLevels.SNAPSHOT);
            for (RepositoryConnection c : List.of(writer, m)) {
                c.add(ex("product5"), ex("label"), VF.createLiteral("renamed"));
                c.remove(ex("offer5"), ex("vendor"), null);
                c.add(ex("person5"), ex("nickname"), VF.createLiteral("five"));
            }
            for (String q : List.of(construct, describe)) {
                GraphQuery inside = writer.prepareGraphQuery(q);
                Model own = new LinkedHashModel(QueryResults.asList(inside.evaluate()));
                Model expected = new LinkedHashModel(QueryResults.asList(m.prepareGraphQuery(q).evaluate()));
                assertTrue(Models.isomorphic(expected, own), q + "\nexpected " + expected + "\nactual " + own);
            }
            assertTrue(statements(cached, construct).stream()
                    .noneMatch(s -> s.getObject().stringValue().equals("renamed")), "another connection");
            assertTrue(statements(cached, describe).stream()
                    .noneMatch(s -> s.getPredicate().equals(ex("nickname"))), "another connection");
            assertEquals(direct + 2, stats().shapePlansRunDirectly(), "only the queries outside the transaction");
            writer.commit();
            m.commit();
        }
        try (RepositoryConnection c = reference.getConnection()) {
            c.add(ex("product5"), ex("label"), VF.createLiteral("renamed"));
            c.remove(ex("offer5"), ex("vendor"), null);
            c.add(ex("person5"), ex("nickname"), VF.createLiteral("five"));
        }
        assertSameAnswers(construct);
        assertSameAnswers(describe);
        assertFalse(statements(cached, construct).stream().anyMatch(s -> s.getPredicate().equals(ex("exportVendor"))),
                "the removal committed");
    }
}
