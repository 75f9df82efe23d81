package dev.basalt.bench.load;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.basalt.bench.bsbm.BsbmGenerator;
import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.oxigraph.Oxigraph;
import dev.basalt.bench.oxigraph.OxigraphInstall;
import dev.basalt.bench.oxigraph.OxigraphServer;
import dev.basalt.bench.process.ChildProcess;
import dev.basalt.bench.store.DiskUsage;
import dev.basalt.bench.store.StoreSetup;
import dev.basalt.bench.store.StoreSetups;

/**
 * Loads one N-Triples file into a new durable store by every path asked for, side by side in one
 * run, each as its own process timed from start to exit (the wall clock a user waits for): Basalt's
 * bulk loader ({@code java -jar basalt.jar load}), sail setups such as LmdbStore through the
 * Repository API ({@link RepositoryLoadMain}, one transaction), {@code oxigraph load}, and pyoxigraph's
 * {@code Store.bulk_load}. Each process's peak RSS comes from {@link ChildProcess}; bytes on disk are
 * taken when the loader exits and again after the store was opened to count its statements, which
 * checks the load and shows the files some stores rewrite when they open.
 *
 * <p>With {@link LoadSettings#further}, each Java store then takes a further file of about 1M new
 * triples through the Repository API, into the loaded store and into an empty one, so that the two
 * rates can be compared. Store directories live under the work directory and are deleted after
 * their measurements unless kept. Not thread-safe; progress lines go to the given consumer.
 */
public final class LoadComparison {

	/** BSBM products of the further file: 2,785 gives about 1M triples. */
	static final int FURTHER_PRODUCTS = 2_785;
	/** The further file's instance IRIs move here, so that none of its statements is in the loaded store. */
	static final String INSTANCES = "http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/instances/";
	static final String FURTHER_INSTANCES = "http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/instances-further/";

	private static final Pattern BASALT_STATEMENTS = Pattern.compile("^statements\\s+([\\d,]+)");
	private static final Pattern BASALT_BYTES = Pattern.compile("^bytes on disk\\s+([\\d,]+) \\(in use ([\\d,]+)");
	private static final Pattern INNER_SECONDS = Pattern.compile("^loaded in ([\\d.]+) s");

	/** One way of loading: its command into an empty directory and how to count the loaded store. */
	private record LoadPath(String id, String description, Function<Path, List<String>> command,
			ToLongFunction<Path> counter, String repositoryStore) {
	}

	private final LoadSettings settings;
	private final Consumer<String> progress;
	private final Path java = Path.of(System.getProperty("java.home"), "bin", "java");

	public LoadComparison(LoadSettings settings, Consumer<String> progress) {
		this.settings = settings;
		this.progress = progress;
	}

	public LoadResults run() {
		long start = System.nanoTime();
		LoadResults results = new LoadResults(settings);
		results.loadAverageStart = loadAverage();
		createDirectories(settings.workDir);
		prepareData(results);
		List<LoadPath> paths = paths(results);
		results.rssUnavailable = child("load").rssUnavailableReason();
		for (int round = 1; round <= settings.rounds; round++) {
			for (int i = 0; i < paths.size(); i++) {
				LoadPath p = paths.get((i + round - 1) % paths.size());
				boolean last = round == settings.rounds;
				LoadResults.Row row = load(p, round, results);
				results.rows.add(row);
				Path dir = storeDir(p.id());
				if (last && settings.further && p.repositoryStore() != null) {
					results.further.add(further(p, dir, row.triples(), results));
				}
				if (!settings.keepData) {
					DiskUsage.delete(dir);
				}
			}
		}
		results.totalSeconds = (System.nanoTime() - start) / 1e9;
		results.loadAverageEnd = loadAverage();
		return results;
	}

	private void prepareData(LoadResults results) {
		if (settings.file != null) {
			if (!Files.isReadable(settings.file)) {
				throw new IllegalArgumentException("Cannot read the data file " + settings.file.toAbsolutePath()
						+ " given with --file");
			}
			results.file = settings.file;
			progress.accept("Counting the statements of " + settings.file);
			results.fileTriples = countStatementLines(settings.file);
		} else {
			results.file = settings.workDir.resolve("bsbm-" + settings.products + ".nt");
			progress.accept("Generating BSBM with " + settings.products + " products to " + results.file);
			long t0 = System.nanoTime();
			results.fileTriples = new BsbmGenerator(new BsbmModel(settings.products, settings.seed)).write(results.file)
					.total();
			results.generateSeconds = (System.nanoTime() - t0) / 1e9;
		}
		results.fileBytes = size(results.file);
		progress.accept(String.format(Locale.ROOT, "  %,d triples, %,d bytes", results.fileTriples, results.fileBytes));
		if (settings.further) {
			results.furtherFile = settings.workDir.resolve("bsbm-further-" + furtherProducts() + ".nt");
			results.furtherTriples = writeFurtherFile(results.furtherFile);
			progress.accept(String.format(Locale.ROOT, "Further file %s: %,d triples", results.furtherFile,
					results.furtherTriples));
		}
	}

