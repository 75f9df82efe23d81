package dev.basalt.compliance.difftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * The merge join over blocks of ids, on a Basalt store (its index cursors' block reads and seeks)
 * against RDF4J's MemoryStore: random shops whose products have from none to thousands of offers
 * or reviews (groups that span blocks, gaps that seek), statements repeated in named graphs
 * (duplicates in the answers), a rating on some reviews only (OPTIONAL leaves it unbound); each
 * query is run with the {@code joins "hash-merge"} hint (the first two patterns merged wherever the
 * indices order both) and as planned, and its rows, as a multiset, must equal MemoryStore's.
 */
class MergeJoinDifferentialTest {
    private static final String NS = "http://ex.org/";
    private static final String PROLOGUE = "PREFIX : <" + NS + "> ";
    private static final String HINT = "[] <http://basalt.dev/hint#joins> \"hash-merge\" . ";
    private static final int DATASETS = 2;
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    /** Query bodies; each is run as {@code SELECT * WHERE { body }} unless it starts with SELECT. */
    private static final List<String> QUERIES = List.of(
            "?o :product ?p . ?r :reviewFor ?p",
            "?o :product ?p . ?r :reviewFor ?p OPTIONAL { ?r :rating ?x }",
            "?o :product ?p . ?o :likes ?p",
            "GRAPH ?g { ?r :reviewFor ?p } ?o :product ?p",
            "GRAPH ?g { ?o :product ?p . ?r :reviewFor ?p }",
            "?o :vendor :vendor3 OPTIONAL { ?o :likes ?p . ?r :reviewFor ?p }",
            "?r :reviewFor ?p . ?o :product ?p . ?o :vendor ?v",
            "SELECT ?p (COUNT(*) AS ?n) (COUNT(?x) AS ?rated) (SUM(?x) AS ?s) WHERE { ?o :product ?p . "
                    + "?r :reviewFor ?p OPTIONAL { ?r :rating ?x } } GROUP BY ?p",
            "SELECT (COUNT(*) AS ?n) (COUNT(DISTINCT ?p) AS ?d) WHERE { ?o :product ?p . ?r :reviewFor ?p . "
                    + "?r :rating ?x FILTER(?x > 2) }");

    @TempDir
    File dir;

    private static IRI iri(String local) {
        return VF.createIRI(NS, local);
    }

    /** A shop: {@code products} products, most offered, some with thousands of offers or reviews. */
    private static List<Statement> shop(Random random, int products) {
        List<Statement> out = new ArrayList<>();
        int offer = 0;
        int review = 0;
        for (int p = 0; p < products; p++) {
            IRI product = iri("product" + p);
            // a key with many matches on one side has few on the other, so the answers stay small
            int offers = random.nextInt(4);
            int reviews = random.nextInt(3) == 0 ? 0 : random.nextInt(3);
            if (random.nextInt(25) == 0) {
                offers = 1_050 + random.nextInt(300);
            } else if (random.nextInt(25) == 0) {
                reviews = 1_050 + random.nextInt(300);
            }
            for (int i = 0; i < offers; i++, offer++) {
                IRI o = iri("offer" + offer);
                out.add(VF.createStatement(o, iri("product"), product));
                out.add(VF.createStatement(o, iri("vendor"), iri("vendor" + random.nextInt(20))));
                if (random.nextInt(4) == 0) {
                    out.add(VF.createStatement(o, iri("likes"), random.nextBoolean() ? product : iri("product" + (p + 1))));
                }
                if (random.nextInt(15) == 0) {
                    out.add(VF.createStatement(o, iri("product"), product, iri("g" + random.nextInt(2))));
                }
            }
            for (int i = 0; i < reviews; i++, review++) {
                IRI r = iri("review" + review);
                out.add(VF.createStatement(r, iri("reviewFor"), product));
                if (random.nextInt(3) == 0) {
                    out.add(VF.createStatement(r, iri("rating"), VF.createLiteral(random.nextInt(6))));
                }
                if (random.nextInt(10) == 0) {
                    out.add(VF.createStatement(r, iri("reviewFor"), product, iri("g" + random.nextInt(2))));
                }
            }
        }
        return out;
    }

    @Test
    void mergedJoinsAnswerAsMemoryStoreDoes() {
        int merged = 0;
        int forced = 0;
        for (int d = 0; d < DATASETS; d++) {
            Random random = new Random(3_800 + d);
            List<Statement> data = shop(random, 120);
            BasaltStoreConfig config = new BasaltStoreConfig();
            config.setDurable(false);
            Repository basalt = new BasaltRepository(new BasaltStore(new File(dir, "d" + d), config));
            Repository memory = new SailRepository(new MemoryStore());
            try (RepositoryConnection b = basalt.getConnection(); RepositoryConnection m = memory.getConnection()) {
                b.add(data);
                m.add(data);
                for (String body : QUERIES) {
                    String query = PROLOGUE + (body.startsWith("SELECT") ? body : "SELECT * WHERE { " + body + " }");
                    String hinted = query.replaceFirst("WHERE \\{ ", "WHERE { " + HINT);
                    List<String> expected = rows(m, query);
                    assertEquals(expected, rows(b, query), "planned, dataset " + d + ": " + query);
                    assertEquals(expected, rows(b, hinted), "forced, dataset " + d + ": " + hinted);
                    forced++;
                    if (b.prepareTupleQuery(hinted).explain(Explanation.Level.Optimized).toString()
                            .contains("MergeJoin")) {
                        merged++;
                    }
                }
            } finally {
                basalt.shutDown();
                memory.shutDown();
            }
        }
        assertTrue(merged >= forced * 2 / 3, merged + " of " + forced + " forced queries merged");
    }

    /** The rows as sorted strings of sorted bindings (a multiset: duplicates kept); other differential tests use it too. */
    static List<String> rows(RepositoryConnection c, String query) {
        List<String> out = new ArrayList<>();
        try (TupleQueryResult r = c.prepareTupleQuery(query).evaluate()) {
            for (BindingSet row : r) {
                TreeSet<String> names = new TreeSet<>(row.getBindingNames());
                StringBuilder s = new StringBuilder();
                for (String n : names) {
                    s.append(n).append('=').append(row.getValue(n)).append(' ');
                }
                out.add(s.toString());
            }
        }
        out.sort(null);
        return out;
    }
}
