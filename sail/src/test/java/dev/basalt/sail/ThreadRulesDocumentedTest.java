package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every top-level type of {@code dev.basalt.sail} and its subpackages states its thread rules in
 * its class comment (a sentence naming threads, thread-safety or immutability).
 */
class ThreadRulesDocumentedTest {
    private static final Path SOURCES = Path.of("src/main/java/dev/basalt/sail");
    /** The class comment: the last javadoc before the first top-level type declaration. */
    private static final Pattern DECLARATION = Pattern.compile(
            "^(?:public |final |abstract |sealed )*(?:class|interface|enum|record) ", Pattern.MULTILINE);
    private static final Pattern RULE = Pattern.compile("thread|immutable", Pattern.CASE_INSENSITIVE);

    @Test
    void everyClassCommentStatesItsThreadRules() throws IOException {
        assertTrue(Files.isDirectory(SOURCES), "run from the sail module directory: " + SOURCES.toAbsolutePath());
        List<Path> files;
        try (Stream<Path> s = Files.walk(SOURCES)) {
            files = s.filter(p -> p.toString().endsWith(".java") && !p.endsWith("package-info.java")).toList();
        }
        assertTrue(files.size() > 50, "found only " + files.size() + " sources under " + SOURCES);
        List<String> missing = new ArrayList<>();
        for (Path f : files) {
            String text = Files.readString(f);
            Matcher m = DECLARATION.matcher(text);
            String before = m.find() ? text.substring(0, m.start()) : "";
            int start = before.lastIndexOf("/**");
            String comment = start < 0 ? "" : before.substring(start);
            if (!RULE.matcher(comment).find()) {
                missing.add(SOURCES.relativize(f).toString());
            }
        }
        assertEquals(List.of(), missing, "class comments without a line on their thread rules");
    }
}
