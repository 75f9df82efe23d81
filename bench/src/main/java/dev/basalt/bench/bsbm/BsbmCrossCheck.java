package dev.basalt.bench.bsbm;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.rdf4j.repository.Repository;

import dev.basalt.bench.driver.QueryClient;
import dev.basalt.bench.driver.QueryTemplate;

/**
 * The result counts of the 12 Explore queries (or of the Business Intelligence mix's 8), each with
 * the same parameter sets on every store: query n draws its sets from a stream seeded with {@code seed * 31 + n}, so two stores holding the
 * same dataset must return equal counts, set by set, whether reached in-process or over HTTP.
 *
 * <p>Stateless; any thread may call it, and it uses the client or repository it is given on the calling
 * thread only.
 */
public final class BsbmCrossCheck {

	private BsbmCrossCheck() {
	}

	/** The instance of query {@code template} for each of {@code instances} parameter sets. */
	public static String[] instances(QueryTemplate template, BsbmParameters parameters, long seed, int instances) {
		return instances(template, parameters::draw, seed, instances);
	}

	/**
	 * Like {@link #instances(QueryTemplate, BsbmParameters, long, int)} with the placeholder values of
	 * {@code draw} (query number, random stream); the number is the digits of the template's name
	 * ("Q3", "BI3").
	 */
	public static String[] instances(QueryTemplate template, BiFunction<Integer, SplittableRandom, Map<String, String>> draw,
			long seed, int instances) {
		int number = Integer.parseInt(template.name().replaceAll("\\D", ""));
		SplittableRandom random = new SplittableRandom(seed * 31 + number);
		String[] out = new String[instances];
		for (int i = 0; i < instances; i++) {
			out[i] = template.instantiate(draw.apply(number, random));
		}
		return out;
	}

	private static final Pattern DESCRIBE = Pattern.compile("DESCRIBE\\s+(\\?\\w+)\\s+WHERE\\s*\\{");

	public static boolean isDescribe(QueryTemplate template) {
		return DESCRIBE.matcher(template.text()).find();
	}

	/**
	 * {@code DESCRIBE ?x WHERE { P }} as {@code CONSTRUCT { ?x ?p ?o } WHERE { ?x ?p ?o . P }}: the
	 * described resource's outgoing statements (BSBM has no blank nodes to follow).
	 */
	public static String outgoingStatements(String describeQuery) {
		Matcher m = DESCRIBE.matcher(describeQuery);
		if (!m.find()) {
			throw new IllegalArgumentException("Not a DESCRIBE ?var WHERE { ... } query: " + describeQuery);
		}
		String v = m.group(1);
		return describeQuery.substring(0, m.start()) + "CONSTRUCT { " + v + " ?describedP ?describedO } WHERE { " + v
				+ " ?describedP ?describedO . " + describeQuery.substring(m.end());
	}

	/** Query name ("Q1" ...), then the result count per parameter set. */
	public static Map<String, long[]> counts(Repository repository, BsbmParameters parameters, long seed,
			int instances) {
		try (QueryClient client = QueryClient.of(repository)) {
			return counts(client, parameters, seed, instances);
		}
	}

	/** Like {@link #counts(Repository, BsbmParameters, long, int)} through {@code client}. */
	public static Map<String, long[]> counts(QueryClient client, BsbmParameters parameters, long seed,
			int instances) {
		return counts(client, BsbmQueries.ALL, parameters::draw, seed, instances);
	}

	/** Like {@link #counts(QueryClient, BsbmParameters, long, int)} for other templates (the BI mix's). */
	public static Map<String, long[]> counts(QueryClient client, List<QueryTemplate> templates,
			BiFunction<Integer, SplittableRandom, Map<String, String>> draw, long seed, int instances) {
		Map<String, long[]> out = new LinkedHashMap<>();
		for (QueryTemplate t : templates) {
			String[] queries = instances(t, draw, seed, instances);
			long[] counts = new long[queries.length];
			for (int i = 0; i < queries.length; i++) {
				counts[i] = client.count(t.form(), queries[i]);
			}
			out.put(t.name(), counts);
		}
		return out;
	}
}
