package dev.basalt.workbench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JVM options the launcher runs with when its user did not set them, measured to cut the server CPU
 * the first queries after a start cost (docs/benchmarks-coldstart.md):
 * <ul>
 * <li>{@link #COMPILER_OPTIONS}, less inlining by the C2 compiler (smaller compilations: the JIT's
 * threads spent about half of the server's CPU over the first 10,000 queries), each unless the user set
 * that option;
 * <li>on Java {@value #FIRST_AOT_RELEASE} and later, the ahead-of-time cache {@value #CACHE_FILE} beside the
 * launcher's jar (classes loaded and linked, JEP 483, and method profiles, JEP 515; made by {@code
 * basalt-bench aot-train}), unless the user chose a cache or class-data archive ({@code -XX:AOTCache},
 * {@code -XX:AOTMode}, {@code -XX:AOTCacheOutput}, {@code -XX:AOTConfiguration}, {@code
 * -XX:SharedArchiveFile}, {@code -Xshare});
 * <li>on earlier releases, under the same condition, the class-data archive {@value #ARCHIVE_FILE} beside
 * the jar (a dynamic AppCDS archive, made by the same command on that release).
 * </ul>
 * A JVM takes such options only from its command line, which {@code java -jar} leaves to the user, so the
 * launcher starts itself again as a child JVM with its own JVM options plus these, passes the child's
 * output through, stops it when it is stopped and exits with its status. The child is marked by the
 * environment variable {@value #MARK} and never relaunches, and it halts when the parent is killed
 * ({@link #haltWithParent}); {@code -Dbasalt.server.relaunch=false}, or any JVM option that binds a JVM to
 * a port or output file (debugger, JMX, agents, JFR, {@code -XX:LogFile}, {@code file=}), keeps the launcher in the JVM it was
 * started in.
 *
 * <p>Stateless static methods, called by the launcher's main thread before anything else; the child's
 * parent-watch thread only reads standard input and halts the JVM.
 */
final class JvmRelaunch {
    static final String CACHE_FILE = "basalt-server.aot";
    /** The class-data archive for Java 17 to 24 (a dynamic AppCDS archive of a training run). */
    static final String ARCHIVE_FILE = "basalt-server.jsa";
    static final String MARK = "BASALT_SERVER_RELAUNCHED";
    static final String DISABLE_PROPERTY = "basalt.server.relaunch";
    /** The first Java release whose AOT cache keeps method profiles as well as classes (JEP 515). */
    static final int FIRST_AOT_RELEASE = 25;
    /** C2 inlining limits below HotSpot's defaults (15, 2500, 325 on x86-64 with Java 17 to 25). */
    static final List<String> COMPILER_OPTIONS = List.of("-XX:MaxInlineLevel=9", "-XX:InlineSmallCode=1000",
            "-XX:FreqInlineSize=150");
    private static final List<String> CACHE_CHOICES = List.of("-XX:AOTCache", "-XX:AOTMode", "-XX:AOTCacheOutput",
            "-XX:AOTConfiguration", "-XX:SharedArchiveFile", "-Xshare");
    /**
     * Options that bind one JVM to a port or an output file (debugger, JMX, agents, recordings, archives
     * written at exit, log files): two JVMs with them would collide, so with any of them the launcher stays
     * in the JVM it was started in.
     */
    private static final List<String> ONE_JVM_ONLY = List.of("-agentlib", "-agentpath", "-javaagent", "-Xrunjdwp",
            "-Xdebug", "-Dcom.sun.management", "-XX:StartFlightRecording", "-XX:AOTCacheOutput",
            "-XX:AOTConfiguration", "-XX:AOTMode=record", "-XX:AOTMode=create", "-XX:ArchiveClassesAtExit",
            "-XX:DumpLoadedClassList", "-Xloggc", "-XX:LogFile");

    private JvmRelaunch() {
    }

    /**
     * The options to add to {@code jvmOptions} on Java {@code release} with the launcher in {@code home};
     * empty when the launcher should stay in this JVM (a relaunched child, relaunch turned off, an option
     * that only one JVM may have, or nothing to add).
     */
    static List<String> optionsToAdd(int release, List<String> jvmOptions, Path home, Map<String, String> env,
            String disableProperty) {
        List<String> add = new ArrayList<>();
        if (env.containsKey(MARK) || "false".equals(disableProperty) || jvmOptions.stream()
                .anyMatch(o -> o.contains("file=") || ONE_JVM_ONLY.stream().anyMatch(o::startsWith))) {
            return add;
        }
        for (String option : COMPILER_OPTIONS) {
            String name = option.substring(0, option.indexOf('=') + 1);
            if (jvmOptions.stream().noneMatch(o -> o.startsWith(name))) {
                add.add(option);
            }
        }
        boolean ownChoice = jvmOptions.stream().anyMatch(o -> CACHE_CHOICES.stream().anyMatch(o::startsWith));
        Path cache = home.resolve(CACHE_FILE);
        Path archive = home.resolve(ARCHIVE_FILE);
        if (!ownChoice && release >= FIRST_AOT_RELEASE && Files.isRegularFile(cache)) {
            add.add("-XX:AOTCache=" + cache);
        } else if (!ownChoice && release < FIRST_AOT_RELEASE && Files.isRegularFile(archive)) {
            add.add("-XX:SharedArchiveFile=" + archive);
        }
        return add;
    }

    /**
     * The child's command: {@code java}, the parent's JVM options, the added ones, then the jar (when the
     * parent ran {@code -jar JAR}, as {@code javaCommand} shows) or the class path and main class, then the
     * launcher's arguments.
     */
    static List<String> command(String java, List<String> jvmOptions, List<String> added, String javaCommand,
            String classPath, String[] args) {
        List<String> c = new ArrayList<>();
        c.add(java);
        c.addAll(jvmOptions);
        c.addAll(added);
        String first = javaCommand == null ? "" : javaCommand.split(" ", 2)[0];
        if (first.endsWith(".jar")) {
            c.add("-jar");
            c.add(first);
        } else {
            c.add("-cp");
            c.add(classPath);
            c.add(BasaltServer.class.getName());
        }
        c.addAll(List.of(args));
        return c;
    }

    /**
     * In a relaunched child, a daemon thread that halts the JVM when its parent is gone without stopping it
     * (killed with SIGKILL): the parent holds the write end of the child's standard input, which the kernel
     * closes when the parent dies, so the thread's read ends. A parent that is stopped normally stops the
     * child and waits for it first. Does nothing in a JVM that was not relaunched.
     */
    static void haltWithParent(Map<String, String> env) {
        if (!env.containsKey(MARK)) {
            return;
        }
        Thread watcher = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the parent writes nothing; wait for end of input
                }
            } catch (IOException e) {
                // the pipe broke: the parent is gone as well
            }
            System.err.println("basalt-server: the launcher's parent process is gone; halting");
            Runtime.getRuntime().halt(137);
        }, "basalt-server-parent-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    /**
     * Relaunches the launcher when {@link #optionsToAdd} has options to add and returns the child's exit
     * status; empty when the launcher should run in this JVM.
     */
    static Optional<Integer> relaunchIfUseful(String[] args, Path home) throws InterruptedException {
        List<String> jvmOptions = ManagementFactory.getRuntimeMXBean().getInputArguments();
        List<String> added = optionsToAdd(Runtime.version().feature(), jvmOptions, home, System.getenv(),
                System.getProperty(DISABLE_PROPERTY));
        if (added.isEmpty()) {
            return Optional.empty();
        }
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        ProcessBuilder pb = new ProcessBuilder(command(java, jvmOptions, added, System.getProperty("sun.java.command"),
                System.getProperty("java.class.path"), args)).inheritIO().redirectInput(ProcessBuilder.Redirect.PIPE);
        pb.environment().put(MARK, "1");
        Process child;
        try {
            child = pb.start();
        } catch (IOException e) {
            System.err.println("basalt-server: cannot start " + java + " with " + added + " (" + e.getMessage()
                    + "); running without them");
            return Optional.empty();
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // SIGTERM through the handle: Process.destroy would also close the child's standard input, which
            // its parent-watch thread takes for a killed parent
            child.toHandle().destroy();
            try {
                child.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "basalt-server-stop-child"));
        return Optional.of(child.waitFor());
    }
}
