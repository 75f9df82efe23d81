package dev.basalt.bench.load;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.basalt.bench.oxigraph.Oxigraph;
import dev.basalt.bench.oxigraph.OxigraphInstall;
import dev.basalt.bench.oxigraph.OxigraphServer;
import dev.basalt.bench.process.ChildProcess;
import dev.basalt.bench.store.StoreSetup;
import dev.basalt.bench.store.StoreSetups;

/**
 * The loaders a load comparison can run and the child processes around them: for each store name
 * of {@link LoadSettings#stores} the command that loads the data file into an empty directory and
 * the command that counts the loaded store; Basalt's jar and Oxigraph's install are looked up here,
 * and what cannot run is recorded in the results as skipped with its reason. Every child writes its
 * output to a log under the work directory's {@code logs}. Not thread-safe.
 */
final class Loaders {

	/**
	 * One way of loading.
	 *
	 * @param command         the child's command line for an empty store directory
	 * @param counter         counts the statements of a loaded store directory (opening it)
	 * @param repositoryStore the sail setup that opens the loaded store through the Repository API, or
	 *                        null when there is none (Oxigraph)
	 */
	record LoadPath(String id, String description, Function<Path, List<String>> command,
			ToLongFunction<Path> counter, String repositoryStore) {
	}

	static final String BASELINE = "basalt-baseline";
	private static final Pattern BASALT_STATEMENTS = Pattern.compile("^statements\\s+([\\d,]+)");
	private static final Pattern BASALT_BYTES = Pattern.compile("^bytes on disk\\s+([\\d,]*\\d) \\(in use ([\\d,]*\\d)");
	private static final Pattern LAST_NUMBER = Pattern.compile("(\\d+)$");

	private final LoadSettings settings;
	private final Consumer<String> progress;
	private final Path java = Path.of(System.getProperty("java.home"), "bin", "java");

	Loaders(LoadSettings settings, Consumer<String> progress) {
		this.settings = settings;
		this.progress = progress;
	}

	/** The load paths of the run, in the order asked; a path that cannot run is recorded as skipped. */
	List<LoadPath> paths(LoadResults results) {
		List<LoadPath> out = new ArrayList<>();
		for (String name : settings.stores) {
			switch (name) {
			case LoadSettings.BASALT -> {
				basalt(results).ifPresent(out::add);
				baseline(results).ifPresent(out::add);
			}
			case LoadSettings.OXIGRAPH -> out.addAll(oxigraph(results));
			default -> {
				StoreSetup setup = StoreSetups.byName(name);
				if (!setup.inProcess()) {
					throw new IllegalArgumentException(name + " cannot be loaded through the Repository API");
				}
				out.add(new LoadPath(setup.id(), setup.description() + "; Repository API `add(File)` in one transaction "
						+ "(isolation NONE), child JVM -Xmx" + settings.heap, dir -> repositoryLoad(setup.id(), dir,
								results.file), dir -> repositoryCount(setup.id(), dir), setup.id()));
			}
			}
		}
		return out;
	}

	private Optional<LoadPath> basalt(LoadResults results) {
		Path jar = LoadSettings.findBasaltJar(settings.basaltJar, codeSource());
		if (jar == null) {
			String why = (settings.basaltJar != null ? settings.basaltJar + " does not exist"
					: "sail/target/basalt.jar was not found (in the working directory or beside the bench jar's checkout)")
					+ "; build it with `mvn -pl sail -am package -DskipTests` or name it with --basalt-jar";
			results.skipped.put(LoadSettings.BASALT, why);
			progress.accept("Skipping basalt: " + why);
			return Optional.empty();
		}
		results.basaltJar = jar.toString();
		return Optional.of(new LoadPath(LoadSettings.BASALT, "Basalt bulk loader, `java -Xmx" + settings.heap
				+ " -jar " + jar + " load --store DIR FILE` (default indexes spoc,posc,ospc,cspo)",
				dir -> List.of(java.toString(), "-Xmx" + settings.heap, "-jar", jar.toAbsolutePath().toString(), "load",
						"--store", dir.toAbsolutePath().toString(), results.file.toAbsolutePath().toString()),
				dir -> basaltCount(jar, dir, results, LoadSettings.BASALT), StoreSetups.BASALT.id()));
	}

	/** The same bulk load with {@link LoadSettings#baselineJar}, if one was given and exists. */
	private Optional<LoadPath> baseline(LoadResults results) {
		Path jar = settings.baselineJar;
		if (jar == null) {
			return Optional.empty();
		}
		if (!Files.isRegularFile(jar)) {
			results.skipped.put(BASELINE, jar + " does not exist");
			progress.accept("Skipping " + BASELINE + ": " + jar + " does not exist");
			return Optional.empty();
		}
		return Optional.of(new LoadPath(BASELINE, "the same bulk load with the baseline jar `" + jar + "`",
				dir -> List.of(java.toString(), "-Xmx" + settings.heap, "-jar", jar.toAbsolutePath().toString(), "load",
						"--store", dir.toAbsolutePath().toString(), results.file.toAbsolutePath().toString()),
				dir -> basaltCount(jar, dir, results, BASELINE), null));
	}

