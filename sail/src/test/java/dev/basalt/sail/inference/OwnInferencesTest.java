package dev.basalt.sail.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;

import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.OWL;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.RDFS;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.basalt.sail.config.InferenceMode;

/**
 * A transaction sees its own inferences before it commits, through getStatements and SPARQL, at
 * every isolated level the store supports; other connections do not until the commit; removals
 * likewise; a rollback leaves nothing behind.
 */
class OwnInferencesTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final IRI A = VF.createIRI("urn:x:a");
    private static final IRI B = VF.createIRI("urn:x:b");
    private static final IRI STUDENT = VF.createIRI("urn:x:Student");
    private static final IRI PERSON = VF.createIRI("urn:x:Person");
    private static final IRI KNOWS = VF.createIRI("urn:x:knows");
    private static final IRI ANCESTOR = VF.createIRI("urn:x:ancestor");

    @TempDir
    File dir;
    private SailRepository repo;

    static List<Object[]> levels() {
        List<Object[]> out = new java.util.ArrayList<>();
        for (InferenceMode mode : List.of(InferenceMode.RDFS, InferenceMode.OWL_RL)) {
            for (IsolationLevel level : List.of(IsolationLevels.READ_COMMITTED, IsolationLevels.SNAPSHOT_READ,
                    IsolationLevels.SNAPSHOT, IsolationLevels.SERIALIZABLE)) {
                out.add(new Object[] { mode, level });
            }
        }
        return out;
    }

    @AfterEach
    void close() {
        if (repo != null) {
            repo.shutDown();
        }
    }

    private static boolean typed(RepositoryConnection c, IRI s, IRI type) {
        return c.hasStatement(s, RDF.TYPE, type, true);
    }

    private static boolean askTyped(RepositoryConnection c, IRI s, IRI type) {
        return c.prepareBooleanQuery(QueryLanguage.SPARQL, "ASK { <" + s + "> a <" + type + "> }").evaluate();
    }

    @ParameterizedTest
    @MethodSource("levels")
    void additionsAreSeenByTheTransactionOnly(InferenceMode mode, IsolationLevel level) {
        repo = InferenceRepos.open(dir, mode);
        try (RepositoryConnection c = repo.getConnection(); RepositoryConnection other = repo.getConnection()) {
            c.begin(level);
            c.add(A, RDF.TYPE, STUDENT);
            c.add(STUDENT, RDFS.SUBCLASSOF, PERSON);
            assertTrue(typed(c, A, PERSON), "getStatements in the transaction");
            assertTrue(askTyped(c, A, PERSON), "SPARQL in the transaction");
            assertFalse(c.hasStatement(A, RDF.TYPE, PERSON, false), "not explicit");
            assertFalse(typed(other, A, PERSON), "another connection");
            assertFalse(askTyped(other, A, PERSON), "another connection, SPARQL");
            c.add(B, RDF.TYPE, STUDENT);
            assertTrue(typed(c, B, PERSON), "an addition after a read");
            c.commit();
            assertTrue(typed(other, A, PERSON));
            assertTrue(typed(other, B, PERSON));
            assertTrue(typed(c, A, PERSON));
        }
    }

    @ParameterizedTest
    @MethodSource("levels")
    void removalsAreSeenByTheTransactionOnly(InferenceMode mode, IsolationLevel level) {
        repo = InferenceRepos.open(dir, mode);
        try (RepositoryConnection c = repo.getConnection(); RepositoryConnection other = repo.getConnection()) {
            c.add(A, RDF.TYPE, STUDENT);
            c.add(B, RDF.TYPE, STUDENT);
            c.add(STUDENT, RDFS.SUBCLASSOF, PERSON);
            c.begin(level);
            c.remove(A, RDF.TYPE, STUDENT);
            assertFalse(typed(c, A, PERSON), "an inference of a removed statement");
            assertTrue(typed(c, B, PERSON), "an inference that still holds");
            assertTrue(typed(other, A, PERSON), "another connection still sees it");
            c.remove(STUDENT, RDFS.SUBCLASSOF, PERSON);
            assertFalse(askTyped(c, B, PERSON), "a removed schema statement");
            c.add(STUDENT, RDFS.SUBCLASSOF, PERSON);
            assertTrue(typed(c, B, PERSON), "the schema statement added back");
            c.remove(STUDENT, RDFS.SUBCLASSOF, PERSON);
            c.commit();
            assertFalse(typed(other, A, PERSON));
            assertFalse(typed(other, B, PERSON));
        }
    }

    @ParameterizedTest
    @MethodSource("levels")
    void rollbackLeavesNothing(InferenceMode mode, IsolationLevel level) {
        repo = InferenceRepos.open(dir, mode);
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(STUDENT, RDFS.SUBCLASSOF, PERSON);
            c.add(B, RDF.TYPE, STUDENT);
            long before = c.getStatements(null, null, null, true).stream().count();
            c.begin(level);
            c.add(A, RDF.TYPE, STUDENT);
            c.remove(B, RDF.TYPE, STUDENT);
            assertTrue(typed(c, A, PERSON));
            assertFalse(typed(c, B, PERSON));
            c.rollback();
            assertFalse(typed(c, A, PERSON));
            assertTrue(typed(c, B, PERSON));
            assertEquals(before, c.getStatements(null, null, null, true).stream().count());
            c.begin(level);
            c.add(A, KNOWS, B);
            c.commit();
            assertFalse(typed(c, A, PERSON), "the rolled-back preview must not reach a later commit");
        }
    }

    @ParameterizedTest
    @MethodSource("levels")
    void readsBetweenManyChangesFollowThem(InferenceMode mode, IsolationLevel level) {
        repo = InferenceRepos.open(dir, mode);
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(STUDENT, RDFS.SUBCLASSOF, PERSON);
            c.begin(level);
            for (int i = 0; i < 300; i++) {
                IRI x = VF.createIRI("urn:x:s" + i);
                c.add(x, RDF.TYPE, STUDENT);
                assertTrue(typed(c, x, PERSON), "after addition " + i);
                if (i % 3 == 2) {
                    IRI earlier = VF.createIRI("urn:x:s" + (i - 1));
                    c.remove(earlier, RDF.TYPE, STUDENT);
                    assertFalse(typed(c, earlier, PERSON), "after removal " + i);
                }
            }
            long persons = c.getStatements(null, RDF.TYPE, PERSON, true).stream().count();
            c.commit();
            assertEquals(200, persons);
            assertEquals(persons, c.getStatements(null, RDF.TYPE, PERSON, true).stream().count());
        }
    }

    @ParameterizedTest
    @MethodSource("levels")
    void owlRulesInTheTransaction(InferenceMode mode, IsolationLevel level) {
        if (mode != InferenceMode.OWL_RL) {
            return;
        }
        repo = InferenceRepos.open(dir, mode);
        try (RepositoryConnection c = repo.getConnection(); RepositoryConnection other = repo.getConnection()) {
            c.add(ANCESTOR, RDF.TYPE, OWL.TRANSITIVEPROPERTY);
            c.add(A, ANCESTOR, B);
            c.begin(level);
            IRI d = VF.createIRI("urn:x:d");
            c.add(B, ANCESTOR, d);
            assertTrue(c.hasStatement(A, ANCESTOR, d, true), "transitivity over a committed and a pending statement");
            assertFalse(other.hasStatement(A, ANCESTOR, d, true));
            c.clear();
            assertFalse(c.hasStatement(A, ANCESTOR, d, true), "after a clear");
            assertEquals(0, c.getStatements(null, null, null, true).stream()
                    .filter(st -> st.toString().contains("urn:x:")).count(), "nothing of the data left after a clear");
            c.rollback();
            assertTrue(other.hasStatement(A, ANCESTOR, B, false));
        }
    }
}
