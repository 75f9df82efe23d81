package dev.basalt.sail.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the command line in this JVM for tests of other packages; returns the exit code. */
public final class CliAccess {
    private CliAccess() {
    }

    public static int run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new BasaltCli(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false).run(args);
        if (code != 0) {
            System.err.print(err.toString(StandardCharsets.UTF_8));
        }
        return code;
    }
}
