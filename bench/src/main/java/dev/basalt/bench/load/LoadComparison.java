package dev.basalt.bench.load;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.basalt.bench.bsbm.BsbmGenerator;
import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.process.ChildProcess;
import dev.basalt.bench.store.DiskUsage;

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

	private static final Pattern INNER_SECONDS = Pattern.compile("^loaded in ([\\d.]+) s");

	private final LoadSettings settings;
	private final Consumer<String> progress;
	private final Loaders loaders;

	public LoadComparison(LoadSettings settings, Consumer<String> progress) {
		this.settings = settings;
		this.progress = progress;
		this.loaders = new Loaders(settings, progress);
	}

	public LoadResults run() {
		long start = System.nanoTime();
		LoadResults results = new LoadResults(settings);
		results.loadAverageStart = loadAverage();
		createDirectories(settings.workDir);
		prepareData(results);
		List<Loaders.LoadPath> paths = loaders.paths(results);
		results.rssUnavailable = loaders.child("load").rssUnavailableReason();
		for (int round = 1; round <= settings.rounds; round++) {
			for (int i = 0; i < paths.size(); i++) {
				Loaders.LoadPath p = paths.get((i + round - 1) % paths.size());
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

	private LoadResults.Row load(Loaders.LoadPath p, int round, LoadResults results) {
		Path dir = storeDir(p.id());
		DiskUsage.delete(dir);
		createDirectories(dir);
		progress.accept("Round " + round + ": loading into " + p.id());
		ChildProcess.Result r = loaders.child(round + "-" + p.id() + "-load").run(p.command().apply(dir), settings.workDir);
		if (!r.succeeded()) {
			throw new IllegalStateException(p.id() + " could not load " + results.file + ": " + r.failure());
		}
		long afterLoad = DiskUsage.bytes(dir);
		long triples = p.counter().applyAsLong(dir);
		long afterOpen = DiskUsage.bytes(dir);
		LoadResults.Row row = new LoadResults.Row(round, p.id(), p.description(), r.seconds(), triples, r.peakRssBytes(),
				r.cpuSeconds(), afterLoad, afterOpen);
		progress.accept(String.format(Locale.ROOT, "  %,d triples in %.1f s (%.1f CPU s): %,.0f triples/s, peak RSS %,d MB, %.1f "
				+ "bytes/triple after the load, %.1f after the next open", triples, r.seconds(), r.cpuSeconds(),
				row.triplesPerSecond(),
				r.peakRssBytes() >> 20, row.bytesPerTriple(), row.bytesPerTripleAfterOpen()));
		if (triples != results.fileTriples) {
			progress.accept(String.format(Locale.ROOT, "  NOTE: %s holds %,d statements; the file has %,d statement lines "
					+ "(duplicates count once)", p.id(), triples, results.fileTriples));
		}
		return row;
	}

	/** The further file into the store {@code loaded} holding {@code before} statements, and into an empty one. */
	private LoadResults.Further further(Loaders.LoadPath p, Path loaded, long before, LoadResults results) {
		String store = p.repositoryStore();
		progress.accept("Further file through the Repository API into the loaded " + p.id() + " store");
		ChildProcess.Result full = loaders.runChecked(p.id() + "-further-full", loaders.repositoryLoad(store, loaded, results.furtherFile));
		long after = loaders.repositoryCount(store, loaded);
		Path empty = storeDir(p.id() + "-further-empty");
		DiskUsage.delete(empty);
		createDirectories(empty);
		progress.accept("Further file through the Repository API into an empty " + p.id() + " store");
		ChildProcess.Result alone = loaders.runChecked(p.id() + "-further-empty", loaders.repositoryLoad(store, empty,
				results.furtherFile));
		DiskUsage.delete(empty);
		LoadResults.Further f = new LoadResults.Further(p.id(), results.furtherTriples, full.seconds(), inner(full),
				alone.seconds(), inner(alone), after, before + results.furtherTriples);
		progress.accept(String.format(Locale.ROOT, "  into the loaded store %.1f s (%,.0f triples/s), into an empty one "
				+ "%.1f s (%,.0f triples/s): %.0f%%", f.fullSeconds(), f.fullRate(), f.emptySeconds(), f.emptyRate(),
				100 * f.fullRate() / f.emptyRate()));
		return f;
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

	/** {@code /proc/loadavg}'s first three fields, or "unknown" where there is none. */
	public static String loadAverage() {
		try {
			String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
			return f.length < 3 ? "unknown" : f[0] + ", " + f[1] + ", " + f[2];
		} catch (IOException e) {
			return "unknown";
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
