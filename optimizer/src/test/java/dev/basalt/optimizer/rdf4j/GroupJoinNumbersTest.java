package dev.basalt.optimizer.rdf4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.basalt.optimizer.NativeRunner;
import dev.basalt.optimizer.exec.ExecLimits;

/**
 * The group join by key partitions over random shops, its numbers' edge cases included, against
 * RDF4J's evaluator (MemoryStore) on the same statements: a GROUP BY country of offers' prices read
 * as {@code xsd:decimal(str(?price))}, {@code xsd:double(str(?price))}, {@code xsd:integer(str(?price))}
 * and as the variable itself. The prices are custom-typed decimals of 0 to 3 decimals (one per offer
 * in the clean shops of odd seeds, so the partitioned prices are joined through a table of one number
 * per offer; some offers of two prices in the others: a key twice on the partitioned side, and the
 * partition takes the general table), and in the shops with edge cases also typed xsd:decimal,
 * xsd:integer (inline), xsd:double and xsd:float, NaN and infinities, ill-formed labels ({@code "12,5"},
 * {@code "1.2.3"}; RDF4J itself fails an AVG of an ill-formed xsd:decimal or xsd:integer), 30-digit
 * values and negative ones. Every answer (values and labels) equals MemoryStore's: forced group join,
 * as planned, the partitioned join run directly in memory, and spilled past a small budget.
 */
class GroupJoinNumbersTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String EX = "http://example.org/";
    private static final String PREFIX = "PREFIX : <" + EX + "> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";
    private static final String FORCE = " . [] <http://basalt.dev/hint#joins> \"hash-merge\" . ";
    private static final String WHERE = " WHERE { ?offer :vendor ?v . ?v :country ?country . ?offer :price ?price HINT } "
            + "GROUP BY ?country";
    private static final List<String> QUERIES = List.of(
            "SELECT ?country (AVG(xsd:decimal(str(?price))) AS ?a)" + WHERE,
            "SELECT ?country (SUM(xsd:decimal(str(?price))) AS ?s) (COUNT(*) AS ?n)" + WHERE,
            "SELECT ?country (AVG(xsd:double(str(?price))) AS ?a)" + WHERE,
            "SELECT ?country (SUM(xsd:integer(str(?price))) AS ?s)" + WHERE,
            "SELECT ?country (AVG(?price) AS ?a) (COUNT(*) AS ?n)" + WHERE);

    private static IRI iri(String local) {
        return VF.createIRI(EX, local);
    }

    private static Literal clean(Random r, IRI usd) {
        int decimals = r.nextInt(4);
        String label = (r.nextInt(3) == 0 ? "-" : "") + r.nextInt(100_000)
                + (decimals == 0 ? "" : "." + String.format("%03d", r.nextInt(1000)).substring(0, decimals));
        return VF.createLiteral(label, usd);
    }

    private static Literal edgy(Random r, IRI usd) {
        return switch (r.nextInt(14)) {
            case 0 -> VF.createLiteral(r.nextInt(1000) + "." + r.nextInt(100), XSD.DECIMAL);
            case 1 -> VF.createLiteral(Integer.toString(r.nextInt(2000) - 1000), XSD.INTEGER);
            case 2 -> VF.createLiteral(r.nextInt(100) + ".5E" + r.nextInt(3), XSD.DOUBLE);
            case 3 -> VF.createLiteral(r.nextInt(100) + ".25", XSD.FLOAT);
            case 4 -> VF.createLiteral(r.nextBoolean() ? "NaN" : "INF", XSD.DOUBLE);
            case 5 -> VF.createLiteral("12,5", usd);
            case 6 -> VF.createLiteral("1.2.3", usd);
            case 7 -> VF.createLiteral("123456789012345678901234567" + r.nextInt(1000) + ".5", usd);
            case 8 -> VF.createLiteral("-" + (1L << 58) + r.nextInt(10), usd);
            default -> clean(r, usd);
        };
    }

    /** Offers of 50 vendors (one country each, of 7, or every ninth in two) with prices as the class comment says. */
    private static List<Statement> shop(long seed, boolean edges, boolean twoCountries) {
        Random r = new Random(seed);
        List<Statement> out = new ArrayList<>();
        IRI usd = iri("USD");
        for (int v = 0; v < 50; v++) {
            out.add(VF.createStatement(iri("vendor" + v), iri("country"), iri("country" + v % 7)));
            if (twoCountries && v % 9 == 0) {
                out.add(VF.createStatement(iri("vendor" + v), iri("country"), iri("country" + (v + 2) % 7)));
            }
        }
        for (int o = 0; o < 2_500; o++) {
            IRI offer = iri("offer" + o);
            if (r.nextInt(20) != 0) {
                out.add(VF.createStatement(offer, iri("vendor"), iri("vendor" + r.nextInt(52))));
            }
            if (r.nextInt(10) == 0) {
                continue;
            }
            out.add(VF.createStatement(offer, iri("price"), edges ? edgy(r, usd) : clean(r, usd)));
            if ((edges || seed % 2 == 0) && r.nextInt(15) == 0) {
                out.add(VF.createStatement(offer, iri("price"), clean(r, usd)));
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(longs = { 1, 2, 3 })
    void partitionedPricesAnswerAsRdf4jDoes(long seed, @TempDir Path spillDir) {
        for (boolean edges : new boolean[] { false, true }) {
            NativeRunner runner = new NativeRunner(shop(seed, edges, seed == 3));
            try {
                for (String q : QUERIES) {
                    String what = "seed " + seed + (edges ? " with edge cases: " : ": ") + q;
                    List<String> expected = sorted(SolutionModifiersTest.rows(runner.memory(PREFIX + q.replace("HINT", ""))));
                    assertTrue(expected.size() > 1, what);
                    assertEquals(expected, sorted(SolutionModifiersTest.rows(runner.basalt(PREFIX + q.replace("HINT", "")))), what);
                    assertEquals(expected, sorted(SolutionModifiersTest.rows(runner.basalt(PREFIX + q.replace("HINT", FORCE)))), what);
                    assertEquals(expected, GroupJoinTest.partitionedRun(runner, ExecLimits.defaults()).rows(), what);
                    assertEquals(expected, GroupJoinTest.partitionedRun(runner, ExecLimits.defaults().withHashJoinRows(900)
                            .withSpillDir(spillDir)).rows(), what + " (spilled)");
                    // again: the store's table of derived numbers now holds the prices
                    assertEquals(expected, GroupJoinTest.partitionedRun(runner, ExecLimits.defaults()).rows(), what);
                }
            } finally {
                runner.close();
            }
        }
    }

    private static List<String> sorted(List<String> rows) {
        rows.sort(null);
        return rows;
    }
}
