package dev.basalt.workbench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs the launcher on Java 25 and later with its ahead-of-time cache ({@value #CACHE_FILE} beside the
 * launcher's jar, made by a training run: docs/operator-guide.md) when the user did not choose a cache
 * or class-data archive of their own. A JVM reads the cache only from its command line, which {@code
 * java -jar} leaves to the user, so the launcher starts itself once more as a child JVM with the same
 * JVM options plus {@code -XX:AOTCache=FILE}, passes its output through, stops it when it is stopped
 * and exits with its status. The child is marked by the environment variable {@value #MARK} so that it
 * never relaunches again. On Java 17 to 24, without the cache file, with {@code
 * -Dbasalt.server.relaunch=false}, or with any of {@code -XX:AOTCache}, {@code -XX:AOTMode}, {@code
 * -XX:AOTCacheOutput}, {@code -XX:AOTConfiguration}, {@code -XX:SharedArchiveFile}, {@code -Xshare} among
 * the options, the launcher runs in its own JVM as it was started.
 *
 * <p>Stateless static methods, called by the launcher's main thread before anything else.
 */
final class AotRelaunch {
    static final String CACHE_FILE = "basalt-server.aot";
    static final String MARK = "BASALT_SERVER_RELAUNCHED";
    static final String DISABLE_PROPERTY = "basalt.server.relaunch";
    /** The first Java release whose AOT cache keeps method profiles as well as classes (JEP 515). */
    static final int FIRST_RELEASE = 25;
    private static final List<String> USER_CHOICES = List.of("-XX:AOTCache", "-XX:AOTMode", "-XX:AOTCacheOutput",
            "-XX:AOTConfiguration", "-XX:SharedArchiveFile", "-Xshare");

    private AotRelaunch() {
    }

    /**
     * The cache this JVM should be relaunched with, if any: {@code home}'s {@value #CACHE_FILE} when the
     * release is {@value #FIRST_RELEASE} or later, the file exists, this JVM is no relaunched child, the
     * relaunch is not turned off and no option in {@code jvmOptions} chooses a cache or archive.
     */
    static Optional<Path> cacheToUse(int release, List<String> jvmOptions, Path home, Map<String, String> env,
            String disableProperty) {
        Path cache = home.resolve(CACHE_FILE);
        if (release < FIRST_RELEASE || env.containsKey(MARK) || "false".equals(disableProperty)
                || !Files.isRegularFile(cache)) {
            return Optional.empty();
        }
        for (String o : jvmOptions) {
            for (String choice : USER_CHOICES) {
                if (o.startsWith(choice)) {
                    return Optional.empty();
                }
            }
        }
        return Optional.of(cache);
    }

    /**
     * The child's command: {@code java}, the parent's JVM options, the cache, then the jar (when the
     * parent ran {@code -jar JAR}, as {@code javaCommand} shows) or the class path and main class, then
     * the launcher's arguments.
     */
    static List<String> command(String java, List<String> jvmOptions, Path cache, String javaCommand,
            String classPath, String[] args) {
        List<String> c = new ArrayList<>();
        c.add(java);
        c.addAll(jvmOptions);
        c.add("-XX:AOTCache=" + cache);
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
     * Relaunches the launcher with the cache if {@link #cacheToUse} finds one and returns the child's exit
     * status; empty when the launcher should run in this JVM.
     */
    static Optional<Integer> relaunchIfUseful(String[] args, Path home) throws InterruptedException {
        List<String> jvmOptions = ManagementFactory.getRuntimeMXBean().getInputArguments();
        Optional<Path> cache = cacheToUse(Runtime.version().feature(), jvmOptions, home, System.getenv(),
                System.getProperty(DISABLE_PROPERTY));
        if (cache.isEmpty()) {
            return Optional.empty();
        }
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        ProcessBuilder pb = new ProcessBuilder(command(java, jvmOptions, cache.get(),
                System.getProperty("sun.java.command"), System.getProperty("java.class.path"), args)).inheritIO();
        pb.environment().put(MARK, "1");
        Process child;
        try {
            child = pb.start();
        } catch (java.io.IOException e) {
            System.err.println("basalt-server: cannot start " + java + " with the AOT cache " + cache.get() + " ("
                    + e.getMessage() + "); running without it");
            return Optional.empty();
        }
        Thread stopChild = new Thread(() -> {
            child.destroy();
            try {
                child.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "basalt-server-stop-child");
        Runtime.getRuntime().addShutdownHook(stopChild);
        int status = child.waitFor();
        return Optional.of(status);
    }
}
