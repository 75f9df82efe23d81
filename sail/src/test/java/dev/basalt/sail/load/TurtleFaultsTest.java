package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Turtle read by one Rio parser: an input that ends inside a statement is named at its last line
 * with text (Rio names no line there), bytes that are not UTF-8 are refused at their line and
 * column (Rio's own reader would replace them), also through gzip; a byte order mark still loads.
 */
class TurtleFaultsTest {
    private static final String GOOD = "@prefix ex: <http://example.org/> .\nex:a ex:p \"one\" .\n";

    @TempDir
    Path tmp;

    private LoadException loadFails(Path file) {
        return assertThrows(LoadException.class, () -> BasaltLoader.load(tmp.resolve("store"), List.of(file),
                LoadOptions.defaults().withConfig(LoadTestData.config()).withProgress((s, b, t, e) -> { })));
    }

    @Test
    void inputEndingInsideAStatementIsNamedAtItsLastLineWithText() throws IOException {
        Path file = Files.writeString(tmp.resolve("cut.ttl"), GOOD + "ex:b ex:p \"two\" .\nex:c ex:p ex:d\n\n  \n");
        LoadException e = loadFails(file);
        assertEquals(4, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith(file + ":4: malformed Turtle: Unexpected end of file: the input ends "
                + "inside a statement"), e.getMessage());
    }

    @Test
    void bytesThatAreNotUtf8AreNamedAtTheirLineAndColumn() throws IOException {
        byte[] bytes = bad();
        Path file = Files.write(tmp.resolve("latin1.ttl"), bytes);
        LoadException e = loadFails(file);
        assertEquals(3, e.line(), e.getMessage());
        assertEquals(file + ":3: malformed Turtle at column 15: invalid UTF-8 byte sequence 0xE9: the input must be UTF-8",
                e.getMessage());

        Path gz = tmp.resolve("latin1.ttl.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(bytes);
        }
        assertTrue(loadFails(gz).getMessage().startsWith(gz + ":3: malformed Turtle at column 15: invalid UTF-8"));
    }

    /** Good Turtle, then {@code ex:b ex:p "caf\xE9" .} on line 3: é in ISO-8859-1. */
    private static byte[] bad() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(GOOD.getBytes(StandardCharsets.UTF_8));
        b.writeBytes("ex:b ex:p \"caf\u00e9\" .\n".getBytes(StandardCharsets.ISO_8859_1));
        return b.toByteArray();
    }

    @Test
    void byteOrderMarkIsSkipped() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(new byte[] { (byte) 0xEF, (byte) 0xBB, (byte) 0xBF });
        b.writeBytes((GOOD + "ex:b ex:p \"caf\u00e9\" .\n").getBytes(StandardCharsets.UTF_8));
        Path file = Files.write(tmp.resolve("bom.ttl"), b.toByteArray());
        LoadResult r = BasaltLoader.load(tmp.resolve("store"), List.of(file),
                LoadOptions.defaults().withConfig(LoadTestData.config()).withProgress((s, by, t, e) -> { }));
        assertEquals(2, r.statementsRead());
    }
}
