package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;

import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The byte-level N-Triples/N-Quads parser against Rio: for random lines of every term shape, each
 * statement's terms get the same inline ids and dictionary keys as Rio's values do on the loader's
 * value path; lines it must not take itself (malformed or unusual) are left to Rio; and a file
 * loaded with and without it gives the same store. Seed: {@code -Dbasalt.seed=N} (printed).
 */
class NTriplesBytesTest {
    private static final long SEED = Long.getLong("basalt.seed", 17);

    @TempDir
    Path tmp;

    private static final String[] IRIS = { "<http://example.org/a>", "<http://example.org/b#x>", "<urn:isbn:0451450523>",
        "<http://例え.jp/パス?q=1#frag>", "<a+b-c.d:x>", "<http://example.org/😀>", "<mailto:x@example.org>" };
    private static final String[] BLANKS = { "_:b1", "_:x", "_:_under", "_:9lives", "_:a-b", "_:ABC" };
    private static final String[] LITERALS = { "\"short\"", "\"\"", "\"seven!!\"", "\"eight!!!\"",
        "\"a longer plain literal that is not inline at all\"", "\"é\"", "\"日本語テキスト\"", "\"emoji 😀 here\"",
        "\"tab\\there\"", "\"quote \\\" and backslash \\\\\"", "\"\\u00e9t\\u00E9\"", "\"\\U0001F600\"",
        "\"line\\nbreak\\r\\b\\f\\'\"", "\"lone \\uD800 surrogate\"", "\"hello\"@en", "\"hello\"@EN", "\"hi\"@de-CH",
        "\"hi\"@zh-Hans", "\"Grüße\"@de", "\"longer text in english here\"@en-US", "\"x\"@x-private",
        "\"esc\\\"aped\"@fr", "\"1\"^^<http://www.w3.org/2001/XMLSchema#integer>",
        "\"01\"^^<http://www.w3.org/2001/XMLSchema#integer>", "\"-42\"^^<http://www.w3.org/2001/XMLSchema#int>",
        "\"99999999999999999999999\"^^<http://www.w3.org/2001/XMLSchema#integer>",
        "\"1.50\"^^<http://www.w3.org/2001/XMLSchema#decimal>", "\"1.5\"^^<http://www.w3.org/2001/XMLSchema#decimal>",
        "\"1.0E0\"^^<http://www.w3.org/2001/XMLSchema#double>", "\"3.25\"^^<http://www.w3.org/2001/XMLSchema#float>",
        "\"true\"^^<http://www.w3.org/2001/XMLSchema#boolean>", "\"1\"^^<http://www.w3.org/2001/XMLSchema#boolean>",
        "\"2008-05-31\"^^<http://www.w3.org/2001/XMLSchema#date>",
        "\"2008-05-31T10:20:30Z\"^^<http://www.w3.org/2001/XMLSchema#dateTime>",
        "\"2008-05-31T10:20:30\"^^<http://www.w3.org/2001/XMLSchema#dateTime>",
        "\"plain\"^^<http://www.w3.org/2001/XMLSchema#string>", "\"p\\u0041\"^^<http://www.w3.org/2001/XMLSchema#string>",
        "\"2008\"^^<http://www.w3.org/2001/XMLSchema#gYear>", "\"abc\"^^<http://example.org/custom>",
        "\"12\"^^<http://example.org/custom>", "\"4484.81\"^^<http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/vocabulary/USD>",
        "\"\\u0031\"^^<http://www.w3.org/2001/XMLSchema#integer>" };

