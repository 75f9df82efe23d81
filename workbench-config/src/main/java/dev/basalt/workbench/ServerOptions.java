package dev.basalt.workbench;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Settings of one launch: where to listen, where the data lives, where the assembled webapps are,
 * and which Basalt repository to create on first start (none when {@code defaultRepository} is
 * null). The host defaults to loopback: RDF4J Server has no authentication of its own.
 *
 * <p>Immutable; safe to share between threads.
 */
public record ServerOptions(String host, int port, Path dataDir, Path home, String defaultRepository) {
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8080;
    public static final String DEFAULT_DATA_DIR = "data/server";
    public static final String DEFAULT_REPOSITORY = "basalt";

    public ServerOptions {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be between 0 and 65535, got " + port);
        }
        dataDir = dataDir.toAbsolutePath().normalize();
        home = home.toAbsolutePath().normalize();
    }

    public Path serverWebapp() {
        return home.resolve("webapps").resolve("rdf4j-server");
    }

    public Path workbenchWebapp() {
        return home.resolve("webapps").resolve("rdf4j-workbench");
    }

    public Path basaltLib() {
        return home.resolve("basalt-lib");
    }

    /**
     * Parses {@code --host H --port N --data DIR --home DIR --repository ID|--no-repository}.
     * Unset values take the defaults; the home defaults to the directory of the launcher's jar.
     */
    public static ServerOptions parse(String[] args) {
        Map<String, String> values = new java.util.HashMap<>();
        String repository = DEFAULT_REPOSITORY;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--host", "--port", "--data", "--home", "--repository" -> {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(a + " needs a value");
                    }
                    values.put(a, args[++i]);
                }
                case "--no-repository" -> repository = null;
                default -> throw new IllegalArgumentException("unknown option '" + a + "'; options: "
                        + "--host H --port N --data DIR --home DIR --repository ID --no-repository");
            }
        }
        if (values.containsKey("--repository")) {
            repository = values.get("--repository");
        }
        int port;
        try {
            port = Integer.parseInt(values.getOrDefault("--port", String.valueOf(DEFAULT_PORT)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port must be a number, got '" + values.get("--port") + "'");
        }
        Path home = values.containsKey("--home") ? Path.of(values.get("--home")) : defaultHome();
        return new ServerOptions(values.getOrDefault("--host", DEFAULT_HOST), port,
                Path.of(values.getOrDefault("--data", DEFAULT_DATA_DIR)), home, repository);
    }

    /** The directory holding the launcher's jar (or classes), where the build put lib/ and webapps/. */
    static Path defaultHome() {
        String property = System.getProperty("basalt.server.home");
        if (property != null) {
            return Path.of(property);
        }
        try {
            // target/basalt-server.jar or, when run from the build, target/classes: both sit in target/
            return Path.of(ServerOptions.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the launcher's jar: " + e.getMessage(), e);
        }
    }

    /**
     * A count a launcher flag ({@code -Dproperty=N}) sets: {@code defaultCount} when {@code value} is unset or blank;
     * a clear error naming the property, what it counts and what {@code 0} means when it is not a number of at least
     * 0.
     */
    static int count(String value, String property, int defaultCount, String what) {
        if (value == null || value.isBlank()) {
            return defaultCount;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("-D" + property + " must be " + what + ", got '" + value + "'");
    }

    /**
     * A switch that is on unless set: {@code value} (of system property {@code property}) unset, blank or
     * {@code true} is on, {@code false} off; anything else is a clear error naming the property.
     */
    static boolean onUnlessOff(String value, String property) {
        if (value == null || value.isBlank() || value.trim().equalsIgnoreCase("true")) {
            return true;
        }
        if (value.trim().equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("-D" + property + " must be true or false, got '" + value + "'");
    }
}
