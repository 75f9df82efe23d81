package dev.basalt.compliance.difftest;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;

/**
 * Random RDF datasets over a small shared vocabulary, so random queries find joins: subjects are a
 * few IRIs and blank nodes, objects add literals of every type Basalt encodes inline (xsd:integer,
 * decimal, double, boolean, dateTime with and without time zone, date, string) in canonical and
 * non-canonical spellings (the latter are dictionary terms in Basalt, equal in value to inline
 * ones), language-tagged strings, long strings past the inline limit, and IRIs; statements go to
 * the default graph or one of {@value #GRAPHS} named graphs.
 *
 * <p>The same vocabulary is what {@link RandomQueries} draws its constants from. Not thread-safe:
 * one generator per thread.
 */
final class RandomData {
    static final String NS = "http://ex.org/";
    static final int SUBJECTS = 12;
    static final int BLANKS = 4;
    static final int PREDICATES = 5;
    static final int GRAPHS = 3;
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    private final Random random;

    RandomData(Random random) {
        this.random = random;
    }

    static IRI iri(String local) {
        return VF.createIRI(NS, local);
    }

    static IRI subject(int i) {
        return iri("s" + i);
    }

    static IRI predicate(int i) {
        return iri("p" + i);
    }

    static IRI graph(int i) {
        return iri("g" + i);
    }

    /** A dataset of {@code min} to {@code max} statements (duplicates collapse). */
    List<Statement> dataset(int min, int max) {
        int n = min + random.nextInt(max - min + 1);
        List<Statement> statements = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Resource s = random.nextInt(8) == 0 ? VF.createBNode("b" + random.nextInt(BLANKS)) : subject(random.nextInt(SUBJECTS));
            IRI p = predicate(skewed(PREDICATES));
            Value o = object();
            Resource g = random.nextInt(3) == 0 ? graph(random.nextInt(GRAPHS)) : null;
            statements.add(g == null ? VF.createStatement(s, p, o) : VF.createStatement(s, p, o, g));
        }
        return statements;
    }

    /** Low indexes more often: some predicates are common, some rare. */
    private int skewed(int n) {
        return Math.min(random.nextInt(n), random.nextInt(n));
    }

    private Value object() {
        switch (random.nextInt(6)) {
        case 0:
        case 1:
            return subject(random.nextInt(SUBJECTS));
        case 2:
            return random.nextInt(3) == 0 ? VF.createBNode("b" + random.nextInt(BLANKS)) : literal();
        default:
            return literal();
        }
    }

    /** A literal as a query constant or as data. */
    Literal literal() {
        switch (random.nextInt(11)) {
        case 0:
            return VF.createLiteral(pick("0", "1", "2", "3", "7", "-1", "42", "100", "01", "+2", "-0", "9999999999999999999"),
                    XSD.INTEGER);
        case 1:
            return VF.createLiteral(pick("1.5", "2.0", "0.25", "-3.75", "1.50", "2", ".5", "100.0", "0.0"), XSD.DECIMAL);
        case 2:
            return VF.createLiteral(pick("1.0E0", "2.5E1", "-1.0E0", "1e0", "0.0E0", "-0.0E0", "INF", "NaN", "3.0E-2", "7"),
                    XSD.DOUBLE);
        case 3:
            return VF.createLiteral(pick("true", "false", "1", "0"), XSD.BOOLEAN);
        case 4:
            return VF.createLiteral(pick("2020-01-01T00:00:00Z", "2020-01-01T01:00:00+01:00", "2021-06-15T12:30:45",
                    "2019-12-31T23:59:59.5Z", "2020-01-01T00:00:00.000Z", "2022-02-28T10:00:00-05:00"), XSD.DATETIME);
        case 5:
            return VF.createLiteral(pick("2020-01-01", "2021-06-15", "2019-12-31Z", "2020-01-01+02:00"), XSD.DATE);
        case 6:
            return VF.createLiteral(pick("a", "b", "abc", "ABC", "hello world", "", "1", "2020-01-01", "Ünïcödé", "a.b"));
        case 7:
            return VF.createLiteral(pick("a", "abc", "x y"), XSD.STRING);
        case 8:
            // lower case: Basalt normalizes language tags to lower case, as RDF 1.1 Concepts 3.3 allows
            return VF.createLiteral(pick("chat", "cat", "Hello", "a"), pick("en", "en-us", "fr"));
        case 9:
            return VF.createLiteral("long " + "abcdefghij".repeat(2 + random.nextInt(4)) + random.nextInt(3));
        default:
            return VF.createLiteral(pick("5", "12", "3.0", "abc", "x"), pick(XSD.INT, XSD.SHORT, XSD.FLOAT, XSD.TOKEN));
        }
    }

    @SafeVarargs
    private <T> T pick(T... options) {
        return options[random.nextInt(options.length)];
    }
}
