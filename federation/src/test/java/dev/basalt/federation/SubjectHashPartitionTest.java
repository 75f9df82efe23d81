package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SubjectHashPartitionTest {
    @TempDir
    Path dir;

    @Test
    void theFunctionIsTheDocumentedOneAndStable() {
        // FNV-1a 64 of "" is the offset basis; fmix64 of it, mod 3 and mod 7, fixed forever.
        SubjectHashPartition three = new SubjectHashPartition(3);
        long expected = SubjectHashPartition.fmix64(0xcbf29ce484222325L);
        assertEquals(Long.remainderUnsigned(expected, 3), three.shardOf(""));
        assertEquals(three.shardOf("http://example.org/a"), three.shardOf("http://example.org/a"));
        assertEquals(0, new SubjectHashPartition(1).shardOf("http://example.org/a"));
    }

    @Test
    void subjectsSpreadEvenly() {
        SubjectHashPartition partition = new SubjectHashPartition(3);
        int[] counts = new int[3];
        for (int i = 0; i < 30_000; i++) {
            counts[partition.shardOf("http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/instances/Product" + i)]++;
        }
        for (int c : counts) {
            assertTrue(c > 9_500 && c < 10_500, "uneven split " + java.util.Arrays.toString(counts));
        }
    }

    @Test
    void splitterRoutesEveryLineOfASubjectToOneShardWhateverItsGraph() throws IOException {
        Path nt = dir.resolve("a.nt");
        Files.writeString(nt, """
                # comment
                <http://ex.org/s1> <http://ex.org/p> "one" .
                <http://ex.org/s2> <http://ex.org/p> <http://ex.org/s1> .

                <http://ex.org/s\\u0031> <http://ex.org/q> "escaped subject is s1" .
                _:b7 <http://ex.org/p> "blank" .
                """);
        Path nq = dir.resolve("b.nq");
        Files.writeString(nq, "<http://ex.org/s1> <http://ex.org/p> \"in g\" <http://ex.org/g> .\n");
        SubjectHashPartition partition = new SubjectHashPartition(4);
        ShardSplitter.Split split = new ShardSplitter(partition).split(List.of(nt, nq), dir.resolve("out"));
        assertTrue(split.quads());
        assertEquals(5, split.total());
        String s1Shard = Files.readString(split.files().get(partition.shardOf("http://ex.org/s1")));
        assertTrue(s1Shard.contains("\"one\"") && s1Shard.contains("escaped subject") && s1Shard.contains("\"in g\""),
                s1Shard);
        assertTrue(Files.readString(split.files().get(partition.shardOf("_:b7"))).contains("\"blank\""));
        assertTrue(Files.readString(split.files().get(partition.shardOf("http://ex.org/s2"))).contains("<http://ex.org/s2>"));
    }

    @Test
    void aMalformedLineIsNamedWithFileAndLine() throws IOException {
        Path nt = dir.resolve("bad.nt");
        Files.writeString(nt, "<http://ex.org/s> <http://ex.org/p> \"ok\" .\n\"literal\" <http://ex.org/p> \"x\" .\n");
        IOException e = assertThrows(IOException.class,
                () -> new ShardSplitter(new SubjectHashPartition(2)).split(List.of(nt), dir.resolve("out")));
        assertTrue(e.getMessage().contains(nt + ":2:"), e.getMessage());
    }

    @Test
    void otherFormatsAreRefusedWithAHint() throws IOException {
        Path ttl = dir.resolve("data.ttl");
        Files.writeString(ttl, "");
        IOException e = assertThrows(IOException.class,
                () -> new ShardSplitter(new SubjectHashPartition(2)).split(List.of(ttl), dir.resolve("out")));
        assertTrue(e.getMessage().contains("N-Triples"), e.getMessage());
    }

    @Test
    void ontologySubjectsAndConfiguredClassesGoToEveryShardWithAllTheirStatements() throws IOException {
        Path nt = dir.resolve("onto.nt");
        String owl = "http://www.w3.org/2002/07/owl#";
        String rdfs = "http://www.w3.org/2000/01/rdf-schema#";
        String type = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
        StringBuilder data = new StringBuilder();
        // the label comes before the statement that makes the subject a schema subject: both passes matter
        data.append("<http://ex.org/Student> <" + rdfs + "label> \"student\" .\n");
        data.append("<http://ex.org/Student> <" + rdfs + "subClassOf> <http://ex.org/Person> .\n");
        data.append("<http://ex.org/knows> " + type + " <" + owl + "TransitiveProperty> .\n");
        data.append("_:r <" + owl + "onProperty> <http://ex.org/knows> .\n");
        data.append("<http://ex.org/country1> " + type + " <http://ex.org/Country> .\n");
        data.append("<http://ex.org/country1> <" + rdfs + "label> \"Country 1\" .\n");
        for (int i = 0; i < 40; i++) {
            data.append("<http://ex.org/s" + i + "> " + type + " <http://ex.org/Student> .\n");
        }
        Files.writeString(nt, data);
        SubjectHashPartition partition = new SubjectHashPartition(3);
        ShardSplitter.Split split = new ShardSplitter(partition, ReplicatedVocabulary.with(List.of(),
                List.of("http://ex.org/Country"))).split(List.of(nt), dir.resolve("out"));
        assertEquals(46, split.total());
        assertEquals(6, split.replicated());
        assertEquals(40 + 3 * 6, split.statements()[0] + split.statements()[1] + split.statements()[2]);
        for (Path shard : split.files()) {
            String text = Files.readString(shard);
            for (String expected : List.of("\"student\"", "subClassOf", "TransitiveProperty", "_:r ", "\"Country 1\"",
                    "<http://ex.org/country1> " + type)) {
                assertTrue(text.contains(expected), shard + " lacks " + expected);
            }
        }
        for (int i = 0; i < 40; i++) {
            String line = "<http://ex.org/s" + i + "> ";
            for (int shard = 0; shard < 3; shard++) {
                assertEquals(shard == partition.shardOf("http://ex.org/s" + i),
                        Files.readString(split.files().get(shard)).contains(line), line + " on shard " + shard);
            }
        }
        // without the configured class only the schema is replicated
        ShardSplitter.Split schemaOnly = new ShardSplitter(partition).split(List.of(nt), dir.resolve("out2"));
        assertEquals(4, schemaOnly.replicated());
    }
}
