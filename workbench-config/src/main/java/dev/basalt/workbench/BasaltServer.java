package dev.basalt.workbench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

import javax.servlet.DispatcherType;

import org.apache.tomcat.InstanceManager;
import org.apache.tomcat.SimpleInstanceManager;
import org.eclipse.jetty.annotations.ServletContainerInitializersStarter;
import org.eclipse.jetty.apache.jsp.JettyJasperInitializer;
import org.eclipse.jetty.plus.annotation.ContainerInitializer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.server.handler.MovedContextHandler;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.webapp.WebAppContext;

/**
 * RDF4J Server ({@code /rdf4j-server}) and RDF4J Workbench ({@code /rdf4j-workbench}) in one
 * embedded Jetty 9.4, with Basalt installed into both (see {@link WebappAssembly}) and, unless
 * disabled, a Basalt repository created on first start. The server keeps its repositories under
 * {@code <data>/server/repositories/<id>}.
 *
 * <p>Each webapp loads its own RDF4J from its {@code WEB-INF/lib}; the launcher's class path holds
 * Jetty only. RDF4J Server answers through {@link ClientErrorMapping}, which gives a client's mistakes a 4xx
 * where RDF4J Server 5.0.3 answers 500, and takes form bodies (queries, updates) up to 16 MiB. SPARQL queries
 * to its {@code basalt:BasaltRepository} repositories are answered by Basalt's fast path
 * ({@code dev.basalt.sail.http.SparqlFastPath}, a filter added to the server webapp by an override descriptor;
 * {@code -Dbasalt.server.fastQueries=false} turns it off). The Workbench's pages reach browsers as HTML rendered on the
 * server ({@code dev.basalt.workbench.render.XsltRenderFilter}, added to the Workbench webapp the same way), so they
 * need no XSLT in the browser.
 *
 * <p>Unless the user set them, {@link #main} first starts itself again with the JVM options that cut the cost of
 * the first queries after a start (less C2 inlining; on Java 25 and later the ahead-of-time cache beside the jar):
 * {@link JvmRelaunch}. Then, before it prints its URL, it sends its own server a warm-up of typical requests against
 * a scratch repository, so that the JIT has compiled the request path before the first client's query
 * ({@link LauncherWarmup}; {@code -Dbasalt.server.warmup=0} leaves it out), and replays the queries each repository
 * answered before the last stop ({@link QueryLog}, a filter on RDF4J Server's repository requests that records them
 * once the warm-up is done; {@link QueryLogReplay}); a Basalt repository with no log (a store's first start) gets
 * queries made from a sample of its own data instead ({@link DataWarmup}). Before all of these it opens every
 * repository of the data directory ({@link RepositoryBootstrap#openAll}; {@code -Dbasalt.server.openRepositories=false}
 * leaves those the warm-ups do not open to their first requests), so that the request path the warm-ups compile has
 * met every kind of repository it serves.
 *
 * <p>Thread-safe: its fields are final and set before {@link #start} returns; Jetty's own threads serve the
 * requests, and {@link #port}, the URLs and {@link #close} may be called from any thread. {@link #start} sets
 * JVM-wide system properties, so one launch at a time per JVM.
 */
public final class BasaltServer implements AutoCloseable {
    /** RDF4J's webapps put their data under this directory (AppConfiguration's base dir). */
    static final String APPDATA_PROPERTY = "org.eclipse.rdf4j.appdata.basedir";
    static final String SERVER_PATH = "/rdf4j-server";
    /** {@code -Dbasalt.server.openRepositories=false} leaves each repository to be opened by its first request. */
    static final String OPEN_PROPERTY = "basalt.server.openRepositories";
    static final String WORKBENCH_PATH = "/rdf4j-workbench";

    private final ServerOptions options;
    private final Server jetty;
    private final QueryLog queryLog;

    private BasaltServer(ServerOptions options, Server jetty, QueryLog queryLog) {
        this.options = options;
        this.jetty = jetty;
        this.queryLog = queryLog;
    }

