package dev.basalt.workbench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts Basalt into unpacked RDF4J webapps; idempotent, so it runs at every launch and can be
 * pointed at an existing installation.
 *
 * <p>Both webapps need Basalt's jars in {@code WEB-INF/lib}: the server (5.0.3) creates stores
 * through the {@code SailFactory}, and the Workbench (4.1.3) parses and validates the configuration
 * it renders, which looks the sail type up in the same registry before sending it to the server.
 * The Workbench also gets the "New repository" entry ({@code transformations/create.xsl}), the
 * Basalt form ({@code create-basalt.xsl}) and the template the form fills ({@code basalt.ttl} in
 * {@code WEB-INF/classes}, which the webapp class loader reads before the copy in basalt-sail's jar:
 * that one uses the RDF4J 4.3+ configuration vocabulary, which 4.1.3 does not read). Only the Workbench gets
 * {@value #RENDER_JAR}, the filter that renders its pages on the server ({@link #installWorkbenchOverride}).
 *
 * <p>Stateless static methods, called by the launcher's main thread before Jetty starts. Thread-safe also across
 * processes sharing one home: every file is written to a temporary file and moved over its target atomically.
 */
public final class WebappAssembly {
    static final String TEMPLATE = "WEB-INF/classes/org/eclipse/rdf4j/repository/config/basalt.ttl";
    static final String FORM = "transformations/create-basalt.xsl";
    /** Where RDF4J Server (its application id "server") reads its logging configuration, under the data directory. */
    static final String SERVER_LOG_CONFIG = "server/conf/logback.xml";
    static final String TYPE_LIST = "transformations/create.xsl";
    static final String TYPE_SELECT = "<select id=\"type\" name=\"type\">";
    static final String BASALT_OPTION = "<option value=\"basalt\">Basalt Store</option>";
    /** Jar name prefixes that {@link #installJars} owns in a WEB-INF/lib; older versions are removed. */
    private static final List<String> OWNED_PREFIXES = List.of("basalt-", "caffeine-", "zstd-jni-");

    private WebappAssembly() {
    }

    /**
     * The jar of the Workbench's server-side XSLT filter ({@code dev.basalt.workbench.render}) in basalt-lib/; the
     * server webapp has no use for it.
     */
    static final String RENDER_JAR = "basalt-server-workbench-render.jar";

    /** Copies Basalt's jars (all but the Workbench's render filter) into the server webapp's WEB-INF/lib. */
    public static void installIntoServer(Path basaltLib, Path serverWebapp) throws IOException {
        requireWebapp(serverWebapp, "RDF4J Server");
        installJars(basaltLib, serverWebapp.resolve("WEB-INF/lib"), false);
    }

    /** Copies Basalt's jars, form and template into the Workbench webapp and lists Basalt on "New repository". */
    public static void installIntoWorkbench(Path basaltLib, Path workbenchWebapp) throws IOException {
        requireWebapp(workbenchWebapp, "RDF4J Workbench");
        installJars(basaltLib, workbenchWebapp.resolve("WEB-INF/lib"), true);
        copyResource("workbench/create-basalt.xsl", workbenchWebapp.resolve(FORM));
        copyResource("workbench/basalt.ttl", workbenchWebapp.resolve(TEMPLATE));
        Path typeList = workbenchWebapp.resolve(TYPE_LIST);
        String xsl = Files.readString(typeList, StandardCharsets.UTF_8);
        String patched = addBasaltType(xsl, typeList);
        if (!patched.equals(xsl)) {
            Path temp = Files.createTempFile(typeList.getParent(), ".basalt-", ".tmp");
            Files.writeString(temp, patched, StandardCharsets.UTF_8);
            replaceAtomically(temp, typeList);
        }
    }

    /**
     * Writes the launcher's logging configuration for RDF4J Server ({@code server/logback.xml}:
     * RDF4J's default without its two INFO lines per query) to {@code <data>/server/conf/logback.xml}
     * unless a configuration is there already, which is then left as the operator made it.
     */
    public static void installServerLogConfig(Path dataDir) throws IOException {
        Path target = dataDir.resolve(SERVER_LOG_CONFIG);
        if (!Files.exists(target)) {
            copyResource("server/logback.xml", target);
        }
    }

    /** {@code -Dbasalt.server.gzipLevel=N}: deflate level (1 fastest ... 9 smallest) of compressed responses. */
    public static final String GZIP_LEVEL_PROPERTY = "basalt.server.gzipLevel";
    /** {@code -Dbasalt.server.gzipThreshold=BYTES}: responses shorter than this are sent uncompressed. */
    public static final String GZIP_THRESHOLD_PROPERTY = "basalt.server.gzipThreshold";
    /**
     * Level 1: on BSBM's SPARQL/XML results (about 30 KB of repeated literals for its query 2) it compresses about as
     * well as RDF4J Server's default level 6 for a fraction of the CPU (docs/benchmarks-server.md).
     */
    static final int DEFAULT_GZIP_LEVEL = 1;
    /** Below 4 KiB a response is a few TCP segments either way; compressing it costs more than it saves. */
    static final int DEFAULT_GZIP_THRESHOLD = 4096;

    /**
     * Writes the launcher's override descriptor for RDF4J Server ({@code server/override-web.xml}: Basalt's SPARQL
     * fast path as a filter in front of the dispatcher, and the compressing filter's level and threshold from
     * {@value #GZIP_LEVEL_PROPERTY} and {@value #GZIP_THRESHOLD_PROPERTY}) into {@code scratch} and answers its path.
     * Jetty reads it after the webapp's own web.xml, so the webapp directory itself is left as it is.
     */
    public static Path installServerOverride(Path scratch) throws IOException {
        Path target = scratch.resolve("server-override-web.xml");
        int level = intProperty(GZIP_LEVEL_PROPERTY, DEFAULT_GZIP_LEVEL, 1, 9);
        int threshold = intProperty(GZIP_THRESHOLD_PROPERTY, DEFAULT_GZIP_THRESHOLD, 0, Integer.MAX_VALUE);
        String descriptor = new String(resource("server/override-web.xml"), StandardCharsets.UTF_8)
                .replace("@GZIP_LEVEL@", String.valueOf(level))
                .replace("@GZIP_THRESHOLD@", String.valueOf(threshold));
        writeIfChanged(descriptor.getBytes(StandardCharsets.UTF_8), target);
        return target;
    }

    /**
     * Writes the launcher's override descriptor for RDF4J Workbench ({@code workbench/override-web.xml}: the
     * server-side XSLT filter, {@code dev.basalt.workbench.render.XsltRenderFilter}, on the Workbench's pages) into
     * {@code scratch} and answers its path; the filter's classes reach the webapp as {@value #RENDER_JAR} in its
     * WEB-INF/lib ({@link #installIntoWorkbench}).
     */
    public static Path installWorkbenchOverride(Path scratch) throws IOException {
        Path target = scratch.resolve("workbench-override-web.xml");
        writeIfChanged(resource("workbench/override-web.xml"), target);
        return target;
    }

    /** A whole-number system property in {@code [min, max]}, or {@code otherwise} when unset. */
    static int intProperty(String name, int otherwise, int min, int max) {
        String value = System.getProperty(name);
        if (value == null) {
            return otherwise;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("-D" + name + " must be a whole number from " + min
                + (max == Integer.MAX_VALUE ? " up" : " to " + max) + ", got '" + value + "'");
    }

    /** The Workbench's type list with Basalt as its first (preselected) entry; unchanged if listed already. */
    static String addBasaltType(String createXsl, Path file) {
        if (createXsl.contains("value=\"basalt\"")) {
            return createXsl;
        }
        int at = createXsl.indexOf(TYPE_SELECT);
        if (at < 0) {
            throw new IllegalStateException(file + " has no " + TYPE_SELECT
                    + "; this Workbench's form differs from 4.1.3: add " + BASALT_OPTION + " to its type list by hand");
        }
        int end = at + TYPE_SELECT.length();
        return createXsl.substring(0, end) + "\n\t\t\t\t\t\t\t\t" + BASALT_OPTION + createXsl.substring(end);
    }

    private static void installJars(Path basaltLib, Path webappLib, boolean withRenderFilter) throws IOException {
        List<Path> jars = jars(basaltLib);
        if (jars.isEmpty()) {
            throw new IOException("no Basalt jars in " + basaltLib + "; build them with: mvn -B install -DskipTests");
        }
        boolean hasRenderJar = jars.removeIf(j -> j.getFileName().toString().equals(RENDER_JAR));
        if (withRenderFilter && !hasRenderJar) {
            throw new IOException("no " + RENDER_JAR + " in " + basaltLib + "; build it with: mvn -B install -DskipTests");
        }
        if (withRenderFilter) {
            jars.add(basaltLib.resolve(RENDER_JAR));
        }
        for (Path old : jars(webappLib)) {
            String name = old.getFileName().toString();
            boolean owned = OWNED_PREFIXES.stream().anyMatch(name::startsWith);
            boolean current = jars.stream().anyMatch(j -> j.getFileName().toString().equals(name));
            if (owned && !current) {
                Files.delete(old);
            }
        }
        for (Path jar : jars) {
            Path target = webappLib.resolve(jar.getFileName().toString());
            if (!Files.exists(target) || Files.size(target) != Files.size(jar)
                    || Files.getLastModifiedTime(target).compareTo(Files.getLastModifiedTime(jar)) < 0) {
                Path temp = Files.createTempFile(webappLib, ".basalt-", ".tmp");
                Files.copy(jar, temp, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                replaceAtomically(temp, target);
            }
        }
    }

    private static List<Path> jars(Path dir) throws IOException {
        List<Path> jars = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return jars;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*.jar")) {
            entries.forEach(jars::add);
        }
        return jars;
    }

    private static void copyResource(String name, Path target) throws IOException {
        writeIfChanged(resource(name), target);
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = WebappAssembly.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " missing from the launcher's jar");
            }
            return in.readAllBytes();
        }
    }

    private static void writeIfChanged(byte[] bytes, Path target) throws IOException {
        if (Files.isRegularFile(target) && java.util.Arrays.equals(bytes, Files.readAllBytes(target))) {
            return;
        }
        Files.createDirectories(target.getParent());
        Path temp = Files.createTempFile(target.getParent(), ".basalt-", ".tmp");
        Files.write(temp, bytes);
        replaceAtomically(temp, target);
    }

    /**
     * Moves a finished file over its target in one step, so that launchers started at the same time on
     * one home (a local federation's members) never see, or trip over, a half-written file.
     */
    private static void replaceAtomically(Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static void requireWebapp(Path dir, String what) throws IOException {
        if (!Files.isRegularFile(dir.resolve("WEB-INF/web.xml"))) {
            throw new IOException(dir + " is not an unpacked " + what
                    + " webapp (no WEB-INF/web.xml); build it with: mvn -B install -DskipTests");
        }
    }
}
