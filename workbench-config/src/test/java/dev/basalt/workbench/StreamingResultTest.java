package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.MemoryMXBean;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;

import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.query.NativeQueriesMXBean;
import dev.basalt.sail.ops.StoreOperationsMXBean;

/**
 * Acceptance 3 of issue 18 against the launcher in a child JVM: a SELECT of 1,000,000 rows streams
 * to an HTTP client as SPARQL/XML with the server's heap, measured through the server's JMX after a
 * full GC while the client holds the stream half read, less than 256 MiB above its idle level (the
 * child runs with {@code -Xmx320m}, so a server that held the result would fail the query); and a
 * client that closes its connection in the middle of a result ends the query within a second: the
 * store's running native queries (its {@code NativeQueries} MBean) and its open readers go back to
 * their idle values, so the query's thread no longer reads and its snapshot is released.
 *
 * <p>The data is two groups of 1,000 statements; the query is their cross product, so the store is
 * loaded in a moment and the rows are made by the engine, not read from disk.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StreamingResultTest {
    static final String REPO = "stream";
    static final int SIDE = 1_000;
    static final long ROWS = (long) SIDE * SIDE;
    static final long HEAP_ALLOWANCE = 256L << 20;
    static final String QUERY = "SELECT ?a ?x ?b ?y WHERE { ?a <http://example.org/label> ?x . "
            + "?b <http://example.org/rank> ?y }";

    @TempDir
    static Path data;
    LauncherProcess launcher;
    JMXConnector jmx;
    MemoryMXBean memory;
    NativeQueriesMXBean queries;
    StoreOperationsMXBean store;

    @BeforeAll
    void start() throws Exception {
        int jmxPort = LauncherProcess.freePort();
        launcher = new LauncherProcess(data, LauncherProcess.OUTPUT.resolve("launcher-streaming.log"), "--no-repository")
                .withLocalJmx("-Xmx320m", jmxPort)
                .start();
        new RepositoryBootstrap(launcher.serverUrl()).ensureBasaltRepository(REPO);
        Rest rest = new Rest(launcher.serverUrl());
        StringBuilder nt = new StringBuilder();
        for (int i = 0; i < SIDE; i++) {
            nt.append("<http://example.org/a").append(i).append("> <http://example.org/label> \"label number ")
                    .append(i).append("\" .\n<http://example.org/b").append(i)
                    .append("> <http://example.org/rank> \"").append(i)
                    .append("\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n");
        }
        Rest.Response added = rest.add(REPO, "application/n-triples", nt.toString());
        assertEquals(204, added.status(), added.body());
        assertEquals(2L * SIDE, rest.size(REPO));

        jmx = JMXConnectorFactory.connect(new JMXServiceURL(
                "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi"));
        MBeanServerConnection server = jmx.getMBeanServerConnection();
        memory = ManagementFactory.newPlatformMXBeanProxy(server, ManagementFactory.MEMORY_MXBEAN_NAME,
                MemoryMXBean.class);
        queries = JMX.newMXBeanProxy(server, storeBean(server, "NativeQueries"), NativeQueriesMXBean.class);
        store = JMX.newMXBeanProxy(server, storeBean(server, "Store"), StoreOperationsMXBean.class);
    }

    /** The MBean of type {@code type} of the repository's store (the only store of the server). */
    private static ObjectName storeBean(MBeanServerConnection server, String type) throws Exception {
        Set<ObjectName> names = server.queryNames(new ObjectName("dev.basalt:type=" + type + ",*"), null);
        assertEquals(1, names.size(), "one Basalt store in the server: " + names);
        return names.iterator().next();
    }

    @AfterAll
    void stop() throws Exception {
        if (jmx != null) {
            jmx.close();
        }
        if (launcher != null) {
            launcher.close();
        }
    }

    /** Heap used after a full GC in the server. */
    private long heapAfterGc() {
        memory.gc();
        memory.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    @Test
    void streamsAMillionRowsInBoundedHeapAndStopsWhenTheClientLeaves() throws Exception {
        // warm the query path, so its classes and caches count as idle
        try (ResultStream warm = ResultStream.open(launcher, QUERY + " LIMIT 10")) {
            assertEquals(10, warm.countRows(Long.MAX_VALUE));
        }
        awaitIdle(10_000);
        long idleHeap = heapAfterGc();
        int idleReaders = store.getOpenReaders();

        long streamStart = System.nanoTime();
        try (ResultStream stream = ResultStream.open(launcher, QUERY)) {
            assertEquals(ROWS / 2, stream.countRows(ROWS / 2));
            // the server is blocked writing the rest: what it holds now is what streaming costs
            long midHeap = heapAfterGc();
            assertEquals(1, queries.getRunningQueries(), "the query runs while its result is read");
            System.out.printf("server heap after GC: idle %.1f MiB, half way through %d rows %.1f MiB (%.1f MiB above idle)%n",
                    idleHeap / 1048576.0, ROWS, midHeap / 1048576.0, (midHeap - idleHeap) / 1048576.0);
            assertTrue(midHeap - idleHeap < HEAP_ALLOWANCE, "server heap " + ((midHeap - idleHeap) >> 20)
                    + " MiB above idle half way through a " + ROWS + "-row result");
            assertEquals(ROWS / 2, stream.countRows(Long.MAX_VALUE), "the other half of the rows");
            assertTrue(stream.complete(), "the result document is complete");
        }
        System.out.printf("%d rows of SPARQL/XML in %.1f s, two full GCs included%n", ROWS,
                (System.nanoTime() - streamStart) / 1e9);
        awaitIdle(10_000);

        ResultStream cancelled = ResultStream.open(launcher, QUERY);
        assertEquals(ROWS / 10, cancelled.countRows(ROWS / 10));
        assertEquals(1, queries.getRunningQueries());
        long closedAt = System.nanoTime();
        cancelled.close();
        long endedMillis = awaitIdle(closedAt, 5_000);
        System.out.printf("query ended %d ms after the client closed its connection%n", endedMillis);
        assertTrue(endedMillis < 1_000, "query ended " + endedMillis + " ms after the client left");
        assertEquals(idleReaders, store.getOpenReaders(), "the query's snapshot is released");
    }

    private long awaitIdle(long timeoutMillis) throws InterruptedException {
        return awaitIdle(System.nanoTime(), timeoutMillis);
    }

    /** Waits until no native query runs; returns the milliseconds from {@code start} (System.nanoTime) to then. */
    private long awaitIdle(long start, long timeoutMillis) throws InterruptedException {
        while (queries.getRunningQueries() != 0) {
            long elapsed = (System.nanoTime() - start) / 1_000_000;
            if (elapsed > timeoutMillis) {
                throw new AssertionError("a native query still runs " + elapsed + " ms later");
            }
            Thread.sleep(5);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    /**
     * One query over a raw HTTP/1.1 socket, so that closing it is exactly a client leaving mid-stream;
     * reads the SPARQL/XML body (chunked, or of a given length when it is small) and counts its {@code <result>} elements.
     */
    static final class ResultStream implements AutoCloseable {
        private static final byte[] ROW = "<result>".getBytes(StandardCharsets.US_ASCII);
        private static final byte[] END = "</sparql>".getBytes(StandardCharsets.US_ASCII);
        private final Socket socket;
        private final InputStream in;
        private long chunkLeft;
        private boolean lastChunk;
        private int rowMatched;
        private int endMatched;
        private boolean ended;

        private ResultStream(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        }

        static ResultStream open(LauncherProcess launcher, String sparql) throws IOException {
            URI uri = URI.create(launcher.serverUrl() + "/repositories/" + REPO);
            Socket socket = new Socket();
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 10_000);
            socket.setSoTimeout(60_000);
            socket.setReceiveBufferSize(1 << 16);
            byte[] body = ("query=" + Rest.encode(sparql)).getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + uri.getPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
                    + "\r\nAccept: application/sparql-results+xml\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            ResultStream stream = new ResultStream(socket);
            String status = stream.line();
            assertTrue(status.startsWith("HTTP/1.1 200"), status);
            for (String header = stream.line(); !header.isEmpty(); header = stream.line()) {
                String h = header.toLowerCase().replace(" ", "");
                if (h.startsWith("content-length:")) {
                    // a small result fits Jetty's buffer and is sent with its length
                    stream.chunkLeft = Long.parseLong(h.substring("content-length:".length()));
                    stream.lastChunk = true;
                }
            }
            return stream;
        }

        private String line() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new EOFException("connection closed in a header or chunk line");
                }
                if (c != '\r') {
                    b.write(c);
                }
            }
            return b.toString(StandardCharsets.US_ASCII);
        }

        /** The next byte of the body, or -1 at its end. */
        private int next() throws IOException {
            while (chunkLeft == 0) {
                if (lastChunk) {
                    return -1;
                }
                String size = line();
                if (size.isEmpty()) {
                    continue; // the CRLF after a chunk's data
                }
                chunkLeft = Long.parseLong(size.split(";")[0].trim(), 16);
                lastChunk = chunkLeft == 0;
            }
            chunkLeft--;
            return in.read();
        }

        /** Reads until {@code max} more rows have begun or the body ends; returns how many began. */
        long countRows(long max) throws IOException {
            long rows = 0;
            while (rows < max) {
                int c = next();
                if (c < 0) {
                    break;
                }
                rowMatched = c == ROW[rowMatched] ? rowMatched + 1 : c == ROW[0] ? 1 : 0;
                if (rowMatched == ROW.length) {
                    rowMatched = 0;
                    rows++;
                }
                endMatched = c == END[endMatched] ? endMatched + 1 : c == END[0] ? 1 : 0;
                if (endMatched == END.length) {
                    ended = true;
                    endMatched = 0;
                }
            }
            return rows;
        }

        boolean complete() {
            return ended;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
