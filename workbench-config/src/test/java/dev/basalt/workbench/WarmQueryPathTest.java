package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.StackFrame;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.MethodEntryEvent;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.MethodEntryRequest;

/**
 * The Basalt classes a warm SELECT over HTTP passes through between the servlet container and the plan's operators,
 * recorded, not read off the code: the launcher runs under a debugger agent; after a few queries of one shape (its
 * template parsed, its plan compiled and kept) the test records every method entry of a {@code dev.basalt} class in
 * the thread that serves one more query of that shape, and keeps the classes entered while
 * {@code SparqlFastPath} is on the stack and no operator frame is below them ({@code dev.basalt.store},
 * {@code dev.basalt.optimizer.exec}, {@code .plan}, {@code .access}: the operators, the planner's pieces they use
 * and the store they read), together with the Basalt frames below the fast path (the webapp's filters). Nested,
 * anonymous and lambda classes count as their outer class. The list is pinned ({@link #WARM_PATH}), so the path
 * cannot grow silently, and its length may not exceed {@link #LIMIT} (docs/sail.md, "The query path").
 */
class WarmQueryPathTest {
    /**
     * The most Basalt classes a warm SELECT may pass through between the servlet and the operators: the length of
     * {@link #WARM_PATH}, lowered whenever a class leaves the path; at most 12 (docs/sail.md, "The query path").
     */
    static final int LIMIT = 12;
    /** The warm SELECT's Basalt classes, in name order (package below {@code dev.basalt}). */
    static final List<String> WARM_PATH = List.of(
            "optimizer.rdf4j.BasaltPlanNode", // the plan's RDF4J node: runs the operators with this query's term ids as the
                                              // plan's parameters (through an access-layer ParameterSource), rows as binding sets
            "optimizer.rdf4j.ShapePlans", // the shape's plan kept for the store's state; counts its run (its Counts)
            "sail.http.EncodedOutput", // the UTF-8 buffer and escaping RowWriter shares with the RDF/XML graph writer
            "sail.http.RowWriter", // the response's head and the SPARQL/XML result
            "sail.http.SparqlFastPath", // the servlet filter and the request's parameters (its Request)
            "sail.query.NativeQueries", // the direct run: leased snapshot, time limit, release on close
            "sail.query.QueryFront", // the front door: the shape's entry
            "sail.query.QueryShape", // the query's shape key and constants; their values by the template's sentinels
            "sail.query.ShapeLexer", // reads the query into its shape
            "sail.read.LatestSnapshots", // the newest snapshot's lease; the access API over it (its SnapshotQuadSource)
            "workbench.ClientErrorMapping", // the launcher's filter ahead of the fast path
            "workbench.QueryLog"); // the launcher's filter that keeps the answered query for the next start's replay

    private static final Pattern OPERATOR = Pattern.compile("dev\\.basalt\\.(store|optimizer\\.(exec|plan|access))\\..*");
    private static final String FAST_PATH = "dev.basalt.sail.http.SparqlFastPath";
    private static final String DATA = """
            <http://ex.org/a> <http://ex.org/name> "Alice" .
            <http://ex.org/a> <http://ex.org/knows> <http://ex.org/b> .
            <http://ex.org/b> <http://ex.org/name> "Bob" .
            <http://ex.org/b> <http://ex.org/knows> <http://ex.org/c> .
            <http://ex.org/c> <http://ex.org/name> "Carol" .
            """;
    /** A shape with one constant, asked with the constant of each person. */
    private static final String QUERY = "SELECT ?friend ?name WHERE { <http://ex.org/%s> <http://ex.org/knows> ?friend . "
            + "?friend <http://ex.org/name> ?name }";

    @TempDir
    Path data;

    @Test
    void warmSelectPassesThePinnedClasses() throws Exception {
        int debugPort = LauncherProcess.freePort();
        try (LauncherProcess launcher = new LauncherProcess(data, LauncherProcess.OUTPUT.resolve("launcher-warm-path.log"),
                "--no-repository").jvmOptions("-Xmx384m", "-Dbasalt.server.relaunch=false",
                        "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:" + debugPort)
                .start()) {
            String server = launcher.serverUrl();
            new RepositoryBootstrap(server).ensureBasaltRepository("warm");
            Rest.Response added = new Rest(server).add("warm", "application/n-triples", DATA);
            assertEquals(204, added.status(), added.body());
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            for (int i = 0; i < 6; i++) {
                HttpResponse<String> warm = http.send(select(server, i % 2 == 0 ? "a" : "b"),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, warm.statusCode(), warm.body());
            }
            Map<String, TreeSet<String>> entered = new TreeMap<>();
            TreeSet<String> path = record(debugPort, http, select(server, "a"), entered);
            System.out.println("warm SELECT path (" + path.size() + " Basalt classes): " + path);
            assertEquals(WARM_PATH, List.copyOf(path), "the warm SELECT's Basalt classes changed (methods entered: "
                    + entered + "): update WARM_PATH, LIMIT and docs/sail.md if that is meant");
            assertTrue(path.size() <= LIMIT, "a warm SELECT passes " + path.size() + " Basalt classes, more than " + LIMIT);
        }
    }

