package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's server killed with SIGKILL under write load, many times: 8 HTTP clients write tagged groups
 * of statements (a Turtle upload, a SPARQL {@code INSERT DATA}, or a REST transaction of several requests,
 * each group one transaction) and read while the test kills the server at random moments and starts it again
 * on the same data directory. After the last kill {@code basalt verify} runs on the journal, and the server
 * started once more must hold every group whose write was acknowledged (HTTP 2xx), whole, and of the groups
 * whose writes were cut off only whole ones or none; a group nobody sent, or a part of one, fails the test.
 *
 * <p>Any 5xx answer from a running server fails the test too: a killed server answers nothing, a restarted
 * one must not be in a state where it answers errors. The default run kills 5 times; the {@code long} run
 * kills at least {@code basalt.soak.kills} (200) times over at least {@code basalt.soak.minutes} (30) minutes.
 * Writes its figures to target/soak-report.md. The seed is printed; {@code -Dbasalt.seed=N} repeats one.
 */
class ServerCrashSoakTest {
    static final String REPO = "soak";
    static final String EX = "http://example.org/soak/";
    static final int CLIENTS = 8;

    @TempDir
    Path data;

    @Test
    void acknowledgedGroupsSurviveFiveKillsWhole() throws Exception {
        soak(5, 0);
    }

    @Test
    @Tag("long")
    void acknowledgedGroupsSurviveTwoHundredKillsWhole() throws Exception {
        soak(Integer.getInteger("basalt.soak.kills", 200), Integer.getInteger("basalt.soak.minutes", 30));
    }

    /** What one client sent, by group id: the group's size, and whether the write was acknowledged. */
    record Sent(int size, boolean acknowledged) {
    }

