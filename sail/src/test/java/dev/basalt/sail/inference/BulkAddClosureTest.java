package dev.basalt.sail.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.OWL;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.RDFS;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.Rio;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.InferenceMode;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * A large N-Triples add into a repository that keeps a closure takes the bulk path (the loader's
 * pipeline writes the explicit statements, rebuilding an index that holds fewer statements than the
 * add from the merge and putting the add's statements into a larger one, the commit maintains the closure from the statements it
 * added, in one run) and ends with the closure the per-statement path gives (which
 * {@link ClosureModelTest} checks against a recomputation): into a store holding only the schema, then a second
 * file into the closed store that repeats statements and makes some inferred statements explicit,
 * once at isolation NONE and once in an isolated transaction. Seed fixed (printed).
 */
class BulkAddClosureTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String NS = "urn:t:";
    private static final long SEED = Long.getLong("basalt.seed", 808);

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = InferenceMode.class, names = { "RDFS", "OWL_RL" })
    void bulkAddGivesTheClosureOfThePerStatementPath(InferenceMode mode) throws IOException {
        System.out.println("BulkAddClosureTest seed " + SEED);
        Random r = new Random(SEED);
        List<Statement> schema = new ArrayList<>(ClosureModelTest.fixed());
        for (Statement s : ClosureModelTest.pool(r)) {
            if (!s.getSubject().stringValue().startsWith(NS + "I")) {
                schema.add(s);
            }
        }
        List<Statement> first = new ArrayList<>(data(r, 0, 3_000));
        first.add(VF.createStatement(iri("C0"), RDF.TYPE, RDFS.RESOURCE));
        first.add(VF.createStatement(iri("C1"), RDF.TYPE, RDFS.CLASS));
        List<Statement> second = new ArrayList<>(data(r, 0, 1_500));
        second.addAll(first.subList(0, 500));
        second.add(VF.createStatement(iri("I5"), RDF.TYPE, RDFS.RESOURCE));
        Path firstFile = write(first, "first.nt");
        Path secondFile = write(second, "second.nt");

        Repository bulk = new BasaltRepository(new BasaltStore(dir.resolve("bulk").toFile(), config(mode)));
        Repository oneByOne = new SailRepository(new BasaltStore(dir.resolve("one").toFile(), config(mode)));
        bulk.init();
        oneByOne.init();
        try {
            for (Repository repo : List.of(bulk, oneByOne)) {
                try (RepositoryConnection c = repo.getConnection()) {
                    c.add(schema);
                    c.begin(IsolationLevels.NONE);
                    c.add(firstFile.toFile(), RDFFormat.NTRIPLES);
                    c.commit();
                    c.begin(IsolationLevels.SNAPSHOT_READ);
                    c.add(secondFile.toFile(), RDFFormat.NTRIPLES);
                    c.commit();
                }
            }
            try (RepositoryConnection b = bulk.getConnection(); RepositoryConnection o = oneByOne.getConnection()) {
                Set<NaiveClosure.T> explicit = NaiveClosure.triples(b.getStatements(null, null, null, false).stream().toList());
                assertEquals(NaiveClosure.triples(o.getStatements(null, null, null, false).stream().toList()), explicit);
                List<Statement> all = b.getStatements(null, null, null, true).stream().toList();
                Set<NaiveClosure.T> closure = NaiveClosure.triples(all);
                assertEquals(NaiveClosure.triples(o.getStatements(null, null, null, true).stream().toList()), closure,
                        "the bulk add's closure differs from the per-statement path's");
                assertTrue(closure.size() > explicit.size() + 1_000, "too few inferences to test anything: "
                        + explicit.size() + " explicit, " + closure.size() + " closed");
                // every statement is in the default graph: an inferred copy of an explicit one would repeat a triple
                assertEquals(closure.size(), all.size(), "an inferred statement repeats an explicit one");
                // the bulk path's parser names its input and line; RDF4J's per-statement parser does not
                RDFParseException e = assertThrows(RDFParseException.class, () -> b.add(
                        new java.io.ByteArrayInputStream("<urn:t:a> <urn:t:P0> .\n".getBytes()), "", RDFFormat.NTRIPLES));
                assertTrue(e.getMessage().startsWith("input stream:1: "), "not the bulk path: " + e.getMessage());
            }
        } finally {
            bulk.shutDown();
            oneByOne.shutDown();
        }
    }

    /**
     * Data statements: subjects I0 ... I999, objects J0 ... J4999 (rarely shared, so the
     * transitive properties' closure stays small enough for {@link NaiveClosure}): typings, object and
     * literal values, rdf:_n memberships.
     */
    private static List<Statement> data(Random r, int from, int to) {
        List<Statement> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            IRI s = iri("I" + r.nextInt(1_000));
            IRI p = iri("P" + r.nextInt(5));
            IRI object = iri("J" + r.nextInt(5_000));
            switch (r.nextInt(8)) {
            case 0, 1 -> out.add(VF.createStatement(r.nextInt(3) == 0 ? object : s, RDF.TYPE,
                    r.nextInt(4) == 0 ? iri("R" + r.nextInt(3)) : iri("C" + r.nextInt(6))));
            case 2 -> out.add(VF.createStatement(s, p, VF.createLiteral("v" + r.nextInt(50))));
            case 3 -> out.add(VF.createStatement(s, VF.createIRI(RDF.NAMESPACE, "_" + (1 + r.nextInt(3))), object));
            case 4 -> out.add(VF.createStatement(s, OWL.SAMEAS, s));
            default -> out.add(VF.createStatement(s, p, object));
            }
        }
        return out;
    }

    private Path write(List<Statement> statements, String name) throws IOException {
        Path file = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(file)) {
            Rio.write(statements, out, RDFFormat.NTRIPLES);
        }
        return file;
    }

    private static BasaltStoreConfig config(InferenceMode mode) {
        BasaltStoreConfig c = new BasaltStoreConfig();
        c.setDurable(false);
        c.setInference(mode);
        return c;
    }

    private static IRI iri(String local) {
        return VF.createIRI(NS + local);
    }

}