    private static String randomText(Random rnd, int lines, boolean quads) {
        StringBuilder t = new StringBuilder();
        String[] ends = { "\n", "\r\n", "\r" };
        for (int i = 0; i < lines; i++) {
            String space = rnd.nextInt(5) == 0 ? "\t" : rnd.nextInt(5) == 0 ? "  " : " ";
            if (rnd.nextInt(20) == 0) {
                t.append(rnd.nextBoolean() ? "# a comment ✓" : space).append(ends[rnd.nextInt(3)]);
                continue;
            }
            t.append(rnd.nextInt(4) == 0 ? BLANKS[rnd.nextInt(BLANKS.length)] : IRIS[rnd.nextInt(IRIS.length)]);
            t.append(space).append(IRIS[rnd.nextInt(IRIS.length)]).append(space);
            int o = rnd.nextInt(10);
            t.append(o < 6 ? (rnd.nextInt(10) == 0 ? "\"" + "long ".repeat(40 + rnd.nextInt(10)) + "\"" : LITERALS[rnd.nextInt(LITERALS.length)])
                    : o < 8 ? IRIS[rnd.nextInt(IRIS.length)] : BLANKS[rnd.nextInt(BLANKS.length)]);
            if (quads && rnd.nextBoolean()) {
                t.append(space).append(rnd.nextBoolean() ? IRIS[rnd.nextInt(IRIS.length)] : BLANKS[rnd.nextInt(BLANKS.length)]);
            }
            t.append(rnd.nextBoolean() ? " ." : space + ".");
            if (rnd.nextInt(10) == 0) {
                t.append(rnd.nextBoolean() ? " # trailing" : "#x");
            }
            t.append(ends[rnd.nextInt(3)]);
        }
        return t.toString();
    }

    @Test
    void randomLinesGetRiosEncodings() throws Exception {
        System.out.println("NTriplesBytesTest seed " + SEED);
        Random rnd = new Random(SEED);
        for (int round = 0; round < 300; round++) {
            boolean quads = round % 2 == 1;
            Resource target = round % 7 != 0 ? null : LoadTestData.iri(round % 14 == 0 ? "target" : "t".repeat(200));
            String text = randomText(rnd, 1 + rnd.nextInt(60), quads);
            LoadValues values = new LoadValues("genid-test-" + round + "-");
            TermBatch actual = NTriplesBytesTestSupport.bytes(text, quads, values, target);
            assertNotNull(actual, "left to Rio:\n" + text);
            NTriplesBytesTestSupport.assertSameEncodings(NTriplesBytesTestSupport.rio(text, quads, values, target), actual, text);
        }
    }

    @Test
    void everyListedTermGetsRiosEncoding() throws Exception {
        List<String> terms = new ArrayList<>(List.of(LITERALS));
        terms.addAll(List.of(IRIS));
        terms.addAll(List.of(BLANKS));
        for (String o : terms) {
            String text = "<http://example.org/s> <http://example.org/p> " + o + " .\n";
            LoadValues values = new LoadValues("genid-one-");
            TermBatch actual = NTriplesBytesTestSupport.bytes(text, false, values, null);
            assertNotNull(actual, "left to Rio: " + text);
            NTriplesBytesTestSupport.assertSameEncodings(NTriplesBytesTestSupport.rio(text, false, values, null), actual, text);
        }
    }

    /** Lines the byte parser leaves to Rio: malformed (Rio fails on them) or valid but unusual. */
    @ParameterizedTest
    @ValueSource(strings = {
        // malformed: Rio reports these
        "<http://example.org/s> <http://example.org/p> \"unterminated .",
        "<http://example.org/s> <http://example.org/p> <http://example.org/o>",
        "<http://example.org/s> <http://example.org/p> <http://example.org/o> . extra",
        "<relative> <http://example.org/p> <http://example.org/o> .",
        "<http://example.org/a b> <http://example.org/p> <http://example.org/o> .",
        "<http://example.org/s> <http://example.org/p> \"bad \\a escape\" .",
        "<http://example.org/s> <http://example.org/p> \"bad \\u12G4 escape\" .",
        "<http://example.org/s> <http://example.org/p> \"x\"@ .",
        "<http://example.org/s> <http://example.org/p> \"x\"@1en .",
        "<http://example.org/s> <http://example.org/p> \"x\"^^<relative> .",
        "<http://example.org/s> \"literal predicate\" <http://example.org/o> .",
        "\"literal subject\" <http://example.org/p> <http://example.org/o> .",
        "_:b1 <http://example.org/p> <http://example.org/o> <http://example.org/g> .",
        "<http://example.org/s> <http://example.org/p> <http://example.org/{x}> .",
        "_: <http://example.org/p> <http://example.org/o> .",
        "<http://example.org/s> <http://example.org/p> <http://example.org/o> ;",
        // valid, left to Rio
        "<http://example.org/s> <http://example.org/p> _:b1.",
        "_:a.b <http://example.org/p> <http://example.org/o> .",
        "<http://example.org/\\u0041> <http://example.org/p> <http://example.org/o> .",
        "<< <http://example.org/s> <http://example.org/p> <http://example.org/o> >> <http://example.org/p> \"x\" .",
        "\uFEFF<http://example.org/s> <http://example.org/p> <http://example.org/o> .",
    })
    void leavesToRio(String line) {
        assertNull(NTriplesBytesTestSupport.bytes(line + "\n", false, new LoadValues("genid-x-"), null), line);
    }