    private static HttpRequest select(String server, String person) {
        String query = URLEncoder.encode(String.format(QUERY, person), StandardCharsets.UTF_8);
        return HttpRequest.newBuilder(URI.create(server + "/repositories/warm?query=" + query))
                .header("Accept", "application/sparql-results+xml").timeout(Duration.ofSeconds(120)).build();
    }

    /**
     * Sends {@code request} while method entries are recorded; the path's classes (see the class comment). The
     * methods of non-operator Basalt classes the serving thread entered go to {@code methods}, by class.
     */
    private static TreeSet<String> record(int debugPort, HttpClient http, HttpRequest request,
            Map<String, TreeSet<String>> methods) throws Exception {
        AttachingConnector socket = Bootstrap.virtualMachineManager().attachingConnectors().stream()
                .filter(c -> c.transport().name().equals("dt_socket")).findFirst().orElseThrow();
        Map<String, Connector.Argument> arguments = socket.defaultArguments();
        arguments.get("hostname").setValue("127.0.0.1");
        arguments.get("port").setValue(String.valueOf(debugPort));
        VirtualMachine vm = socket.attach(arguments);
        TreeSet<String> path = new TreeSet<>();
        try {
            MethodEntryRequest entries = vm.eventRequestManager().createMethodEntryRequest();
            entries.addClassFilter("dev.basalt.*");
            entries.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
            entries.enable();
            CompletableFuture<HttpResponse<String>> response = http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
            ThreadReference serving = null;
            // until the response is in and the serving thread entered no Basalt method for 2 s
            long quietSince = System.nanoTime();
            long deadline = System.nanoTime() + Duration.ofSeconds(300).toNanos();
            while (!response.isDone() || System.nanoTime() - quietSince < Duration.ofSeconds(2).toNanos()) {
                assertTrue(System.nanoTime() < deadline, "the recorded request did not end within 300 s");
                EventSet events = vm.eventQueue().remove(200);
                if (events == null) {
                    continue;
                }
                for (Event event : events) {
                    if (serving == null || event instanceof MethodEntryEvent e && serving.equals(e.thread())) {
                        quietSince = System.nanoTime();
                    }
                    if (event instanceof MethodEntryEvent entry && serving != null && serving.equals(entry.thread())
                            && !OPERATOR.matcher(entry.method().declaringType().name()).matches()) {
                        methods.computeIfAbsent(outer(entry.method().declaringType().name()), k -> new TreeSet<>())
                                .add(entry.method().declaringType().name().substring("dev.basalt.".length()) + "."
                                        + entry.method().name());
                    }
                    if (event instanceof MethodEntryEvent entry
                            && (serving == null || serving.equals(entry.thread()))
                            && !OPERATOR.matcher(entry.method().declaringType().name()).matches()
                            && !path.contains(outer(entry.method().declaringType().name()))) {
                        if (take(entry.thread().frames(), path) && serving == null) {
                            serving = entry.thread();
                        }
                    }
                }
                events.resume();
            }
            entries.disable();
            HttpResponse<String> answered = response.get();
            assertEquals(200, answered.statusCode(), answered.body());
            assertTrue(answered.body().contains("Bob"), answered.body());
        } finally {
            vm.dispose();
        }
        return path;
    }

    /**
     * Adds the Basalt classes of a stack through the fast path, from the outermost frame to the first operator
     * frame; false if the stack does not pass the fast path.
     */
    private static boolean take(List<StackFrame> frames, TreeSet<String> path) {
        if (frames.stream().noneMatch(f -> f.location().declaringType().name().equals(FAST_PATH))) {
            return false;
        }
        for (int i = frames.size() - 1; i >= 0; i--) {
            String type = frames.get(i).location().declaringType().name();
            if (OPERATOR.matcher(type).matches()) {
                break;
            }
            if (type.startsWith("dev.basalt.")) {
                path.add(outer(type));
            }
        }
        return true;
    }

    /** {@code dev.basalt.a.B$C$$Lambda$1} as {@code a.B}. */
    private static String outer(String type) {
        String name = type.substring("dev.basalt.".length());
        int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }
}