	private List<LoadPath> oxigraph(LoadResults results) {
		OxigraphInstall.Outcome outcome = new OxigraphInstall(settings.python, settings.workDir.resolve("oxigraph-venv"),
				progress).prepare();
		if (outcome.oxigraph() == null) {
			results.skipped.put("oxigraph", outcome.skipReason());
			results.skipped.put("pyoxigraph", outcome.skipReason());
			return List.of();
		}
		Oxigraph ox = outcome.oxigraph();
		List<LoadPath> out = new ArrayList<>();
		out.add(new LoadPath("oxigraph", "Oxigraph " + OxigraphInstall.VERSION + ", `oxigraph load --location DIR --file "
				+ "FILE`", dir -> ox.loadCommand(dir.toAbsolutePath(), results.file.toAbsolutePath()),
				dir -> serveCount(ox, dir), null));
		if (ox.hasBinding()) {
			Path scripts = settings.workDir.toAbsolutePath().resolve("scripts");
			out.add(new LoadPath("pyoxigraph", "pyoxigraph " + OxigraphInstall.VERSION + ", `Store(DIR).bulk_load(path=FILE, "
					+ "format=RdfFormat.N_TRIPLES)` then `flush()`, in a Python script",
					dir -> ox.bulkLoadCommand(scripts, dir.toAbsolutePath(), results.file.toAbsolutePath()),
					dir -> lastNumber(runChecked("pyoxigraph-count", ox.countCommand(dir.toAbsolutePath()))), null));
		} else {
			results.skipped.put("pyoxigraph", ox.bindingSkip());
		}
		return out;
	}

	List<String> repositoryLoad(String store, Path dir, Path file) {
		return List.of(java.toString(), "-Xmx" + settings.heap, "-cp", classPath(),
				RepositoryLoadMain.class.getName(), "load", store, dir.toAbsolutePath().toString(),
				file.toAbsolutePath().toString());
	}

	long repositoryCount(String store, Path dir) {
		ChildProcess.Result r = runChecked(store + "-count", List.of(java.toString(), "-Xmx" + settings.heap, "-cp",
				classPath(), RepositoryLoadMain.class.getName(), "count", store,
				dir.toAbsolutePath().toString()));
		return lastNumber(r);
	}

	/** The statement count of {@code basalt stats}; its journal bytes in use go to the results' notes. */
	private long basaltCount(Path jar, Path dir, LoadResults results, String id) {
		ChildProcess.Result r = runChecked("basalt-stats", List.of(java.toString(), "-Xmx" + settings.heap, "-jar",
				jar.toAbsolutePath().toString(), "stats", "--store", dir.toAbsolutePath().toString()));
		BasaltStats stats;
		try {
			stats = BasaltStats.parse(Files.readAllLines(r.log(), StandardCharsets.UTF_8));
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot read " + r.log(), e);
		}
		if (stats.statements() < 0) {
			throw new IllegalStateException("`basalt stats` printed no statement count; see " + r.log());
		}
		if (stats.journal() != null) {
			results.notes.put(id, stats.journal());
		}
		return stats.statements();
	}

	/**
	 * What the load report takes from {@code basalt stats}: the statement count (-1 if missing) and a
	 * note on the journal's size and bytes in use (null if missing).
	 */
	record BasaltStats(long statements, String journal) {
		static BasaltStats parse(List<String> lines) {
			long statements = -1;
			String journal = null;
			for (String line : lines) {
				Matcher m = BASALT_STATEMENTS.matcher(line.strip());
				if (m.find()) {
					statements = Long.parseLong(m.group(1).replace(",", ""));
				}
				Matcher b = BASALT_BYTES.matcher(line.strip());
				if (b.find()) {
					journal = "`basalt stats`: journal file " + b.group(1) + " bytes, " + b.group(2) + " of them in use";
				}
			}
			return new BasaltStats(statements, journal);
		}
	}

	private long serveCount(Oxigraph ox, Path dir) {
		try (OxigraphServer server = OxigraphServer.start(ox, dir.toAbsolutePath(),
				settings.workDir.resolve("logs").resolve("oxigraph-serve.log"))) {
			return server.countTriples();
		}
	}

	ChildProcess.Result runChecked(String name, List<String> command) {
		ChildProcess.Result r = child(name).run(command, settings.workDir);
		if (!r.succeeded()) {
			throw new IllegalStateException(r.failure());
		}
		return r;
	}

	ChildProcess child(String name) {
		return new ChildProcess(settings.workDir.resolve("logs").resolve(name + ".log"), settings.timeoutSeconds);
	}

	/** The number on the last output line that is one ("statements 123", "123"). */
	static long lastNumber(ChildProcess.Result r) {
		for (int i = r.lastLines().size() - 1; i >= 0; i--) {
			Matcher m = LAST_NUMBER.matcher(r.lastLines().get(i));
			if (m.find()) {
				return Long.parseLong(m.group(1));
			}
		}
		throw new IllegalStateException("No count in the output of " + r.failure());
	}

	/** This JVM's class path with absolute entries, for children that run in the work directory. */
	private static String classPath() {
		return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
				.map(e -> Path.of(e).toAbsolutePath().toString()).collect(Collectors.joining(File.pathSeparator));
	}

	private static Path codeSource() {
		try {
			return Path.of(LoadComparison.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		} catch (Exception e) {
			return null;
		}
	}
}
