package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.util.Models;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.basalt.optimizer.rdf4j.NativeQueryStats;

/**
 * DESCRIBE answers of the store's native description (read from the statement indices) against RDF4J's DESCRIBE
 * operator over a MemoryStore holding the same statements, as graphs (blank nodes up to renaming): random graphs with
 * blank-node chains, cycles and blank nodes shared between described resources, in the default graph and in named
 * graphs; constants, several resources, variables of a WHERE (IRIs, literals, a blank node, {@code *}), FROM and FROM
 * NAMED; the same shape again with other constants (the kept plan); inside a transaction with pending changes.
 */
class NativeDescribeTest {
    private static final String EX = "http://example.org/";
    private static final String PREFIX = "PREFIX ex: <" + EX + "> ";
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final int RESOURCES = 12;

    @TempDir
    File dir;

    /** Random statements over a few IRIs, blank nodes and literals; a chain and a cycle of blank nodes on ex:r0. */
    static List<Statement> randomGraph(Random r) {
        List<Statement> data = new ArrayList<>();
        BNode[] bnodes = new BNode[8];
        for (int i = 0; i < bnodes.length; i++) {
            bnodes[i] = VF.createBNode("n" + r.nextInt(1_000_000) + "x" + i);
        }
        IRI[] graphs = { null, VF.createIRI(EX, "g1"), VF.createIRI(EX, "g2") };
        int n = 30 + r.nextInt(60);
        for (int i = 0; i < n; i++) {
            Resource s = r.nextInt(3) == 0 ? bnodes[r.nextInt(bnodes.length)] : iri(r.nextInt(RESOURCES));
            IRI p = VF.createIRI(EX, "p" + r.nextInt(4));
            Value o = switch (r.nextInt(4)) {
            case 0 -> bnodes[r.nextInt(bnodes.length)];
            case 1 -> VF.createLiteral("v" + r.nextInt(5));
            default -> iri(r.nextInt(RESOURCES));
            };
            data.add(VF.createStatement(s, p, o, graphs[r.nextInt(graphs.length)]));
        }
        IRI p0 = VF.createIRI(EX, "p0");
        // ex:r0 -> b0 -> b1 -> b2 -> b0 (a cycle), b1 -> ex:r1; b3 -> ex:r0 -> b3 (both directions)
        data.add(VF.createStatement(iri(0), p0, bnodes[0]));
        data.add(VF.createStatement(bnodes[0], p0, bnodes[1]));
        data.add(VF.createStatement(bnodes[1], p0, bnodes[2]));
        data.add(VF.createStatement(bnodes[2], p0, bnodes[0]));
        data.add(VF.createStatement(bnodes[1], p0, iri(1)));
        data.add(VF.createStatement(bnodes[3], p0, iri(0)));
        data.add(VF.createStatement(iri(0), VF.createIRI(EX, "p1"), bnodes[3]));
        data.add(VF.createStatement(bnodes[4], p0, bnodes[4], graphs[1]));
        data.add(VF.createStatement(iri(2), p0, bnodes[4], graphs[1]));
        data.add(VF.createStatement(iri(RESOURCES), p0, bnodes[5]));
        return data;
    }

    private static IRI iri(int i) {
        return VF.createIRI(EX, "r" + i);
    }

    private static final List<String> QUERIES = List.of(
            "DESCRIBE ex:r0",
            "DESCRIBE ex:r1",
            "DESCRIBE ex:r2",
            "DESCRIBE ex:r5",
            "DESCRIBE ex:nothing",
            "DESCRIBE ex:r0 ex:r1 ex:r2 ex:r3",
            "DESCRIBE ex:r3 ex:r2 ex:r1 ex:r0",
            "DESCRIBE ?x WHERE { ?x ex:p0 ?y FILTER isIRI(?x) } ORDER BY ?x",
            "DESCRIBE ?x ?y WHERE { ?x ex:p1 ?y FILTER (isIRI(?x) && !isBlank(?y)) } ORDER BY ?x ?y",
            "DESCRIBE ?y WHERE { ?x ex:p2 ?y FILTER isLiteral(?y) } ORDER BY ?y",
            "DESCRIBE ?b WHERE { ex:r" + RESOURCES + " ex:p0 ?b }",
            "DESCRIBE * WHERE { ex:r1 ex:p3 ?y FILTER isIRI(?y) } ORDER BY ?y",
            "DESCRIBE ex:r0 FROM ex:g1",
            "DESCRIBE ex:r0 ex:r2 FROM ex:g1 FROM ex:g2",
            "DESCRIBE ex:r0 FROM NAMED ex:g1",
            "DESCRIBE ?x FROM ex:g1 WHERE { ?x ?p ?y FILTER isIRI(?x) } ORDER BY ?x",
            "DESCRIBE ?x FROM ex:g2 FROM NAMED ex:g1 WHERE { GRAPH ex:g1 { ?x ?p ?y } FILTER isIRI(?x) } ORDER BY ?x");

