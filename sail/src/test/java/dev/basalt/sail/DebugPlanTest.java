package dev.basalt.sail;

import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.junit.jupiter.api.Test;

class DebugPlanTest extends NativeEvaluationTest {
    @Test
    void show() {
        for (String q : new String[] { "SELECT * WHERE { ?s ?p ?o FILTER(?o = ex:s3 || ?o = \"str2\") }",
                "SELECT * WHERE { ?s ex:p1 ?o OPTIONAL { ?o ex:p2 ?z FILTER(?s != ?z) } }" }) {
            for (var repo : new org.eclipse.rdf4j.repository.Repository[] { memory, basalt }) {
                try (RepositoryConnection c = repo.getConnection()) {
                    System.err.println(c.prepareTupleQuery("PREFIX ex: <http://example.org/> " + q).explain(Explanation.Level.Executed));
                }
            }
        }
    }
}