    public static void main(String[] args) throws Exception {
        ServerOptions options;
        int warmupRequests;
        int replayRequests;
        int dataRequests;
        int dataRows;
        boolean settleHeap;
        boolean rehearseMisses;
        try {
            options = ServerOptions.parse(args);
            warmupRequests = LauncherWarmup.requests(System.getProperty(LauncherWarmup.REQUESTS_PROPERTY));
            replayRequests = QueryLogReplay.requests(System.getProperty(QueryLogReplay.REQUESTS_PROPERTY),
                    Runtime.version().feature());
            QueryLog.capacity(System.getProperty(QueryLog.CAPACITY_PROPERTY));
            dataRequests = DataWarmup.requests(System.getProperty(DataWarmup.REQUESTS_PROPERTY),
                    Runtime.version().feature());
            dataRows = DataWarmup.rows(System.getProperty(DataWarmup.ROWS_PROPERTY));
            settleHeap = HeapSettle.enabled(System.getProperty(HeapSettle.PROPERTY));
            rehearseMisses = MissRehearsal.enabled(System.getProperty(MissRehearsal.PROPERTY));
        } catch (IllegalArgumentException e) {
            System.err.println("basalt-server: " + e.getMessage());
            System.exit(2);
            return;
        }
        JvmRelaunch.haltWithParent(System.getenv());
        Optional<Integer> child = JvmRelaunch.relaunchIfUseful(args, options.home());
        if (child.isPresent()) {
            System.exit(child.get());
            return;
        }
        BasaltServer server = start(options);
        server.jetty.setStopAtShutdown(true);
        if (Boolean.parseBoolean(System.getProperty(OPEN_PROPERTY, "true"))) {
            // before the warm-ups, so that the request path they compile has met every repository class it will serve
            System.out.println("basalt-server: "
                    + new RepositoryBootstrap(server.serverUrl()).openAll(options.dataDir(), LauncherWarmup.REPOSITORY));
        }
        if (warmupRequests > 0) {
            System.out.println("basalt-server: " + new LauncherWarmup(server.serverUrl()).run(warmupRequests).describe());
        }
        if (replayRequests > 0 && !server.queryLog.found().isEmpty()) {
            System.out.println("basalt-server: "
                    + new QueryLogReplay(server.serverUrl()).run(server.queryLog.found(), replayRequests).describe());
        }
        if (dataRequests > 0 && dataRows > 0) {
            try {
                List<String> ids = DataWarmup.repositories(options.dataDir(),
                        replayRequests > 0 ? server.queryLog.found().keySet() : java.util.Set.of());
                if (!ids.isEmpty()) {
                    new DataWarmup(server.serverUrl()).run(ids, dataRequests, dataRows)
                            .forEach(line -> System.out.println("basalt-server: " + line));
                }
            } catch (RuntimeException e) {
                System.out.println("basalt-server: data warm-up ended early: " + e);
            }
        }
        if (rehearseMisses) {
            MissRehearsal.run().forEach(line -> System.out.println("basalt-server: " + line));
        }
        if (settleHeap) {
            System.out.println("basalt-server: " + HeapSettle.run().describe());
        }
        server.queryLog.startRecording();
        System.out.println("Basalt on RDF4J Server: " + server.serverUrl());
        System.out.println("RDF4J Workbench:        " + server.workbenchUrl());
        System.out.println("data directory:         " + options.dataDir());
        server.jetty.join();
    }

    /**
     * RDF4J's writers read unset settings from system properties of the setting's key: pretty
     * printing (indentation and line breaks) is off in the launcher unless set on the command line
     * ({@code -Dorg.eclipse.rdf4j.rio.pretty_print=true}). Indenting SPARQL/XML results took a
     * measurable share of every query's server CPU (docs/benchmarks-server.md); clients parse the
     * results, the Workbench re-renders them.
     */
    static final String PRETTY_PRINT_PROPERTY = "org.eclipse.rdf4j.rio.pretty_print";

