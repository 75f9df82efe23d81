package dev.basalt.bench.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import org.eclipse.rdf4j.repository.Repository;

/**
 * Runs a query mix against a repository with N concurrent clients, each with its own connection and
 * its own random stream derived from a fixed seed, so a run is repeatable. A phase ends either after
 * a number of mixes or at a deadline; clients finish the mix they are in (a mix is the unit of
 * work), and QMpH counts complete mixes over the wall-clock time until the last client stops.
 *
 * <p>Each client thread opens its own {@link QueryClient}: a connection of a local SailRepository or
 * of RDF4J's SPARQLRepository, or the bench's own SPARQL protocol client.
 */
public final class MixDriver {

	private final List<QueryTemplate> templates;
	private final List<Integer> mix;
	private final BiFunction<Integer, SplittableRandom, Map<String, String>> parameters;

	/**
	 * @param templates  query templates; query number n is {@code templates.get(n - 1)}
	 * @param mix        the query numbers of one mix, in order
	 * @param parameters draws the placeholder values for query number n
	 */
	public MixDriver(List<QueryTemplate> templates, List<Integer> mix,
			BiFunction<Integer, SplittableRandom, Map<String, String>> parameters) {
		this.templates = templates;
		this.mix = mix;
		this.parameters = parameters;
	}

	/** Runs until each client completed {@code mixesPerClient} mixes or {@code maxSeconds} passed. */
	public MixResult run(Repository repository, int clients, long mixesPerClient, double maxSeconds, long seed) {
		return run(() -> QueryClient.of(repository), clients, mixesPerClient, maxSeconds, seed);
	}

	/** Like {@link #run(Repository, int, long, double, long)}, each client thread with a client of its own. */
	public MixResult run(Supplier<QueryClient> newClient, int clients, long mixesPerClient, double maxSeconds,
			long seed) {
		ExecutorService pool = Executors.newFixedThreadPool(clients);
		long start = System.nanoTime();
		// a time budget, not an absolute deadline: start + budget would overflow for "no limit"
		long budget = maxSeconds * 1e9 >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) (maxSeconds * 1e9);
		try {
			List<Future<ClientResult>> futures = new ArrayList<>();
			for (int c = 0; c < clients; c++) {
				SplittableRandom random = new SplittableRandom(seed * 1_000_003L + c);
				futures.add(pool.submit(() -> runClient(newClient, random, mixesPerClient, start, budget)));
			}
			long mixes = 0;
			Map<String, QueryStats> perQuery = new TreeMap<>();
			for (Future<ClientResult> f : futures) {
				ClientResult r = f.get();
				mixes += r.mixes;
				r.perQuery.forEach((q, s) -> perQuery.computeIfAbsent(q, k -> new QueryStats()).merge(s));
			}
			double elapsed = (System.nanoTime() - start) / 1e9;
			return new MixResult(clients, mixes, elapsed, perQuery);
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running the query mix", e);
		} catch (ExecutionException e) {
			throw new IllegalStateException("A benchmark client failed: " + e.getCause(), e.getCause());
		} finally {
			pool.shutdownNow();
		}
	}

	private ClientResult runClient(Supplier<QueryClient> newClient, SplittableRandom random, long mixesPerClient,
			long start, long budgetNanos) {
		ClientResult result = new ClientResult();
		try (QueryClient client = newClient.get()) {
			while (result.mixes < mixesPerClient && System.nanoTime() - start < budgetNanos) {
				for (int number : mix) {
					QueryTemplate t = templates.get(number - 1);
					String sparql = t.instantiate(parameters.apply(number, random));
					long begin = System.nanoTime();
					long results = client.count(t.form(), sparql);
					result.perQuery.computeIfAbsent(t.name(), k -> new QueryStats()).record(System.nanoTime() - begin,
							results);
				}
				result.mixes++;
			}
		}
		return result;
	}

	private static final class ClientResult {
		long mixes;
		final Map<String, QueryStats> perQuery = new TreeMap<>();
	}
}