    @Test
    void badUtf8IsLeftToRio() {
        byte[] head = "<http://example.org/s> <http://example.org/p> \"".getBytes(StandardCharsets.US_ASCII);
        byte[][] bad = { { (byte) 0xC0, (byte) 0x80 }, { (byte) 0xED, (byte) 0xA0, (byte) 0x80 }, { (byte) 0xFF },
            { (byte) 0xE2, (byte) 0x82 }, { (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80 } };
        for (byte[] seq : bad) {
            byte[] line = new byte[head.length + seq.length + 4];
            System.arraycopy(head, 0, line, 0, head.length);
            System.arraycopy(seq, 0, line, head.length, seq.length);
            System.arraycopy("\" .\n".getBytes(StandardCharsets.US_ASCII), 0, line, head.length + seq.length, 4);
            assertNull(new NTriplesBytes(false, null, new LoadValues("g-")).parse(line, line.length));
        }
    }

    @Test
    void aMalformedLineStillNamesItsLine() throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            text.append(i == 2500 ? "<http://example.org/s> <http://example.org/p> \"bad \\a escape\" .\n"
                    : "<http://example.org/s" + i + "> <http://example.org/p> \"v" + i + "\" .\n");
        }
        Path file = Files.writeString(tmp.resolve("bad.nt"), text);
        LoadException e = assertThrows(LoadException.class, () -> BasaltLoader.load(tmp.resolve("s"), List.of(file),
                LoadOptions.defaults().withConfig(LoadTestData.config()).withChunkBytes(4096).withProgress((s, b, t, x) -> { })));
        assertEquals(2501, e.line(), e.getMessage());
    }

    /** The same files loaded with and without the byte parser give the same statements and dictionary. */
    @Test
    void storesAreTheSameWithAndWithoutTheByteParser() throws Exception {
        Random rnd = new Random(SEED);
        List<Path> files = List.of(Files.writeString(tmp.resolve("r.nt"), randomText(rnd, 4000, false)),
                Files.writeString(tmp.resolve("r.nq"), randomText(rnd, 4000, true)),
                LoadTestData.write(LoadTestData.model(SEED, 3000, false, false), tmp.resolve("m.nt"), RDFFormat.NTRIPLES),
                LoadTestData.write(LoadTestData.model(SEED + 1, 3000, true, false), tmp.resolve("m.nq"), RDFFormat.NQUADS));
        LoadOptions options = LoadOptions.defaults().withConfig(LoadTestData.config()).withChunkBytes(8192)
                .withBatchStatements(1).withProgress((s, b, t, e) -> { });
        LoadResult withBytes = BasaltLoader.load(tmp.resolve("bytes"), files, options);
        LoadResult withRio = BasaltLoader.load(tmp.resolve("rio"), files, options.withByteParser(false));
        assertEquals(withRio.statementsRead(), withBytes.statementsRead());
        assertEquals(withRio.statementsAdded(), withBytes.statementsAdded());
        assertEquals(withRio.termsAdded(), withBytes.termsAdded());
        SailRepository a = LoadTestData.open(tmp.resolve("bytes"));
        SailRepository b = LoadTestData.open(tmp.resolve("rio"));
        try {
            List<Statement> sa = LoadTestData.statements(a);
            List<Statement> sb = LoadTestData.statements(b);
            assertEquals(sb.size(), sa.size());
            assertTrue(sa.size() > 10_000, "statements: " + sa.size());
            // blank node ids differ per load (a random scope); compare with them replaced by their labels' tails
            assertEquals(new HashSet<>(canonical(sb)), new HashSet<>(canonical(sa)));
        } finally {
            a.shutDown();
            b.shutDown();
        }
    }

    private static List<String> canonical(List<Statement> statements) {
        List<String> out = new ArrayList<>();
        for (Statement st : statements) {
            out.add((st.getSubject() + " " + st.getPredicate() + " " + st.getObject() + " " + st.getContext())
                    .replaceAll("_:genid-[0-9a-f]+-", "_:"));
        }
        return out;
    }
}
