package dev.basalt.sail.load;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Starts a class of the test classpath's main method in a fresh JVM, for crash tests (as store's tests do). */
public final class ChildProcess {
    private ChildProcess() {
    }

    public static Process start(Class<?> main, String... args) throws IOException {
        String java = ProcessHandle.current().info().command().orElse(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx384m", "-XX:+UseSerialGC", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(Arrays.asList(args));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
