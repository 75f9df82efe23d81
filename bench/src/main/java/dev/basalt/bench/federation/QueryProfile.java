package dev.basalt.bench.federation;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.eclipse.rdf4j.repository.sparql.SPARQLRepository;

import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.bench.bsbm.BsbmQueries;
import dev.basalt.bench.driver.QueryClient;
import dev.basalt.bench.driver.QueryTemplate;

/**
 * Where each query's time and CPU go: every query of the reduced mix, one template at a time, run
 * with the same parameter sets on the single server and through the federation's front (after one
 * warm-up pass of the same sets on both), measuring mean wall-clock time, the CPU of the single
 * server, of the front and of all members (each process's own accounting), and the HTTP requests the
 * front sent to members (its {@code GET /stats}). One client, one query at a time, so each CPU
 * difference belongs to the template measured.
 *
 * <p>Not thread-safe; one {@link #run} per instance.
 */
final class QueryProfile {
	private final String singleUrl;
	private final String frontUrl;
	private final Supplier<double[]> cpu;
	private final FederationBench.Options options;
	private final Consumer<String> progress;
	private final HttpClient http = HttpClient.newHttpClient();

	/** @param cpu CPU seconds so far of: the single server, the front, all members */
	QueryProfile(String singleUrl, String frontUrl, Supplier<double[]> cpu, FederationBench.Options options,
			Consumer<String> progress) {
		this.singleUrl = singleUrl;
		this.frontUrl = frontUrl;
		this.cpu = cpu;
		this.options = options;
		this.progress = progress;
	}

	/** Runs {@code instances} parameter sets of each query on both; returns a Markdown table. */
	String run(int instances) {
		BsbmParameters parameters = new BsbmParameters(new BsbmModel(options.products(), options.seed()));
		SPARQLRepository single = new SPARQLRepository(singleUrl);
		SPARQLRepository front = new SPARQLRepository(frontUrl);
		single.init();
		front.init();
		StringBuilder table = new StringBuilder("| query | one server ms | one server CPU ms | federation ms | ratio |"
				+ " front CPU ms | members CPU ms | member requests |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
		try (QueryClient s = QueryClient.of(single); QueryClient f = QueryClient.of(front)) {
			for (int number : new LinkedHashSet<>(BsbmQueries.MIXES.get("reduced"))) {
				QueryTemplate t = BsbmQueries.ALL.get(number - 1);
				SplittableRandom random = new SplittableRandom(options.seed() * 31 + number);
				List<String> queries = new ArrayList<>();
				for (int i = 0; i < instances; i++) {
					queries.add(t.instantiate(parameters.draw(number, random)));
				}
				for (String q : queries) {
					s.count(t.form(), q);
					f.count(t.form(), q);
				}
				double[] c0 = cpu.get();
				long t0 = System.nanoTime();
				for (String q : queries) {
					s.count(t.form(), q);
				}
				long t1 = System.nanoTime();
				double[] c1 = cpu.get();
				long r1 = memberRequests();
				for (String q : queries) {
					f.count(t.form(), q);
				}
				long t2 = System.nanoTime();
				double[] c2 = cpu.get();
				long r2 = memberRequests();
				double singleMs = (t1 - t0) / 1e6 / instances;
				double federationMs = (t2 - t1) / 1e6 / instances;
				String row = String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %.1f | %.2f | %.2f | %s |", t.name(),
						singleMs, 1000 * (c1[0] - c0[0]) / instances, federationMs, federationMs / singleMs,
						1000 * (c2[1] - c1[1]) / instances, 1000 * (c2[2] - c1[2]) / instances,
						r1 < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", (r2 - r1) / (double) instances));
				progress.accept(row);
				table.append(row).append('\n');
			}
		} finally {
			single.shutDown();
			front.shutDown();
		}
		return table.toString();
	}

	/** The front's count of requests sent to members, or -1 when it does not report one. */
	private long memberRequests() {
		try {
			String stats = frontUrl.substring(0, frontUrl.lastIndexOf('/')) + "/stats";
			HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(stats)).build(),
					HttpResponse.BodyHandlers.ofString());
			for (String line : r.body().split("\n")) {
				if (line.startsWith("member-requests ")) {
					return Long.parseLong(line.substring("member-requests ".length()).trim());
				}
			}
			return -1;
		} catch (java.io.IOException | RuntimeException e) {
			return -1;
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return -1;
		}
	}
}
