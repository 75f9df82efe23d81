package dev.basalt.bench.lubm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.sail.NotifyingSail;
import org.eclipse.rdf4j.sail.inferencer.fc.SchemaCachingRDFSInferencer;
import org.eclipse.rdf4j.sail.lmdb.LmdbStore;
import org.eclipse.rdf4j.sail.lmdb.config.LmdbStoreConfig;

import dev.basalt.bench.driver.QueryExecutor;
import dev.basalt.bench.load.LoadComparison;
import dev.basalt.bench.store.DiskUsage;
import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.InferenceMode;
import dev.basalt.sail.load.BasaltLoader;
import dev.basalt.sail.load.LoadOptions;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * LUBM with reasoning, side by side: LmdbStore (spoc,posc,ospc) and Basalt under RDF4J's
 * {@code SchemaCachingRDFSInferencer}, and Basalt with its native {@code rdfs} and {@code owl-rl}
 * closure, loaded through a connection at isolation NONE (ontology, then data) as the comparison
 * does, and the owl-rl store once more by the bulk loader. For each: load + closure time, closed
 * triples, the 14 queries (median of a few runs after one warm-up, with answer counts), and the
 * median time of committing one added statement to the closed store (after unmeasured warm-up
 * commits). Load + closure is reported in wall seconds and in CPU seconds of the process (user plus
 * system, all threads), which a shared machine distorts far less; so is each query's median, beside
 * its wall time. Prints markdown. A query that takes longer than the time limit (120 s unless set) is
 * reported as timed out; with no query runs the queries are skipped, and {@link #withQuerySetups}
 * restricts them to some setups (the others are loaded and closed only).
 */
public final class ReasoningBench {
	private static final ValueFactory VF = SimpleValueFactory.getInstance();
	private final Path data;
	private final Path ontology;
	private final Path workDir;
	private final int queryRuns;
	/** A query not answered within this time is reported as timed out (-1 answers) and not measured. */
	private int queryTimeoutSeconds = 120;
	/** Setups whose queries run, or null for all. */
	private Set<String> querySetups;
	private final Consumer<String> out;

	public ReasoningBench(Path data, Path ontology, Path workDir, int queryRuns, Consumer<String> out) {
		this.data = data;
		this.ontology = ontology;
		this.workDir = workDir;
		this.queryRuns = queryRuns;
		this.out = out;
	}

	public ReasoningBench withQueryTimeoutSeconds(int seconds) {
		this.queryTimeoutSeconds = seconds;
		return this;
	}

	/** Runs the queries on these setups only (null or empty: on all). */
	public ReasoningBench withQuerySetups(Collection<String> setups) {
		this.querySetups = setups == null || setups.isEmpty() ? null : Set.copyOf(setups);
		return this;
	}

	/** One measured setup: its row of figures. */
	record Row(String name, double loadSeconds, double loadCpuSeconds, long explicit, long total, LubmQueryTimes queries,
			double insertMillis) {
	}

	public List<Row> run(List<String> setups) {
		List<Row> rows = new ArrayList<>();
		for (String setup : setups) {
			Path dir = workDir.resolve("reasoning-" + setup);
			DiskUsage.delete(dir);
			rows.add(measure(setup, dir));
			DiskUsage.delete(dir);
		}
		print(rows);
		return rows;
	}

	private Row measure(String setup, Path dir) {
		out.accept("LUBM with reasoning on " + setup + " (load average " + LoadComparison.loadAverage() + ")");
		long t0 = System.nanoTime();
		long cpu0 = LubmQueryTimes.processCpuNanos();
		Repository repo = switch (setup) {
		case "lmdb-osp+schema-caching" -> new SailRepository(new SchemaCachingRDFSInferencer(
				new LmdbStore(dir.toFile(), new LmdbStoreConfig("spoc,posc,ospc"))));
		case "basalt+schema-caching" -> new BasaltRepository(new SchemaCachingRDFSInferencer(
				new BasaltStore(dir.toFile(), new BasaltStoreConfig())));
		case "basalt-rdfs" -> new BasaltRepository(new BasaltStore(dir.toFile(), config(InferenceMode.RDFS)));
		case "basalt-owl-rl" -> new BasaltRepository(new BasaltStore(dir.toFile(), config(InferenceMode.OWL_RL)));
		case "basalt-owl-rl-bulk" -> {
			BasaltLoader.load(dir, List.of(ontology, data),
					LoadOptions.defaults().withConfig(config(InferenceMode.OWL_RL)));
			yield new BasaltRepository(new BasaltStore(dir.toFile(), config(InferenceMode.OWL_RL)));
		}
		default -> throw new IllegalArgumentException("unknown setup " + setup
				+ "; known: lmdb-osp+schema-caching, basalt+schema-caching, basalt-rdfs, basalt-owl-rl, basalt-owl-rl-bulk");
		};
		repo.init();
		try {
			if (!setup.endsWith("-bulk")) {
				try (RepositoryConnection c = repo.getConnection()) {
					c.begin(IsolationLevels.NONE);
					c.add(ontology.toFile(), RDFFormat.RDFXML);
					c.commit();
					c.begin(IsolationLevels.NONE);
					c.add(data.toFile(), RDFFormat.NTRIPLES);
					c.commit();
				} catch (IOException e) {
					throw new UncheckedIOException("cannot read " + data + " or " + ontology, e);
				}
			}
			double load = (System.nanoTime() - t0) / 1e9;
			double loadCpu = (LubmQueryTimes.processCpuNanos() - cpu0) / 1e9;
			long explicit;
			long total;
			try (RepositoryConnection c = repo.getConnection()) {
				explicit = c.size();
				total = QueryExecutor.count(c, "SELECT * WHERE { ?s ?p ?o }");
			}
			out.accept(String.format(Locale.ROOT, "  load + closure %.1f s, %.1f s CPU: %,d explicit, %,d inferred (load average %s)",
					load, loadCpu, explicit, total - explicit, LoadComparison.loadAverage()));
			boolean queries = queryRuns > 0 && (querySetups == null || querySetups.contains(setup));
			LubmQueryTimes times;
			try (RepositoryConnection c = repo.getConnection()) {
				times = queries ? LubmQueryTimes.run(c, queryRuns, queryTimeoutSeconds, false, out) : LubmQueryTimes.notRun();
			}
			return new Row(setup, load, loadCpu, explicit, total, times, insertMillis(repo));
		} finally {
			repo.shutDown();
		}
	}

	/** Commits of one added statement made before the measured ones, so the JIT has compiled the commit path. */
	static final int INSERT_WARMUP = 30;
	/** Measured commits of one added statement. */
	static final int INSERT_RUNS = 101;

	/**
	 * Median time of a transaction adding one new graduate student taking one course: {@value #INSERT_RUNS}
	 * measured after {@value #INSERT_WARMUP} unmeasured ones (each followed by an unmeasured commit typing the
	 * student, as a client would).
	 */
	private static double insertMillis(Repository repo) {
		String ub = LubmGenerator.UB;
		IRI course = VF.createIRI("http://www.Department0.University0.edu/GraduateCourse0");
		double[] times = new double[INSERT_RUNS];
		try (RepositoryConnection c = repo.getConnection()) {
			for (int i = -INSERT_WARMUP; i < times.length; i++) {
				IRI student = VF.createIRI("http://www.Department0.University0.edu/NewStudent" + (i + INSERT_WARMUP));
				long s = System.nanoTime();
				c.begin();
				c.add(student, VF.createIRI(ub + "takesCourse"), course);
				c.commit();
				if (i >= 0) {
					times[i] = (System.nanoTime() - s) / 1e6;
				}
				c.add(student, RDF.TYPE, VF.createIRI(ub + "GraduateStudent"));
			}
		}
		Arrays.sort(times);
		return times[times.length / 2];
	}

	private static BasaltStoreConfig config(InferenceMode mode) {
		BasaltStoreConfig c = new BasaltStoreConfig();
		c.setInference(mode);
		return c;
	}

	private void print(List<Row> rows) {
		StringBuilder b = new StringBuilder("\n| setup | load + closure s | load + closure CPU s | explicit | closed (explicit + inferred) | commit of one added statement, median ms |\n|---|---:|---:|---:|---:|---:|\n");
		for (Row r : rows) {
			b.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %,d | %,d | %.1f |%n", r.name(), r.loadSeconds(),
					r.loadCpuSeconds(), r.explicit(), r.total(), r.insertMillis()));
		}
		b.append("\n| query |");
		rows.forEach(r -> b.append(' ').append(r.name()).append(" ms, CPU ms (answers) |"));
		b.append("\n|---|");
		rows.forEach(r -> b.append("---:|"));
		b.append('\n');
		for (int q = 0; q < LubmQueries.ALL.size(); q++) {
			b.append("| ").append(LubmQueries.ALL.get(q).name()).append(" |");
			for (Row r : rows) {
				b.append(r.queries().cell(q));
			}
			b.append('\n');
		}
		out.accept(b.toString());
	}
}