    /** Installs Basalt into the webapps, starts Jetty and creates the default repository if missing. */
    public static BasaltServer start(ServerOptions options) throws Exception {
        if (System.getProperty(PRETTY_PRINT_PROPERTY) == null) {
            System.setProperty(PRETTY_PRINT_PROPERTY, "false");
        }
        WebappAssembly.installIntoServer(options.basaltLib(), options.serverWebapp());
        WebappAssembly.installIntoWorkbench(options.basaltLib(), options.workbenchWebapp());
        Files.createDirectories(options.dataDir());
        WebappAssembly.installServerLogConfig(options.dataDir());
        System.setProperty(APPDATA_PROPERTY, options.dataDir().toString());

        Server jetty = new Server(new InetSocketAddress(options.host(), options.port()));
        Path scratch = options.dataDir().resolve("jetty-work");
        ContextHandlerCollection contexts = new ContextHandlerCollection();
        WebAppContext rdf4jServer = webapp(SERVER_PATH, options.serverWebapp(), scratch.resolve("server"));
        rdf4jServer.setMaxFormContentSize(ClientErrorMapping.MAX_FORM_BYTES);
        rdf4jServer.addFilter(ClientErrorMapping.class, "/*", EnumSet.of(DispatcherType.REQUEST));
        QueryLog queryLog = new QueryLog(options.dataDir(), QueryLog.capacity(System.getProperty(QueryLog.CAPACITY_PROPERTY)));
        rdf4jServer.addFilter(new FilterHolder(queryLog), "/repositories/*", EnumSet.of(DispatcherType.REQUEST));
        rdf4jServer.addOverrideDescriptor(WebappAssembly.installServerOverride(scratch).toString());
        contexts.addHandler(rdf4jServer);
        WebAppContext workbench = webapp(WORKBENCH_PATH, options.workbenchWebapp(), scratch.resolve("workbench"));
        workbench.addOverrideDescriptor(WebappAssembly.installWorkbenchOverride(scratch).toString());
        contexts.addHandler(workbench);
        MovedContextHandler root = new MovedContextHandler(null, "/", WORKBENCH_PATH + "/");
        root.setDiscardPathInfo(true);
        contexts.addHandler(root);
        jetty.setHandler(contexts);
        jetty.start();

        BasaltServer server = new BasaltServer(options, jetty, queryLog);
        if (options.defaultRepository() != null) {
            try {
                new RepositoryBootstrap(server.serverUrl()).ensureBasaltRepository(options.defaultRepository());
            } catch (IOException | RuntimeException e) {
                server.close();
                throw e;
            }
        }
        return server;
    }

    /** The port Jetty listens on (the configured one, or the one it picked for port 0). */
    public int port() {
        return ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
    }

    public String serverUrl() {
        return "http://" + options.host() + ":" + port() + SERVER_PATH;
    }

    public String workbenchUrl() {
        return "http://" + options.host() + ":" + port() + WORKBENCH_PATH;
    }

    @Override
    public void close() throws Exception {
        jetty.stop();
    }

    /**
     * A webapp from an unpacked war, with JSP support (RDF4J Server renders its overview pages with
     * JSP). Jasper is registered directly rather than found by scanning the container class path,
     * which under {@code java -jar} holds only the launcher's jar.
     */
    private static WebAppContext webapp(String contextPath, Path dir, Path scratch) throws IOException {
        Files.createDirectories(scratch);
        WebAppContext context = new WebAppContext(dir.toString(), contextPath);
        context.setAttribute("javax.servlet.context.tempdir", scratch.toFile());
        context.setAttribute("org.eclipse.jetty.containerInitializers",
                List.of(new ContainerInitializer(new JettyJasperInitializer(), null)));
        context.setAttribute(InstanceManager.class.getName(), new SimpleInstanceManager());
        context.addBean(new ServletContainerInitializersStarter(context), true);
        context.setParentLoaderPriority(false);
        context.setThrowUnavailableOnStartupException(true);
        return context;
    }
}
