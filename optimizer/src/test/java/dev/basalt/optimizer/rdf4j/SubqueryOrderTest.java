package dev.basalt.optimizer.rdf4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.junit.jupiter.api.Test;


import dev.basalt.optimizer.NativeRunner;

/**
 * An ORDER BY ... LIMIT subquery inside OPTIONAL (RDF4J's SubselectTest.testSES2154SubselectOptional):
 * the subquery must not see the outer ?s, so every subject gets the two smallest labels.
 */
class SubqueryOrderTest {
    @Test
    void orderedSubqueryKeepsItsScope() {
        ValueFactory vf = SimpleValueFactory.getInstance();
        List<Statement> data = new ArrayList<>();
        for (int i = 1; i <= 12; i++) {
            data.add(vf.createStatement(vf.createIRI("urn:s" + i), RDF.TYPE, vf.createIRI("urn:C")));
            data.add(vf.createStatement(vf.createIRI("urn:s" + i), vf.createIRI("urn:p"), vf.createLiteral(String.format("%02d", i))));
        }
        try (NativeRunner r = new NativeRunner(data)) {
            String q = "SELECT ?s ?label WHERE { ?s a <urn:C> . OPTIONAL { {SELECT ?label WHERE { ?s <urn:p> ?label . } ORDER BY ?label LIMIT 2 } } } ORDER BY ?s LIMIT 10";
            List<String> expected = SolutionModifiersTest.rows(r.memory(q));
            SolutionModifiersTest.assertSameList(expected, SolutionModifiersTest.rows(r.basalt(q)), q);
            assertEquals(0, r.stats().runtimeFallbacks(), r.stats().toString());
        }
    }
}
