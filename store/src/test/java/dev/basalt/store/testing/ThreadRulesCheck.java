package dev.basalt.store.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The check behind every module's {@code ThreadRulesDocumentedTest}: each top-level type under a
 * source tree states its thread rules in its class comment, that is a sentence naming threads,
 * thread-safety or immutability ("Immutable; safe to share between threads.", "Not thread-safe:
 * owned by ...", "Thread-safe: ... guarded by ..."). The class comment is the last javadoc before
 * the file's first top-level declaration, so a rule written on a member does not count. Modules use
 * it through store's test-jar rather than copying it.
 *
 * <p>Stateless; any thread may call it.
 */
public final class ThreadRulesCheck {
    /** A top-level declaration: at the start of a line, after modifiers only. */
    private static final Pattern DECLARATION = Pattern.compile(
            "^(?:public |final |abstract |sealed |non-sealed |strictfp )*(?:class|interface|@interface|enum|record) ",
            Pattern.MULTILINE);
    private static final Pattern RULE = Pattern.compile("thread|immutable", Pattern.CASE_INSENSITIVE);

    private ThreadRulesCheck() {
    }

    /**
     * The sources under {@code root} (relative to it, with '/' separators, sorted) whose class
     * comment states no thread rules; {@code package-info.java} files are skipped.
     *
     * @throws IllegalArgumentException if {@code root} is not a directory, or holds fewer than
     *                                  {@code minimumSources} sources (a check run from the wrong
     *                                  directory must not pass by finding nothing)
     */
    public static List<String> undocumented(Path root, int minimumSources) {
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException("no source directory " + root.toAbsolutePath()
                    + "; run the test from its module's directory");
        }
        List<Path> sources;
        try (Stream<Path> s = Files.walk(root)) {
            sources = s.filter(p -> p.toString().endsWith(".java") && !p.endsWith("package-info.java"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the sources under " + root.toAbsolutePath(), e);
        }
        if (sources.size() < minimumSources) {
            throw new IllegalArgumentException("found only " + sources.size() + " sources under "
                    + root.toAbsolutePath() + ", expected at least " + minimumSources);
        }
        List<String> missing = new ArrayList<>();
        for (Path f : sources) {
            if (!RULE.matcher(classComment(f)).find()) {
                missing.add(root.relativize(f).toString().replace('\\', '/'));
            }
        }
        return missing;
    }

    /** The class comment of the source {@code file}, or "" if it has none (or no top-level type). */
    static String classComment(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file.toAbsolutePath(), e);
        }
        Matcher m = DECLARATION.matcher(text);
        if (!m.find()) {
            return "";
        }
        String before = text.substring(0, m.start());
        int start = before.lastIndexOf("/**");
        return start < 0 ? "" : before.substring(start);
    }
}
