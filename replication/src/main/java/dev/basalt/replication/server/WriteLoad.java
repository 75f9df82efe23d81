package dev.basalt.replication.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code basalt-replica write-load --urls R1,R2,... [--clients 8] [--statements 10] [--seconds 30]
 * [--pids P1,P2,...]}: clients that each commit small transactions (one SPARQL INSERT DATA of
 * {@code statements} new statements) to the repositories in turn for a fixed time, then report
 * transactions and statements per second, commit latency percentiles, and, for the given server
 * process ids, the CPU seconds they used meanwhile (from /proc). A measuring tool for
 * docs/benchmarks-replication.md; it prints to the console.
 *
 * <p>Thread rules: the calling thread starts one thread per client and joins them all before reading their results;
 * each client writes only its own latency array, failures are counted in an {@link AtomicLong}, and the clients
 * share one {@link HttpClient}, which is thread-safe.
 */
final class WriteLoad {
    private WriteLoad() {
    }

    static void run(String[] args) throws Exception {
        List<String> urls = List.of();
        int clients = 8;
        int statements = 10;
        int seconds = 30;
        List<Long> pids = List.of();
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--urls" -> urls = List.of(args[i + 1].split(","));
                case "--clients" -> clients = Integer.parseInt(args[i + 1]);
                case "--statements" -> statements = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--pids" -> pids = Arrays.stream(args[i + 1].split(",")).map(Long::parseLong).toList();
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'");
            }
        }
        if (urls.isEmpty()) {
            throw new IllegalArgumentException("usage: write-load --urls R1,R2,... [--clients 8] [--statements 10]"
                    + " [--seconds 30] [--pids P1,...]");
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        long[] cpuBefore = cpu(pids);
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        AtomicLong failed = new AtomicLong();
        List<long[]> latencies = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long runId = System.currentTimeMillis();
        for (int c = 0; c < clients; c++) {
            int client = c;
            long[] mine = new long[1 << 20];
            latencies.add(mine);
            List<String> targets = urls;
            int perTx = statements;
            Thread t = new Thread(() -> {
                int n = 0;
                for (long seq = 0; System.nanoTime() < end; seq++) {
                    StringBuilder update = new StringBuilder("INSERT DATA {");
                    for (int i = 0; i < perTx; i++) {
                        update.append(" <urn:load:").append(runId).append(':').append(client).append(':').append(seq)
                                .append("> <urn:p").append(i).append("> \"value ").append(i).append("\" .");
                    }
                    update.append(" }");
                    String url = targets.get((int) ((client + seq) % targets.size()));
                    HttpRequest post = HttpRequest.newBuilder(URI.create(url + "/statements"))
                            .header("Content-Type", "application/sparql-update").timeout(Duration.ofSeconds(60))
                            .POST(HttpRequest.BodyPublishers.ofString(update.toString())).build();
                    long start = System.nanoTime();
                    try {
                        if (http.send(post, HttpResponse.BodyHandlers.discarding()).statusCode() == 204) {
                            if (n < mine.length) {
                                mine[n++] = System.nanoTime() - start;
                            }
                        } else {
                            failed.incrementAndGet();
                        }
                    } catch (IOException e) {
                        failed.incrementAndGet();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                mine[mine.length - 1] = n;
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        long[] cpuAfter = cpu(pids);
        List<Long> all = new ArrayList<>();
        for (long[] mine : latencies) {
            for (int i = 0; i < mine[mine.length - 1]; i++) {
                all.add(mine[i]);
            }
        }
        all.sort(null);
        int tx = all.size();
        System.out.printf("%d clients, %d statements per transaction, %d s, %d replicas: %d transactions (%.1f/s),"
                + " %.0f statements/s, %d failed%n", clients, statements, seconds, urls.size(), tx,
                tx / (double) seconds, tx * statements / (double) seconds, failed.get());
        if (tx > 0) {
            System.out.printf("commit latency ms: p50 %.1f, p90 %.1f, p99 %.1f%n", all.get(tx / 2) / 1e6,
                    all.get(tx * 9 / 10) / 1e6, all.get(Math.min(tx - 1, tx * 99 / 100)) / 1e6);
        }
        for (int i = 0; i < pids.size(); i++) {
            double cpuSeconds = (cpuAfter[i] - cpuBefore[i]) / 100.0;
            System.out.printf("pid %d: %.1f CPU s, %.2f CPU ms per transaction%n", pids.get(i), cpuSeconds,
                    tx == 0 ? 0 : cpuSeconds * 1000 / tx);
        }
    }

    /** utime + stime of each process in clock ticks (1/100 s on Linux). */
    private static long[] cpu(List<Long> pids) throws IOException {
        long[] ticks = new long[pids.size()];
        for (int i = 0; i < pids.size(); i++) {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pids.get(i)), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            ticks[i] = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        }
        return ticks;
    }
}
