package dev.basalt.sail.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the command line in this JVM for tests of other packages; returns the exit code. */
public final class CliAccess {
    private CliAccess() {
    }

    public static int run(String... args) {
        Outcome outcome = runCapturingErrors(args);
        if (outcome.code() != 0) {
            System.err.print(outcome.err());
        }
        return outcome.code();
    }

    /** A command's exit code and what it wrote to its error stream. */
    public record Outcome(int code, String err) {
    }

    /** Runs the command line in this JVM and returns its exit code and error output. */
    public static Outcome runCapturingErrors(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new BasaltCli(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false).run(args);
        return new Outcome(code, err.toString(StandardCharsets.UTF_8));
    }
}
