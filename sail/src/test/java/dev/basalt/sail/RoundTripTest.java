package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Triple;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.RepositoryResult;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Adds, removes, contexts, namespaces, clear, size, RDF-star, literal identity and SPARQL through a SailRepository. */
class RoundTripTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String EX = "http://example.org/";
    private static final IRI A = VF.createIRI(EX, "a");
    private static final IRI B = VF.createIRI(EX, "b");
    private static final IRI P = VF.createIRI(EX, "p");
    private static final IRI G1 = VF.createIRI(EX, "g1");
    private static final IRI G2 = VF.createIRI(EX, "g2");

    @TempDir
    File dir;
    private SailRepository repo;

    @BeforeEach
    void open() {
        repo = TestRepos.open(dir);
    }

    @AfterEach
    void close() {
        repo.shutDown();
    }

    @Test
    void addRemoveContextsAndSize() {
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(A, P, B);
            c.add(A, P, B, G1);
            c.add(A, P, VF.createLiteral("x"), G1);
            c.add(B, P, A, G2);
            assertEquals(4, c.size());
            assertEquals(1, c.size((Resource) null));
            assertEquals(2, c.size(G1));
            assertEquals(3, c.size(G1, G2));
            assertEquals(3, c.size(G1, G2, G1), "a context named twice counts once");
            assertEquals(Set.of(G1, G2), Set.copyOf(QueryResults.asList(c.getContextIDs())));
            assertEquals(2, c.getStatements(A, P, B, false).stream().count());
            assertEquals(1, c.getStatements(A, P, B, false, (Resource) null).stream().count());
            assertEquals(1, c.getStatements(null, null, null, false, G2).stream().count());
            assertFalse(c.hasStatement(A, P, A, false));
            assertFalse(c.hasStatement(VF.createIRI(EX, "unknown"), null, null, false));

            c.remove(A, P, B, G1);
            assertEquals(3, c.size());
            c.clear(G1);
            assertEquals(2, c.size());
            assertEquals(Set.of(G2), Set.copyOf(QueryResults.asList(c.getContextIDs())));
            c.clear();
            assertEquals(0, c.size());
            assertTrue(QueryResults.asList(c.getContextIDs()).isEmpty());
        }
    }

    @Test
    void sizeInsideTransactionSeesPendingChanges() {
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(A, P, B);
            c.begin();
            c.add(B, P, A);
            c.remove(A, P, B);
            c.add(A, P, A, G1);
            assertEquals(2, c.size());
            c.rollback();
            assertEquals(1, c.size());
        }
    }

    @Test
    void namespaces() {
        try (RepositoryConnection c = repo.getConnection()) {
            c.setNamespace("ex", EX);
            c.setNamespace("", "http://default.example/");
            c.setNamespace("rdf", RDF.NAMESPACE);
            assertEquals(EX, c.getNamespace("ex"));
            assertEquals("http://default.example/", c.getNamespace(""));
            c.removeNamespace("rdf");
            assertNull(c.getNamespace("rdf"));
            assertEquals(2, c.getNamespaces().stream().count());
            c.clearNamespaces();
            assertEquals(0, c.getNamespaces().stream().count());
        }
    }

    @Test
    void literalIdentityInlineAndDictionary() {
        Literal one = VF.createLiteral("1", XSD.INTEGER);
        Literal zeroOne = VF.createLiteral("01", XSD.INTEGER);
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(A, P, one);
            c.add(B, P, zeroOne);
            c.add(A, P, VF.createLiteral("x", "EN"));
            c.add(A, P, VF.createLiteral(true));
            c.add(A, P, VF.createLiteral("2024-01-02T03:04:05Z", XSD.DATETIME));
            assertEquals(List.of(A), subjects(c, one));
            assertEquals(List.of(B), subjects(c, zeroOne));
            assertEquals(List.of(A), subjects(c, VF.createLiteral("2024-01-02T03:04:05Z", XSD.DATETIME)));
            List<BindingSet> r = QueryResults.asList(c.prepareTupleQuery(
                    "SELECT ?s WHERE { ?s <" + P + "> \"x\"@EN }").evaluate());
            assertEquals(1, r.size(), "a language tag matches case-insensitively");
            r = QueryResults.asList(c.prepareTupleQuery("SELECT ?s WHERE { ?s <" + P + "> \"x\"@en }").evaluate());
            assertEquals(1, r.size());
            r = QueryResults.asList(c.prepareTupleQuery(
                    "SELECT ?s WHERE { ?s <" + P + "> ?o FILTER(?o = 1) }").evaluate());
            assertEquals(2, r.size(), "value equality still finds both spellings");
        }
    }

    private static List<Resource> subjects(RepositoryConnection c, Value o) {
        return c.getStatements(null, P, o, false).stream().map(Statement::getSubject).collect(Collectors.toList());
    }

    @Test
    void largeLiterals() {
        Literal kb = VF.createLiteral("k".repeat(1500));
        Literal big = VF.createLiteral("b".repeat(150_000), VF.createIRI(EX, "bigType"));
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(A, P, kb);
            c.add(B, P, big, G1);
            assertTrue(c.hasStatement(A, P, kb, false));
            assertTrue(c.hasStatement(B, P, big, false, G1));
            try (RepositoryResult<Statement> it = c.getStatements(B, P, null, false)) {
                assertEquals(big, it.next().getObject());
            }
            assertFalse(c.hasStatement(A, P, VF.createLiteral("k".repeat(1499) + "x"), false));
        }
    }

    @Test
    void rdfStar() {
        Triple t = VF.createTriple(A, P, B);
        Triple nested = VF.createTriple(t, P, VF.createLiteral("n"));
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(t, P, VF.createLiteral("asserted about"));
            c.add(A, P, nested, G1);
            assertTrue(c.hasStatement(t, P, null, false));
            try (RepositoryResult<Statement> it = c.getStatements(A, P, null, false)) {
                assertEquals(nested, it.next().getObject());
            }
            List<BindingSet> r = QueryResults.asList(c.prepareTupleQuery(
                    "SELECT ?o WHERE { << <" + A + "> <" + P + "> ?x >> <" + P + "> ?o }").evaluate());
            assertEquals(1, r.size());
            assertEquals("asserted about", r.get(0).getValue("o").stringValue());
        }
    }

    @Test
    void sparqlSmoke() {
        try (RepositoryConnection c = repo.getConnection()) {
            for (int i = 0; i < 50; i++) {
                IRI s = VF.createIRI(EX, "s" + i);
                c.add(s, RDF.TYPE, VF.createIRI(EX, i % 2 == 0 ? "Even" : "Odd"));
                c.add(s, P, VF.createLiteral(i));
            }
            c.prepareUpdate("INSERT DATA { GRAPH <" + G1 + "> { <" + A + "> <" + P + "> 1000 } }").execute();
            List<BindingSet> r = QueryResults.asList(c.prepareTupleQuery(
                    "PREFIX ex: <" + EX + "> SELECT (COUNT(?s) AS ?n) (SUM(?v) AS ?sum) WHERE { ?s a ex:Even ; ex:p ?v FILTER(?v >= 10) }")
                    .evaluate());
            assertEquals(20, ((Literal) r.get(0).getValue("n")).intValue());
            assertEquals(580, ((Literal) r.get(0).getValue("sum")).intValue());
            assertTrue(c.prepareBooleanQuery("ASK { GRAPH ?g { ?s ?p 1000 } }").evaluate());
            c.prepareUpdate("DELETE WHERE { ?s a <" + EX + "Odd> }").execute();
            assertEquals(76, c.size());
        }
    }
}