    @ParameterizedTest
    @ValueSource(longs = { 1, 2, 3, 4, 5, 6, 7, 8 })
    void answersAsRdf4jDoes(long seed) {
        List<Statement> data = randomGraph(new Random(seed));
        SailRepository basalt = TestRepos.open(new File(dir, "b" + seed));
        Repository memory = TestRepos.memoryWith(data);
        try {
            TestRepos.addAll(data, basalt);
            BasaltStore store = (BasaltStore) basalt.getSail();
            NativeQueryStats stats = store.getNativeQueryStats();
            stats.reset();
            int nonEmpty = 0;
            for (String q : QUERIES) {
                nonEmpty += compare(basalt, memory, q) ? 1 : 0;
            }
            // the same shapes again: kept plans run now
            for (String q : QUERIES) {
                compare(basalt, memory, q);
            }
            for (int i = 0; i < RESOURCES; i++) {
                compare(basalt, memory, "DESCRIBE ?x WHERE { ex:r" + i + " ?p ?x FILTER isIRI(?x) } ORDER BY ?x");
            }
            assertTrue(nonEmpty >= QUERIES.size() / 2, "too few queries answer anything: " + nonEmpty);
            // DESCRIBE's WHERE runs as Basalt plans (an ORDER BY is left to RDF4J), never the whole query
            assertEquals(0, stats.runtimeFallbacks(), stats.toString());
            assertTrue(stats.plansCompiled() > 0, stats.toString());
        } finally {
            basalt.shutDown();
            memory.shutDown();
        }
    }

    /** Inside a transaction, pending additions and removals are described as the transaction sees them. */
    @ParameterizedTest
    @ValueSource(longs = { 11, 12, 13 })
    void describesWhatATransactionSees(long seed) {
        Random r = new Random(seed);
        List<Statement> data = randomGraph(r);
        List<Statement> more = randomGraph(r);
        SailRepository basalt = TestRepos.open(new File(dir, "t" + seed));
        Repository memory = TestRepos.memoryWith(data);
        try (RepositoryConnection b = basalt.getConnection(); RepositoryConnection m = memory.getConnection()) {
            TestRepos.addAll(data, basalt);
            b.begin();
            m.begin();
            b.add(more);
            m.add(more);
            for (Statement s : data.subList(0, data.size() / 3)) {
                b.remove(s);
                m.remove(s);
            }
            for (String q : QUERIES) {
                Model expected = new LinkedHashModel(QueryResults.asList(m.prepareGraphQuery(PREFIX + q).evaluate()));
                Model actual = new LinkedHashModel(QueryResults.asList(b.prepareGraphQuery(PREFIX + q).evaluate()));
                assertTrue(Models.isomorphic(expected, actual), q + "\nexpected " + expected + "\nactual " + actual);
            }
            b.rollback();
            m.rollback();
        } finally {
            basalt.shutDown();
            memory.shutDown();
        }
    }

    /** Compares one query's answers; whether it answered anything. */
    private static boolean compare(Repository basalt, Repository memory, String q) {
        try (RepositoryConnection b = basalt.getConnection(); RepositoryConnection m = memory.getConnection()) {
            Model expected = new LinkedHashModel(QueryResults.asList(m.prepareGraphQuery(PREFIX + q).evaluate()));
            Model actual = new LinkedHashModel(QueryResults.asList(b.prepareGraphQuery(PREFIX + q).evaluate()));
            assertTrue(Models.isomorphic(expected, actual), q + "\nexpected " + expected + "\nactual " + actual);
            if (q.endsWith("FROM NAMED ex:g1")) {
                assertTrue(expected.isEmpty(), "a dataset of named graphs only has an empty default graph: " + q);
            }
            return !expected.isEmpty();
        }
    }
}