	private int furtherProducts() {
		return Math.min(FURTHER_PRODUCTS, settings.products);
	}

	/**
	 * BSBM at about 1M triples with another seed, its instance IRIs moved to {@link #FURTHER_INSTANCES}:
	 * new subjects and objects for the loaded store, with the same vocabulary and similar literals.
	 */
	long writeFurtherFile(Path out) {
		Path raw = out.resolveSibling(out.getFileName() + ".tmp");
		new BsbmGenerator(new BsbmModel(furtherProducts(), settings.seed + 1)).write(raw);
		long n = 0;
		try (BufferedReader in = Files.newBufferedReader(raw, StandardCharsets.UTF_8);
				BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
			for (String line = in.readLine(); line != null; line = in.readLine()) {
				w.write(line.replace(INSTANCES, FURTHER_INSTANCES));
				w.newLine();
				if (isStatement(line)) {
					n++;
				}
			}
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot write the further file " + out, e);
		}
		DiskUsage.delete(raw);
		return n;
	}

	/** The load paths of the run, in the order asked; a path that cannot run is recorded as skipped. */
	private List<LoadPath> paths(LoadResults results) {
		List<LoadPath> out = new ArrayList<>();
		for (String name : settings.stores) {
			switch (name) {
			case LoadSettings.BASALT -> basalt(results).ifPresent(out::add);
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
				dir -> basaltCount(jar, dir, results), StoreSetups.BASALT.id()));
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

	private LoadResults.Row load(LoadPath p, int round, LoadResults results) {
		Path dir = storeDir(p.id());
		DiskUsage.delete(dir);
		createDirectories(dir);
		progress.accept("Round " + round + ": loading into " + p.id());
		ChildProcess.Result r = child(round + "-" + p.id() + "-load").run(p.command().apply(dir), settings.workDir);
		if (!r.succeeded()) {
			throw new IllegalStateException(p.id() + " could not load " + results.file + ": " + r.failure());
		}
		long afterLoad = DiskUsage.bytes(dir);
		long triples = p.counter().applyAsLong(dir);
		long afterOpen = DiskUsage.bytes(dir);
		LoadResults.Row row = new LoadResults.Row(round, p.id(), p.description(), r.seconds(), triples, r.peakRssBytes(),
				afterLoad, afterOpen);
		progress.accept(String.format(Locale.ROOT, "  %,d triples in %.1f s: %,.0f triples/s, peak RSS %,d MB, %.1f bytes/"
				+ "triple after the load, %.1f after the next open", triples, r.seconds(), row.triplesPerSecond(),
				r.peakRssBytes() >> 20, row.bytesPerTriple(), row.bytesPerTripleAfterOpen()));
		if (triples != results.fileTriples) {
			progress.accept(String.format(Locale.ROOT, "  NOTE: %s holds %,d statements; the file has %,d statement lines "
					+ "(duplicates count once)", p.id(), triples, results.fileTriples));
		}
		return row;
	}

	/** The further file into the store {@code loaded} holding {@code before} statements, and into an empty one. */
	private LoadResults.Further further(LoadPath p, Path loaded, long before, LoadResults results) {
		String store = p.repositoryStore();
		progress.accept("Further file through the Repository API into the loaded " + p.id() + " store");
		ChildProcess.Result full = runChecked(p.id() + "-further-full", repositoryLoad(store, loaded, results.furtherFile));
		long after = repositoryCount(store, loaded);
		Path empty = storeDir(p.id() + "-further-empty");
		DiskUsage.delete(empty);
		createDirectories(empty);
		progress.accept("Further file through the Repository API into an empty " + p.id() + " store");
		ChildProcess.Result alone = runChecked(p.id() + "-further-empty", repositoryLoad(store, empty,
				results.furtherFile));
		DiskUsage.delete(empty);
		LoadResults.Further f = new LoadResults.Further(p.id(), results.furtherTriples, full.seconds(), inner(full),
				alone.seconds(), inner(alone), after, before + results.furtherTriples);
		progress.accept(String.format(Locale.ROOT, "  into the loaded store %.1f s (%,.0f triples/s), into an empty one "
				+ "%.1f s (%,.0f triples/s): %.0f%%", f.fullSeconds(), f.fullRate(), f.emptySeconds(), f.emptyRate(),
				100 * f.fullRate() / f.emptyRate()));
		return f;
	}

	private List<String> repositoryLoad(String store, Path dir, Path file) {
		return List.of(java.toString(), "-Xmx" + settings.heap, "-cp", classPath(),
				RepositoryLoadMain.class.getName(), "load", store, dir.toAbsolutePath().toString(),
				file.toAbsolutePath().toString());
	}

	private long repositoryCount(String store, Path dir) {
		ChildProcess.Result r = runChecked(store + "-count", List.of(java.toString(), "-Xmx" + settings.heap, "-cp",
				classPath(), RepositoryLoadMain.class.getName(), "count", store,
				dir.toAbsolutePath().toString()));
		return lastNumber(r);
	}

	/** The statement count of {@code basalt stats}; its journal bytes in use go to the results' notes. */
	private long basaltCount(Path jar, Path dir, LoadResults results) {
		ChildProcess.Result r = runChecked("basalt-stats", List.of(java.toString(), "-Xmx" + settings.heap, "-jar",
				jar.toAbsolutePath().toString(), "stats", "--store", dir.toAbsolutePath().toString()));
		long statements = -1;
		try {
			for (String line : Files.readAllLines(r.log(), StandardCharsets.UTF_8)) {
				Matcher m = BASALT_STATEMENTS.matcher(line.strip());
				if (m.find()) {
					statements = Long.parseLong(m.group(1).replace(",", ""));
				}
				Matcher b = BASALT_BYTES.matcher(line.strip());
				if (b.find()) {
					results.notes.put(LoadSettings.BASALT, "`basalt stats`: journal file " + b.group(1) + " bytes, "
							+ b.group(2) + " of them in use");
				}
			}
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot read " + r.log(), e);
		}
		if (statements < 0) {
			throw new IllegalStateException("`basalt stats` printed no statement count; see " + r.log());
		}
		return statements;
	}

	private long serveCount(Oxigraph ox, Path dir) {
		try (OxigraphServer server = OxigraphServer.start(ox, dir.toAbsolutePath(),
				settings.workDir.resolve("logs").resolve("oxigraph-serve.log"))) {
			return server.countTriples();
		}
	}

	private ChildProcess.Result runChecked(String name, List<String> command) {
		ChildProcess.Result r = child(name).run(command, settings.workDir);
		if (!r.succeeded()) {
			throw new IllegalStateException(r.failure());
		}
		return r;
	}

	private ChildProcess child(String name) {
		return new ChildProcess(settings.workDir.resolve("logs").resolve(name + ".log"), settings.timeoutSeconds);
	}

	/** The number on the last output line that is one ("statements 123", "123"). */
	static long lastNumber(ChildProcess.Result r) {
		for (int i = r.lastLines().size() - 1; i >= 0; i--) {
			Matcher m = Pattern.compile("(\\d+)$").matcher(r.lastLines().get(i));
			if (m.find()) {
				return Long.parseLong(m.group(1));
			}
		}
		throw new IllegalStateException("No count in the output of " + r.failure());
	}

	private static double inner(ChildProcess.Result r) {
		for (String line : r.lastLines()) {
			Matcher m = INNER_SECONDS.matcher(line);
			if (m.find()) {
				return Double.parseDouble(m.group(1));
			}
		}
		return Double.NaN;
	}

	private Path storeDir(String id) {
		return settings.workDir.resolve("stores").resolve(id);
	}

	/** Lines holding a statement: not blank, not a comment. */
	static long countStatementLines(Path file) {
		try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			long n = 0;
			for (String line = in.readLine(); line != null; line = in.readLine()) {
				if (isStatement(line)) {
					n++;
				}
			}
			return n;
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot read " + file, e);
		}
	}

	private static boolean isStatement(String line) {
		String t = line.strip();
		return !t.isEmpty() && t.charAt(0) != '#';
	}

	/** This JVM's class path with absolute entries, for children that run in the work directory. */
	private static String classPath() {
		return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
				.map(e -> Path.of(e).toAbsolutePath().toString()).collect(Collectors.joining(File.pathSeparator));
	}

	private static String loadAverage() {
		try {
			String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
			return f.length < 3 ? "unknown" : f[0] + ", " + f[1] + ", " + f[2];
		} catch (IOException e) {
			return "unknown";
		}
	}

	private static Path codeSource() {
		try {
			return Path.of(LoadComparison.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		} catch (Exception e) {
			return null;
		}
	}

	private static long size(Path file) {
		try {
			return Files.size(file);
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot size " + file, e);
		}
	}

	private static void createDirectories(Path dir) {
		try {
			Files.createDirectories(dir);
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot create directory " + dir.toAbsolutePath(), e);
		}
	}
}
