package dev.basalt.sail.repository;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.zip.GZIPOutputStream;

import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.util.Models;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.RepositoryResult;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.rio.helpers.BasicParserSettings;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * {@code BasaltRepository}'s bulk add of N-Triples and N-Quads (the loader's pipeline inside the
 * connection's transaction): the same statements as RDF4J's parser gives (checked against a
 * MemoryStore), into empty and non-empty stores, at every isolation level, committed or rolled
 * back with an explicit transaction, and malformed input naming its line and changing nothing.
 */
class BulkAddTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String EX = "http://example.org/";

    @TempDir
    Path dir;
    private BasaltRepository repo;

    @BeforeEach
    void open() {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        repo = new BasaltRepository(new BasaltStore(dir.resolve("store").toFile(), config));
        repo.init();
    }

    @AfterEach
    void close() {
        repo.shutDown();
    }

    /** Lines of N-Quads: literals of several kinds, blank nodes, the default and a named graph. */
    static String quads(int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < to; i++) {
            b.append("<" + EX + "s" + i + "> <" + EX + "p> \"v" + i + "\" .\n");
            b.append("<" + EX + "s" + i + "> <" + EX + "n> \"" + i + "\"^^<http://www.w3.org/2001/XMLSchema#integer> <"
                    + EX + "g> .\n");
            b.append("_:b" + i + " <" + EX + "label> \"l\\u00e9 " + i + "\"@fr .\n");
            b.append("<" + EX + "s" + i + "> <" + EX + "knows> _:b" + i + " .\n");
        }
        return b.toString();
    }

    static InputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The statements with blank nodes replaced by a canonical mapping, compared by graph isomorphism. */
    private static Model dump(org.eclipse.rdf4j.repository.Repository r) {
        try (RepositoryConnection c = r.getConnection(); RepositoryResult<Statement> all = c.getStatements(null, null, null, false)) {
            Model m = new org.eclipse.rdf4j.model.impl.LinkedHashModel();
            all.forEach(m::add);
            return m;
        }
    }

    /** What RDF4J's parser and MemoryStore make of the inputs, each added on its own (blank nodes are per add). */
    private static Model expected(String... inputs) throws IOException {
        SailRepository memory = new SailRepository(new MemoryStore());
        memory.init();
        try (RepositoryConnection c = memory.getConnection()) {
            for (String nquads : inputs) {
                c.add(stream(nquads), EX, RDFFormat.NQUADS);
            }
        }
        Model m = dump(memory);
        memory.shutDown();
        return m;
    }

    @Test
    void addsWhatRdf4jsParserGivesIntoEmptyAndNonEmptyStore() throws Exception {
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(stream(quads(0, 300)), EX, RDFFormat.NQUADS);
            assertEquals(1200, c.size());
            // overlapping second input: merged into the non-empty indices, duplicates skipped
            c.add(stream(quads(200, 500)), EX, RDFFormat.NQUADS);
        }
        Model want = expected(quads(0, 300), quads(200, 500));
        assertTrue(Models.isomorphic(want, dump(repo)), "same statements as RDF4J's parser and MemoryStore");
        try (RepositoryConnection c = repo.getConnection()) {
            assertEquals("v250", c.prepareTupleQuery("SELECT ?v WHERE { <" + EX + "s250> <" + EX + "p> ?v }")
                    .evaluate().next().getValue("v").stringValue());
            assertEquals(500, c.size(VF.createIRI(EX + "g")));
        }
    }

    @Test
    void putsStatementsIntoTheGivenContextAndReadsGzip() throws Exception {
        IRI graph = VF.createIRI(EX + "upload");
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(quads(0, 50).getBytes(StandardCharsets.UTF_8));
        }
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(new ByteArrayInputStream(gz.toByteArray()), EX, RDFFormat.NQUADS, graph);
            assertEquals(200, c.size(graph));
            assertEquals(200, c.size());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "NONE", "READ_COMMITTED", "SNAPSHOT_READ", "SNAPSHOT", "SERIALIZABLE" })
    void isPartOfAnExplicitTransaction(String levelName) throws Exception {
        IsolationLevel level = IsolationLevels.valueOf(levelName);
        IRI s = VF.createIRI(EX + "before");
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(s, RDFS_LABEL, VF.createLiteral("committed"));
            c.begin(level);
            c.add(s, RDFS_LABEL, VF.createLiteral("pending"));
            c.add(stream(quads(0, 100)), EX, RDFFormat.NQUADS);
            c.add(VF.createIRI(EX + "after"), RDFS_LABEL, VF.createLiteral("after"));
            if (level != IsolationLevels.NONE) {
                c.rollback();
                assertEquals(1, c.size(), "rolled back with the transaction at " + level);
                c.begin(level);
                c.add(s, RDFS_LABEL, VF.createLiteral("pending"));
                c.add(stream(quads(0, 100)), EX, RDFFormat.NQUADS);
                c.add(VF.createIRI(EX + "after"), RDFS_LABEL, VF.createLiteral("after"));
            }
            c.commit();
            assertEquals(1 + 1 + 400 + 1, c.size());
        }
    }

    private static final IRI RDFS_LABEL = org.eclipse.rdf4j.model.vocabulary.RDFS.LABEL;

    @Test
    void replacesAfterAClearInTheSameTransaction() throws Exception {
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(stream(quads(0, 100)), EX, RDFFormat.NQUADS);
            // what RDF4J Server's PUT /statements does: clear, add, commit
            c.begin();
            c.clear();
            c.add(stream(quads(500, 510)), EX, RDFFormat.NQUADS);
            c.commit();
            assertEquals(40, c.size());
            assertFalse(c.hasStatement(VF.createIRI(EX + "s1"), null, null, false), "cleared before the add");
        }
        assertTrue(Models.isomorphic(expected(quads(500, 510)), dump(repo)));
    }

    @Test
    void malformedLineFailsWithItsNumberAndChangesNothing() throws Exception {
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(stream(quads(0, 10)), EX, RDFFormat.NQUADS);
        }
        Model before = dump(repo);
        String bad = quads(10, 5000) + "<" + EX + "x> <" + EX + "p> .\n" + quads(5000, 5010);
        int badLine = 4 * 4990 + 1;
        try (RepositoryConnection c = repo.getConnection()) {
            RDFParseException e = assertThrows(RDFParseException.class,
                    () -> c.add(stream(bad), EX, RDFFormat.NQUADS));
            assertTrue(e.getMessage().startsWith("input stream:" + badLine + ": malformed N-Quads"), e.getMessage());
            assertEquals(badLine, e.getLineNumber());
        }
        assertEquals(before, dump(repo), "autocommit: the store is unchanged");
        try (RepositoryConnection c = repo.getConnection()) {
            c.begin();
            assertThrows(RDFParseException.class, () -> c.add(stream(bad), EX, RDFFormat.NQUADS));
            assertThrows(org.eclipse.rdf4j.repository.RepositoryException.class, c::commit,
                    "a transaction whose bulk add failed cannot commit");
            c.rollback();
        }
        assertEquals(before, dump(repo), "explicit transaction: the store is unchanged");
    }

    @Test
    void takesTheBulkPathWithRdf4jServersParserSettingsOnly() {
        String bad = "<" + EX + "a> <" + EX + "p> \"x\" .\n<" + EX + "a> <" + EX + "p> .\n";
        try (RepositoryConnection c = repo.getConnection()) {
            // what RDF4J Server sets on every connection: still the bulk path
            c.getParserConfig().addNonFatalError(BasicParserSettings.VERIFY_DATATYPE_VALUES);
            c.getParserConfig().addNonFatalError(BasicParserSettings.VERIFY_LANGUAGE_TAGS);
            RDFParseException bulk = assertThrows(RDFParseException.class, () -> c.add(stream(bad), EX, RDFFormat.NTRIPLES));
            assertTrue(bulk.getMessage().startsWith("input stream:2: "), bulk.getMessage());
            // preserveNodeId: RDF4J's parser, which keeps blank node labels
            c.getParserConfig().set(BasicParserSettings.PRESERVE_BNODE_IDS, true);
            RDFParseException rio = assertThrows(RDFParseException.class, () -> c.add(stream(bad), EX, RDFFormat.NTRIPLES));
            assertFalse(rio.getMessage().startsWith("input:"), rio.getMessage());
            assertEquals(0, c.size());
        }
    }

    @Test
    void addsFilesAndKeepsNamespacesOfOtherFormatsToRio() throws Exception {
        Path nt = dir.resolve("data.nt");
        Files.writeString(nt, quads(0, 20).replace(" <" + EX + "g> .", " ."));
        Path ttl = dir.resolve("data.ttl");
        Files.writeString(ttl, "@prefix ex: <" + EX + "> .\nex:a ex:b ex:c .\n");
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(nt.toFile());
            c.add(ttl.toFile());
            assertEquals(81, c.size());
            assertEquals(EX, c.getNamespace("ex"));
        }
        Set<Statement> fromFile = new HashSet<>(Rio.parse(Files.newInputStream(ttl), EX, RDFFormat.TURTLE));
        assertEquals(1, fromFile.size());
    }

    /**
     * A load given a blank node scope makes the same blank nodes in any store (the replicas of one
     * replicated upload), and again in the same store; loads without one make new nodes each time.
     */
    @Test
    void aGivenBlankNodeScopeMakesTheSameNodesEveryTime() {
        byte[] text = quads(0, 50).getBytes(StandardCharsets.UTF_8);
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        BasaltRepository other = new BasaltRepository(new BasaltStore(dir.resolve("other").toFile(), config));
        other.init();
        try {
            scopedLoad(repo, text, "r1");
            scopedLoad(other, text, "r1");
            Set<Statement> here = all(repo);
            assertEquals(here, all(other));
            scopedLoad(repo, text, "r1");
            assertEquals(here, all(repo), "the same scope again adds nothing new");
            scopedLoad(repo, text, null);
            scopedLoad(repo, text, null);
            assertEquals(here.size() + 2 * 100, all(repo).size(), "each unscoped load: 50 new nodes, two statements each");
        } finally {
            other.shutDown();
        }
    }

    private void scopedLoad(BasaltRepository target, byte[] text, String scope) {
        try (org.eclipse.rdf4j.sail.SailConnection c = target.getSail().getConnection()) {
            c.begin();
            dev.basalt.sail.load.TransactionLoad load = dev.basalt.sail.load.TransactionLoad.ofStream("test",
                    new ByteArrayInputStream(text), RDFFormat.NQUADS, null, null, Set.of(), dir);
            assertTrue(((dev.basalt.sail.BasaltStoreConnection) c).addBulk(scope == null ? load
                    : load.withBlankNodeScope(scope)));
            c.commit();
        }
    }

    private static Set<Statement> all(BasaltRepository target) {
        try (RepositoryConnection c = target.getConnection()) {
            Set<Statement> out = new HashSet<>();
            c.getStatements(null, null, null, false).forEach(out::add);
            return out;
        }
    }
}
