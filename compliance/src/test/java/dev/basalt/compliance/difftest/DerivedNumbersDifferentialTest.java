package dev.basalt.compliance.difftest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * SUM and AVG of a cast of one variable (BSBM's {@code AVG(xsd:decimal(str(?price)))}) on a Basalt
 * store, whose exact values per term id the store keeps across queries (the lexicon's derived-number
 * tables), against RDF4J's MemoryStore: prices of a custom datatype with 0 to 3 decimals, negative
 * ones, 17- and 18-digit ones (the latter not kept as packed numbers), ill-formed ones (errors),
 * offers repeated in named graphs (duplicate rows), prices under OPTIONAL (unbound), joined to
 * vendors and countries as in the BI queries. Each query runs three times on the same store (the
 * first fills the tables, the others read them) and must equal MemoryStore's answer every time.
 */
class DerivedNumbersDifferentialTest {
    private static final String NS = "http://ex.org/";
    private static final String PROLOGUE = "PREFIX : <" + NS + "> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final List<String> QUERIES = List.of(
            "SELECT ?c (AVG(xsd:decimal(str(?x))) AS ?a) (SUM(xsd:decimal(str(?x))) AS ?s) (COUNT(*) AS ?n) "
                    + "WHERE { ?o :vendor ?v . ?v :country ?c . ?o :price ?x } GROUP BY ?c",
            "SELECT ?v (AVG(xsd:decimal(str(?x))) AS ?a) WHERE { ?o :vendor ?v OPTIONAL { ?o :price ?x } } GROUP BY ?v",
            "SELECT (SUM(xsd:integer(str(?x))) AS ?s) (AVG(xsd:decimal(?x)) AS ?a) WHERE { ?o :price ?x }",
            "SELECT ?g (SUM(xsd:decimal(str(?x))) AS ?s) WHERE { GRAPH ?g { ?o :price ?x } } GROUP BY ?g",
            "SELECT ?c (AVG(DISTINCT xsd:decimal(str(?x))) AS ?a) (MAX(xsd:decimal(str(?x))) AS ?m) "
                    + "WHERE { ?o :vendor ?v . ?v :country ?c . ?o :price ?x } GROUP BY ?c",
            "SELECT ?v (MIN(xsd:decimal(str(?x))) AS ?m) (SUM(xsd:decimal(str(?x))) AS ?s) "
                    + "WHERE { ?o :vendor ?v . ?o :price ?x } GROUP BY ?v");

    @TempDir
    File dir;

    private static IRI iri(String local) {
        return VF.createIRI(NS, local);
    }

    private static Literal price(Random r, IRI usd) {
        String label = switch (r.nextInt(12)) {
            case 0 -> "-" + r.nextInt(500) + "." + r.nextInt(10);
            case 1 -> String.valueOf(r.nextInt(10_000));
            case 2 -> r.nextInt(100) + "." + String.format("%03d", r.nextInt(1000));
            case 3 -> "9999999999999" + (1000 + r.nextInt(9000)) + "." + r.nextInt(10); // 18 digits
            case 4 -> "99999999999" + (1000 + r.nextInt(9000)) + ".5"; // 16 digits
            case 5 -> r.nextBoolean() ? "n/a" : "1e3";
            default -> r.nextInt(10_000) + "." + String.format("%02d", r.nextInt(100));
        };
        // some typed as xsd:decimal itself, so that a cast without STR also has numbers to add
        return r.nextInt(10) == 0 && !label.equals("n/a") && !label.equals("1e3") ? VF.createLiteral(label, XSD.DECIMAL)
                : VF.createLiteral(label, usd);
    }

    private static List<Statement> shop(Random r) {
        List<Statement> out = new ArrayList<>();
        IRI usd = iri("USD");
        for (int v = 0; v < 30; v++) {
            out.add(VF.createStatement(iri("vendor" + v), iri("country"), iri("country" + v % 7)));
        }
        for (int o = 0; o < 3_000; o++) {
            IRI offer = iri("offer" + o);
            out.add(VF.createStatement(offer, iri("vendor"), iri("vendor" + r.nextInt(32))));
            if (r.nextInt(8) != 0) {
                Literal p = price(r, usd);
                out.add(VF.createStatement(offer, iri("price"), p));
                if (r.nextInt(10) == 0) {
                    out.add(VF.createStatement(offer, iri("price"), p, iri("g" + r.nextInt(2))));
                }
            }
        }
        return out;
    }

    /**
     * With the default derived-value budget, none at all, and one too small to hold the prices (the
     * number tables and the value cache then keep some values and derive the others again).
     */
    @ParameterizedTest
    @ValueSource(longs = { -1, 0, 6_000 })
    void derivedSumsAndAveragesAnswerAsMemoryStoreDoes(long derivedCacheBytes) {
        List<Statement> data = shop(new Random(3_838));
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        config.setDerivedCacheBytes(derivedCacheBytes);
        Repository basalt = new BasaltRepository(new BasaltStore(new File(dir, "store"), config));
        Repository memory = new SailRepository(new MemoryStore());
        try (RepositoryConnection b = basalt.getConnection(); RepositoryConnection m = memory.getConnection()) {
            b.add(data);
            m.add(data);
            for (int round = 0; round < 3; round++) {
                for (String body : QUERIES) {
                    String query = PROLOGUE + body;
                    assertEquals(MergeJoinDifferentialTest.rows(m, query), MergeJoinDifferentialTest.rows(b, query),
                            "round " + round + ": " + query);
                }
            }
        } finally {
            basalt.shutDown();
            memory.shutDown();
        }
    }
}
