package dev.basalt.sail.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: load, stats, verify, compact, exit codes and one-line errors. */
class BasaltCliTest {
    @TempDir
    Path tmp;

    private String out;
    private String err;

    private int run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int code = new BasaltCli(new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8), false).run(args);
        out = o.toString(StandardCharsets.UTF_8);
        err = e.toString(StandardCharsets.UTF_8);
        return code;
    }

    @Test
    void loadThenStatsAndVerify() throws Exception {
        Path nt = Files.writeString(tmp.resolve("a.nt"), """
                <http://ex.org/a> <http://ex.org/p> "text" .
                <http://ex.org/a> <http://ex.org/q> _:b .
                _:b <http://ex.org/p> "3"^^<http://www.w3.org/2001/XMLSchema#integer> .
                """);
        Path ttl = Files.writeString(tmp.resolve("b.data"), "@prefix ex: <http://ex.org/> . ex:c ex:p ex:d .\n");
        String store = tmp.resolve("s").toString();
        assertEquals(0, run("load", "--store", store, nt.toString()), err);
        assertTrue(out.contains("loaded 3 statements (3 new"), out);
        assertEquals(0, run("load", "--store", store, "--format", "turtle", "--context", "http://ex.org/g", ttl.toString()), err);
        assertEquals(0, run("stats", "--store", store), err);
        assertTrue(out.contains("statements       4 (explicit 4, inferred 0)"), out);
        assertTrue(out.contains("terms            7 (IRIs 6, literals 0, blank nodes 1, triple terms 0"), out);
        assertTrue(out.contains("commit           2 at"), out);
        assertTrue(out.contains("open readers     0"), out);
        assertTrue(out.contains("pinned bytes     0"), out);
        assertTrue(out.matches("(?s).*bytes/triple     \\d+\\.\\d.*"), out);
        assertEquals(0, run("verify", "--store", store), err);
        assertTrue(out.contains("every statement index order holds the same quads"), out);

        String stats = statsWithoutCommitAndSizes(store);
        assertEquals(0, run("compact", "--store", store), err);
        assertTrue(out.startsWith("compacted commit 2: "), out);
        assertEquals(stats, statsWithoutCommitAndSizes(store), "compaction keeps every statement and term");
        assertEquals(0, run("verify", "--store", store), err);
        assertEquals(2, run("compact", "--store", tmp.resolve("none").toString()));
        assertTrue(err.startsWith("basalt: no Basalt store in"), err);
    }

    /** The stats lines that compaction must not change (commit number, history and byte counts may). */
    private String statsWithoutCommitAndSizes(String store) {
        assertEquals(0, run("stats", "--store", store), err);
        return out.lines().filter(l -> l.startsWith("statements") || l.startsWith("terms") || l.startsWith("indexes"))
                .reduce("", (a, b) -> a + b + "\n");
    }

    /** Runs the command line with {@code input} as standard input. */
    private int runWithInput(String input, String... args) {
        java.io.InputStream saved = System.in;
        System.setIn(new java.io.ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
        try {
            return run(args);
        } finally {
            System.setIn(saved);
        }
    }

    @Test
    void loadReadsStandardInputForDash() throws Exception {
        String store = tmp.resolve("s").toString();
        StringBuilder nt = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            nt.append("<http://ex.org/s").append(i).append("> <http://ex.org/p> \"value ").append(i).append("\" .\n");
        }
        assertEquals(0, runWithInput(nt.toString(), "load", "--store", store, "-"), err);
        assertTrue(out.contains("loaded 5,000 statements (5,000 new"), out);
        String quads = "<http://ex.org/a> <http://ex.org/p> <http://ex.org/b> <http://ex.org/g> .\n";
        assertEquals(0, runWithInput(quads, "load", "--store", store, "--format", "nq", "-"), err);
        assertEquals(0, run("stats", "--store", store), err);
        assertTrue(out.contains("statements       5,001 (explicit 5,001, inferred 0)"), out);

        String bad = "<http://ex.org/a> <http://ex.org/p> <http://ex.org/c> .\n<http://ex.org/a> <http://ex.org/p> \"open .\n";
        assertEquals(2, runWithInput(bad, "load", "--store", store, "-"));
        assertTrue(err.contains("standard input") && err.contains("2"), err);
        assertEquals(0, run("stats", "--store", store), err);
        assertTrue(out.contains("statements       5,001 (explicit 5,001, inferred 0)"), "the store is unchanged: " + out);

        assertEquals(2, runWithInput("", "load", "--store", store, "--format", "turtle", "-"));
        assertTrue(err.contains("standard input is read as N-Triples or N-Quads"), err);
    }

    @Test
    void loadWithInferenceKeepsTheClosure() throws Exception {
        Path schema = Files.writeString(tmp.resolve("schema.nt"), """
                <http://ex.org/B> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <http://ex.org/C> .
                <http://ex.org/C> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <http://ex.org/D> .
                """);
        Path data = Files.writeString(tmp.resolve("data.nt"),
                "<http://ex.org/a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://ex.org/B> .\n");
        String store = tmp.resolve("s").toString();
        assertEquals(0, run("load", "--store", store, "--inference", "rdfs", schema.toString()), err);
        assertEquals(0, run("stats", "--store", store), err);
        // 154 inferred: B subClassOf D, the typings and reflexive axioms of B, C, D and the RDF/RDFS axioms
        assertTrue(out.contains("statements       156 (explicit 2, inferred 154)"), out);
        // a later load without --inference keeps the rule set recorded in the store
        assertEquals(0, run("load", "--store", store, data.toString()), err);
        assertEquals(0, run("stats", "--store", store), err);
        // a a C, a a D, a a rdfs:Resource
        assertTrue(out.contains("statements       160 (explicit 3, inferred 157)"), out);
        assertEquals(0, run("verify", "--store", store), err);
        assertEquals(1, run("load", "--store", store, "--inference", "owl-dl", data.toString()));
        assertTrue(err.contains("none, rdfs or owl-rl"), err);
    }

    @Test
    void usageAndFailureExitCodes() throws Exception {
        assertEquals(1, run());
        assertEquals(1, run("load", "--store", tmp.toString()));
        assertEquals(1, run("frobnicate", "--store", tmp.toString()));
        assertEquals(1, run("stats"));
        assertEquals(2, run("stats", "--store", tmp.resolve("none").toString()));
        assertTrue(err.startsWith("basalt: no Basalt store in"), err);
        Path bad = Files.writeString(tmp.resolve("bad.nt"), "<http://ex.org/a> <http://ex.org/p> \"ok\" .\n<http://ex.org/a> oops .\n");
        assertEquals(2, run("load", "--store", tmp.resolve("s").toString(), bad.toString()));
        assertTrue(err.startsWith("basalt: " + bad + ":2: "), err);
        assertEquals(1, err.strip().lines().count(), err);
    }
}
