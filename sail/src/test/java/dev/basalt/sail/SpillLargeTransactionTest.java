package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The requirement itself: a transaction of 5,000,000 statements commits in a JVM with -Xmx1g.
 * Runs {@link LargeTransaction} in a child JVM (surefire cannot give one test its own heap) and
 * checks that it reports success. Takes minutes: tagged {@code long}.
 */
@Tag("long")
class SpillLargeTransactionTest {
    @TempDir
    File dir;

    @Test
    void fiveMillionStatementsInOneTransactionUnderOneGigabyteOfHeap() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path out = dir.toPath().resolve("child.out");
        Process p = new ProcessBuilder(List.of(java, "-Xmx1g", "-XX:+UseParallelGC", "-cp",
                System.getProperty("java.class.path"), LargeTransaction.class.getName(),
                new File(dir, "store").getPath(), "5000000"))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.MINUTES), "the child JVM finished within an hour");
        String output = Files.readString(out, StandardCharsets.UTF_8);
        System.out.println(output.lines().filter(l -> l.startsWith("OK") || l.startsWith("FAILED")).findFirst().orElse(output));
        assertEquals(0, p.exitValue(), output);
        assertTrue(output.contains("OK statements=5000000"), output);
    }
}
