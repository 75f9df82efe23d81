package dev.basalt.sail;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;

/**
 * Deterministic statements for the spill tests: statement {@code i} has one of 1,000 subjects,
 * one of 7 predicates, a literal object unique to {@code i} (alternately a string and an integer)
 * and one of 5 named graphs or the default graph.
 */
final class SpillData {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final int SUBJECTS = 1_000;
    private static final int GRAPHS = 6;

    private SpillData() {
    }

    static int subjectOf(int i) {
        return i % SUBJECTS;
    }

    static int graphOf(int i) {
        return (i / 7) % GRAPHS;
    }

    static IRI subject(int s) {
        return VF.createIRI("http://example.org/s/" + s);
    }

    static IRI graph(int g) {
        return g == 0 ? null : VF.createIRI("http://example.org/g/" + g);
    }

    static Statement statement(int i) {
        IRI p = VF.createIRI("http://example.org/p/" + (i % 7));
        var o = i % 2 == 0 ? VF.createLiteral("value " + i) : VF.createLiteral(i);
        return VF.createStatement(subject(subjectOf(i)), p, o, graph(graphOf(i)));
    }

    static long perSubject(int s, int n) {
        long c = 0;
        for (int i = s; i < n; i += SUBJECTS) {
            c++;
        }
        return c;
    }

    static long inGraph(int g, int n) {
        long c = 0;
        for (int i = 0; i < n; i++) {
            if (graphOf(i) == g) {
                c++;
            }
        }
        return c;
    }

    static boolean isInGraph(int i, int g) {
        return graphOf(i) == g;
    }
}
