package dev.basalt.sail.load;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;

/** Generated RDF in every format the loader reads, and helpers to compare stores. */
final class LoadTestData {
    static final ValueFactory VF = SimpleValueFactory.getInstance();
    static final String NS = "http://example.org/";

    private LoadTestData() {
    }

    static IRI iri(String local) {
        return VF.createIRI(NS + local);
    }

    /** A varied model: every literal kind, blank nodes, a large literal; graphs if {@code quads}, triple terms if {@code star}. */
    static Model model(long seed, int statements, boolean quads, boolean star) {
        Random rnd = new Random(seed);
        Model m = new LinkedHashModel();
        m.setNamespace("ex", NS);
        m.setNamespace("xsd", XSD.NAMESPACE);
        List<BNode> bnodes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            bnodes.add(VF.createBNode("n" + seed + "x" + i));
        }
        IRI[] predicates = { iri("name"), iri("size"), iri("knows"), RDF.TYPE, iri("price"), iri("date"), iri("note") };
        for (int i = 0; i < statements; i++) {
            Resource s = rnd.nextInt(8) == 0 ? bnodes.get(rnd.nextInt(bnodes.size())) : iri("s" + rnd.nextInt(statements / 3 + 1));
            IRI p = predicates[rnd.nextInt(predicates.length)];
            Value o = object(rnd, i, bnodes);
            Resource c = quads && rnd.nextBoolean() ? iri("g" + rnd.nextInt(4)) : null;
            m.add(VF.createStatement(s, p, o, c));
        }
        m.add(iri("big"), iri("text"), VF.createLiteral("large ".repeat(600) + seed));
        m.add(iri("big"), iri("text"), VF.createLiteral("große Zeichenkette ✓ ".repeat(120), "de"));
        if (star) {
            for (int i = 0; i < 30; i++) {
                m.add(VF.createTriple(iri("s" + i), iri("knows"), iri("s" + (i + 1))), iri("certainty"),
                        VF.createLiteral(0.5 + i / 100.0));
                m.add(iri("claim" + i), iri("about"), VF.createTriple(iri("s" + i), iri("age"), VF.createLiteral(i)));
            }
        }
        return m;
    }

    private static Value object(Random rnd, int i, List<BNode> bnodes) {
        return switch (rnd.nextInt(14)) {
            case 0 -> VF.createLiteral("short");
            case 1 -> VF.createLiteral("a longer plain literal number " + rnd.nextInt(1000));
            case 2 -> VF.createLiteral("hello " + rnd.nextInt(50), rnd.nextBoolean() ? "en" : "fr-BE");
            case 3 -> VF.createLiteral(rnd.nextInt(2_000_000) - 1_000_000);
            case 4 -> VF.createLiteral(BigInteger.valueOf(rnd.nextLong()).multiply(BigInteger.valueOf(1L << 40)));
            case 5 -> VF.createLiteral(new BigDecimal(BigInteger.valueOf(rnd.nextInt(100000)), rnd.nextInt(5)));
            case 6 -> VF.createLiteral(rnd.nextDouble() * 1e6);
            case 7 -> VF.createLiteral(rnd.nextBoolean());
            case 8 -> VF.createLiteral("2024-0" + (1 + rnd.nextInt(9)) + "-1" + rnd.nextInt(10), XSD.DATE);
            case 9 -> VF.createLiteral("2021-03-0" + (1 + rnd.nextInt(9)) + "T10:1" + rnd.nextInt(10) + ":00Z", XSD.DATETIME);
            case 10 -> VF.createLiteral("custom-" + rnd.nextInt(30), iri("customType"));
            case 11 -> bnodes.get(rnd.nextInt(bnodes.size()));
            case 12 -> VF.createLiteral("x".repeat(200 + rnd.nextInt(2000)) + i);
            default -> iri("o" + rnd.nextInt(500));
        };
    }

    /** Writes {@code m} to {@code file} in {@code format}, gzip-compressed if the name ends in .gz. */
    static Path write(Model m, Path file, RDFFormat format) throws IOException {
        try (OutputStream raw = Files.newOutputStream(file);
             OutputStream out = file.toString().endsWith(".gz") ? new GZIPOutputStream(raw)
                     : file.toString().endsWith(".bz2")
                             ? new org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream(raw) : raw) {
            Rio.write(m, out, format);
        }
        return file;
    }

    /** One file per format (and three gzip ones and a bzip2 one) in {@code dir}. */
    static List<Path> mixedFiles(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(write(model(1, 800, false, false), dir.resolve("a.nt"), RDFFormat.NTRIPLES));
        files.add(write(model(2, 800, true, false), dir.resolve("b.nq.gz"), RDFFormat.NQUADS));
        files.add(write(model(3, 800, false, false), dir.resolve("c.ttl"), RDFFormat.TURTLE));
        files.add(write(model(4, 800, true, false), dir.resolve("d.trig"), RDFFormat.TRIG));
        files.add(write(model(5, 500, false, false), dir.resolve("e.rdf"), RDFFormat.RDFXML));
        files.add(write(model(6, 500, true, false), dir.resolve("f.jsonld"), RDFFormat.JSONLD));
        files.add(write(model(7, 300, false, true), dir.resolve("g.ttls"), RDFFormat.TURTLESTAR));
        files.add(write(model(8, 300, true, true), dir.resolve("h.trigs.gz"), RDFFormat.TRIGSTAR));
        // overlaps with a.nt: duplicate statements across files
        files.add(write(model(1, 400, false, false), dir.resolve("i.nt.gz"), RDFFormat.NTRIPLES));
        files.add(write(model(9, 600, true, false), dir.resolve("j.nq.bz2"), RDFFormat.NQUADS));
        return files;
    }

    static BasaltStoreConfig config() {
        BasaltStoreConfig c = new BasaltStoreConfig();
        c.setDurable(false);
        return c;
    }

    static SailRepository open(Path dir) {
        SailRepository repo = new SailRepository(new BasaltStore(dir.toFile(), config()));
        repo.init();
        return repo;
    }

    /** Adds files through a repository connection, one transaction, as an application would. */
    static void addThroughRepository(Path dir, List<Path> files, Resource... contexts) throws IOException {
        SailRepository repo = open(dir);
        try (RepositoryConnection c = repo.getConnection()) {
            c.begin();
            for (Path f : files) {
                try (java.io.InputStream in = InputFiles.open(f, new java.util.concurrent.atomic.AtomicLong())) {
                    c.add(in, f.toFile().toURI().toString(), InputFiles.format(f, null), contexts);
                }
            }
            c.commit();
        } finally {
            repo.shutDown();
        }
    }

    static List<Statement> statements(SailRepository repo) {
        try (RepositoryConnection c = repo.getConnection()) {
            return c.getStatements(null, null, null, false).stream().toList();
        }
    }

    /** An order-independent checksum of every explicit statement. */
    static long checksum(SailRepository repo) {
        long sum = 0;
        for (Statement st : statements(repo)) {
            long h = st.hashCode() * 0x9E3779B97F4A7C15L + (st.getContext() == null ? 0 : st.getContext().hashCode());
            sum += h ^ (h >>> 29);
        }
        return sum;
    }
}