    private void soak(int kills, int minutes) throws Exception {
        long seed = Long.getLong("basalt.seed", System.nanoTime());
        System.out.println("ServerCrashSoakTest seed " + seed + " (-Dbasalt.seed=" + seed + " repeats it)");
        SplittableRandom random = new SplittableRandom(seed);
        Map<String, Sent> sent = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> serverErrors = new ConcurrentLinkedQueue<>();
        AtomicLong reads = new AtomicLong();
        AtomicLong cutOff = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        long started = System.nanoTime();
        long minNanos = TimeUnit.MINUTES.toNanos(minutes);
        Path log = LauncherProcess.OUTPUT.resolve("launcher-soak.log");
        try (LauncherProcess launcher = new LauncherProcess(data, log, "--no-repository")) {
            launcher.start();
            Rest setup = new Rest(launcher.serverUrl());
            assertEquals(204, setup.createRepository(REPO, ServerRestApiTest.config(REPO, "basalt:journalMode \"RW\"")).status());

            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                Client client = new Client(c, random.split(), launcher.serverUrl(), sent, serverErrors, reads, cutOff, running);
                clients.add(pool.submit(client));
            }
            int done = 0;
            while (done < kills || System.nanoTime() - started < minNanos) {
                Thread.sleep(2000 + random.nextInt(6000));
                launcher.close(); // SIGKILL
                done++;
                if (done < kills || System.nanoTime() - started < minNanos) {
                    launcher.start();
                }
            }
            running.set(false);
            for (Future<?> f : clients) {
                f.get(2, TimeUnit.MINUTES);
            }
            pool.shutdown();

            String verify = verify(journalDir(data));
            launcher.start();
            Map<String, Integer> sizes = new HashMap<>();
            Map<String, Integer> members = new HashMap<>();
            Rest after = new Rest(launcher.serverUrl());
            csvRows(after, "SELECT ?g ?k WHERE { ?g <" + EX + "size> ?k }").forEach(r -> sizes.put(id(r[0]), Integer.parseInt(r[1])));
            csvRows(after, "SELECT ?g (COUNT(?m) AS ?n) WHERE { ?m <" + EX + "in> ?g } GROUP BY ?g")
                    .forEach(r -> members.put(id(r[0]), Integer.parseInt(r[1])));
            launcher.stop();

            List<String> lost = new ArrayList<>();
            List<String> partial = new ArrayList<>();
            List<String> unknown = new ArrayList<>();
            long acknowledged = 0;
            for (Map.Entry<String, Sent> e : sent.entrySet()) {
                Sent s = e.getValue();
                Integer size = sizes.get(e.getKey());
                int n = members.getOrDefault(e.getKey(), 0);
                boolean whole = size != null && size == s.size() && n == s.size();
                boolean absent = size == null && n == 0;
                if (s.acknowledged()) {
                    acknowledged++;
                }
                if (s.acknowledged() && !whole) {
                    lost.add(e.getKey() + " (size " + size + ", " + n + " of " + s.size() + " members)");
                } else if (!whole && !absent) {
                    partial.add(e.getKey() + " (size " + size + ", " + n + " of " + s.size() + " members)");
                }
            }
            Stream.concat(sizes.keySet().stream(), members.keySet().stream()).distinct().filter(g -> !sent.containsKey(g))
                    .forEach(unknown::add);
            long present = sizes.size();
            String report = String.format(
                    "%d SIGKILLs in %.1f min of %d-client load (seed %d): %,d groups sent, %,d acknowledged, %,d cut off by a kill, "
                            + "%,d present after the last restart; %,d reads answered; lost %d, partial %d, unknown %d, 5xx %d%n%n%s%n",
                    done, (System.nanoTime() - started) / 6e10, CLIENTS, seed, sent.size(), acknowledged, cutOff.get(), present,
                    reads.get(), lost.size(), partial.size(), unknown.size(), serverErrors.size(), verify);
            Files.writeString(LauncherProcess.OUTPUT.resolve("soak-report.md"), report);
            System.out.println(report);

            assertTrue(lost.isEmpty(), lost.size() + " acknowledged groups not whole after the kills, e.g. " + head(lost));
            assertTrue(partial.isEmpty(), partial.size() + " groups present in part, e.g. " + head(partial));
            assertTrue(unknown.isEmpty(), unknown.size() + " groups present that no client sent, e.g. " + head(unknown));
            assertTrue(serverErrors.isEmpty(), serverErrors.size() + " 5xx answers, first: " + serverErrors.peek());
            assertTrue(acknowledged > done, "the clients got few writes through between kills: " + acknowledged
                    + " acknowledged over " + done + " kills; the soak did not exercise the server");
            assertTrue(cutOff.get() > 0, "no write was ever cut off by a kill; the kills did not land under load");
        }
    }

    private static List<String> head(List<String> items) {
        return items.stream().limit(5).toList();
    }

    private static String id(String iri) {
        return iri.startsWith(EX) ? iri.substring(EX.length()) : iri;
    }

    private static List<String[]> csvRows(Rest rest, String query) {
        Rest.Response r = rest.query(REPO, query, "text/csv");
        assertEquals(200, r.status(), r.body());
        return r.body().lines().skip(1).filter(l -> !l.isBlank()).map(l -> l.trim().split(",")).toList();
    }

    /** The directory holding the repository's journal, under the server's data directory. */
    private static Path journalDir(Path data) throws IOException {
        try (Stream<Path> walk = Files.walk(data)) {
            List<Path> journals = walk.filter(p -> p.getFileName().toString().equals("basalt.jnl")).toList();
            assertEquals(1, journals.size(), "one journal under " + data + ": " + journals);
            return journals.get(0).getParent();
        }
    }

    /** {@code basalt verify} in a child JVM (the server is down): its output, or a failure naming the problems. */
    private static String verify(Path store) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                "dev.basalt.sail.cli.BasaltCli", "verify", "--store", store.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "verify did not finish in 5 minutes");
        assertEquals(0, p.exitValue(), "basalt verify failed after the kills:\n" + out);
        return out.trim();
    }

    /**
     * One client: 40% writes of a new group (1 to 40 members plus its size statement), 60% reads. A write whose
     * connection breaks after it reached the server is cut off: its group may be present whole or not at all; one
     * refused while the server is down must be absent.
     */
    private static final class Client implements Runnable {
        private final int client;
        private final SplittableRandom random;
        private final String repositoryUrl;
        private final Map<String, Sent> sent;
        private final ConcurrentLinkedQueue<String> serverErrors;
        private final AtomicLong reads;
        private final AtomicLong cutOff;
        private final AtomicBoolean running;
        private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        private int seq;

        Client(int client, SplittableRandom random, String serverUrl, Map<String, Sent> sent,
               ConcurrentLinkedQueue<String> serverErrors, AtomicLong reads, AtomicLong cutOff, AtomicBoolean running) {
            this.client = client;
            this.random = random;
            this.repositoryUrl = serverUrl + "/repositories/" + REPO;
            this.sent = sent;
            this.serverErrors = serverErrors;
            this.reads = reads;
            this.cutOff = cutOff;
            this.running = running;
        }

        @Override
        public void run() {
            while (running.get()) {
                try {
                    if (random.nextInt(100) < 40) {
                        write();
                    } else {
                        read();
                    }
                } catch (IOException | IllegalStateException down) {
                    pause();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        private void write() throws IOException, InterruptedException {
            String group = "c" + client + "-" + seq++;
            int size = 1 + random.nextInt(40);
            StringBuilder triples = new StringBuilder();
            triples.append('<').append(EX).append(group).append("> <").append(EX).append("size> ").append(size).append(" .\n");
            for (int i = 0; i < size; i++) {
                triples.append('<').append(EX).append(group).append('/').append(i).append("> <").append(EX).append("in> <")
                        .append(EX).append(group).append("> .\n");
            }
            sent.put(group, new Sent(size, false));
            boolean acknowledged;
            try {
                int kind = random.nextInt(3);
                if (kind == 0) {
                    acknowledged = ok(send(post(repositoryUrl + "/statements", "text/turtle", triples.toString())));
                } else if (kind == 1) {
                    acknowledged = ok(send(post(repositoryUrl + "/statements", "application/x-www-form-urlencoded",
                            "update=" + Rest.encode("INSERT DATA { " + triples + " }"))));
                } else {
                    acknowledged = restTransaction(triples.toString(), size);
                }
            } catch (ConnectException down) {
                throw down; // never reached a server: the group is simply absent
            } catch (IOException cut) {
                cutOff.incrementAndGet();
                throw cut;
            }
            if (acknowledged) {
                sent.put(group, new Sent(size, true));
            }
        }

        /** BEGIN, the statements in two ADD requests, COMMIT: several requests, one transaction. */
        private boolean restTransaction(String triples, int size) throws IOException, InterruptedException {
            HttpResponse<String> begin = send(post(repositoryUrl + "/transactions", "application/x-www-form-urlencoded", ""));
            if (!ok(begin)) {
                return false;
            }
            String location = begin.headers().firstValue("Location").orElseThrow(
                    () -> new IllegalStateException("no Location in the answer to BEGIN"));
            String[] lines = triples.split("\n");
            int half = lines.length / 2;
            for (String part : List.of(String.join("\n", List.of(lines).subList(0, half)),
                    String.join("\n", List.of(lines).subList(half, lines.length)))) {
                if (!ok(send(put(location + "?action=ADD", "text/turtle", part)))) {
                    send(HttpRequest.newBuilder(URI.create(location)).DELETE());
                    return false;
                }
            }
            return ok(send(put(location + "?action=COMMIT", "text/plain", "")));
        }

        private void read() throws IOException, InterruptedException {
            String query = random.nextBoolean()
                    ? "SELECT (COUNT(*) AS ?n) WHERE { ?m <" + EX + "in> ?g }"
                    : "SELECT ?m WHERE { ?m <" + EX + "in> <" + EX + "c" + random.nextInt(CLIENTS) + "-"
                            + random.nextInt(Math.max(1, seq)) + "> }";
            HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(repositoryUrl)).header("Accept", "text/csv")
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("query=" + Rest.encode(query))));
            if (ok(r)) {
                reads.incrementAndGet();
            }
        }

        private boolean ok(HttpResponse<String> r) {
            if (r.statusCode() >= 500) {
                serverErrors.add("HTTP " + r.statusCode() + " " + r.uri() + ": " + r.body());
            }
            return r.statusCode() / 100 == 2;
        }

        private static HttpRequest.Builder post(String url, String contentType, String body) {
            return HttpRequest.newBuilder(URI.create(url)).header("Content-Type", contentType)
                    .POST(HttpRequest.BodyPublishers.ofString(body));
        }

        private static HttpRequest.Builder put(String url, String contentType, String body) {
            return HttpRequest.newBuilder(URI.create(url)).header("Content-Type", contentType)
                    .PUT(HttpRequest.BodyPublishers.ofString(body));
        }

        private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
            return http.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        }

        private void pause() {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
