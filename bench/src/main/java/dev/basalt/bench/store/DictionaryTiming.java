package dev.basalt.bench.store;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParser;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.rio.helpers.AbstractRDFHandler;

import dev.basalt.store.Snapshot;
import dev.basalt.store.Store;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.lexicon.Lexicon;
import dev.basalt.store.lexicon.LexiconConfig;
import dev.basalt.store.lexicon.LexiconReader;
import dev.basalt.store.lexicon.LexiconWriter;

/**
 * Times the dictionary alone in one thread (docs/benchmarks-dictionary.md): every term of an
 * N-Triples file resolved with {@code getOrCreateAll} into an empty store, then, with cold lexicon
 * caches, the distinct terms looked up in batches, the long literals looked up one by one, and
 * every id resolved in batches. Times are the thread's CPU time, which other jobs on a shared
 * machine disturb far less than wall time.
 */
public final class DictionaryTiming {
	private static final int BATCH = 300_000;
	private static final int LONG_LITERAL_CHARS = 150;
	private static final ValueFactory VF = SimpleValueFactory.getInstance();
	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private DictionaryTiming() {
	}

	/** Runs {@code rounds} rounds on fresh stores in {@code workDir}, reporting one line per round. */
	public static void run(Path file, Path workDir, int rounds, Consumer<String> out) {
		List<Value> terms = read(file);
		for (int round = 1; round <= rounds; round++) {
			DiskUsage.delete(workDir);
			try {
				Files.createDirectories(workDir);
			} catch (IOException e) {
				throw new UncheckedIOException("cannot create " + workDir, e);
			}
			try (Store store = Store.open(workDir.resolve("basalt.jnl"), StoreConfig.defaults())) {
				out.accept("round " + round + ": " + measure(store, terms) + "; trees " + store.stats().treeSizes());
			}
		}
		DiskUsage.delete(workDir);
	}

	private static String measure(Store store, List<Value> terms) {
		long t0 = cpu();
		try (WriteTransaction tx = store.begin()) {
			LexiconWriter w = new Lexicon(LexiconConfig.DEFAULT).writer(tx);
			for (int i = 0; i < terms.size(); i += BATCH) {
				w.getOrCreateAll(terms.subList(i, Math.min(terms.size(), i + BATCH)));
			}
			w.beforeCommit();
			tx.commit();
			w.afterCommit();
		}
		long create = cpu() - t0;
		List<Value> distinct = new ArrayList<>(new LinkedHashSet<>(terms));
		Collections.shuffle(distinct, new Random(1));
		List<Value> longLiterals = new ArrayList<>();
		for (Value v : distinct) {
			if (v instanceof Literal && v.stringValue().length() > LONG_LITERAL_CHARS) {
				longLiterals.add(v);
			}
		}
		try (Snapshot s = store.snapshot()) {
			LexiconReader batches = new Lexicon(LexiconConfig.DEFAULT).reader(s);
			long t1 = cpu();
			long[] ids = new long[distinct.size()];
			for (int i = 0; i < ids.length; i += BATCH) {
				long[] part = batches.lookupAll(distinct.subList(i, Math.min(ids.length, i + BATCH)));
				System.arraycopy(part, 0, ids, i, part.length);
			}
			long lookupAll = cpu() - t1;
			LexiconReader single = new Lexicon(LexiconConfig.DEFAULT).reader(s);
			long t2 = cpu();
			for (Value v : longLiterals) {
				single.lookup(v);
			}
			long lookupLong = cpu() - t2;
			LexiconReader resolver = new Lexicon(LexiconConfig.DEFAULT).reader(s);
			long t3 = cpu();
			for (int i = 0; i < ids.length; i += 1000) {
				long[] part = Arrays.copyOfRange(ids, i, Math.min(ids.length, i + 1000));
				Value[] values = resolver.resolveAll(part, VF);
				if (!values[0].equals(distinct.get(i))) {
					throw new IllegalStateException("term " + distinct.get(i) + " resolved as " + values[0]);
				}
			}
			long resolve = cpu() - t3;
			return String.format("getOrCreateAll %d terms %.2f s, lookupAll %d distinct %.2f s,"
					+ " lookup %d long literals %.1f us each, resolveAll %.2f us per term", terms.size(), create / 1e9,
					ids.length, lookupAll / 1e9, longLiterals.size(), lookupLong / 1e3 / Math.max(1, longLiterals.size()),
					resolve / 1e3 / ids.length);
		}
	}

	private static List<Value> read(Path file) {
		List<Value> terms = new ArrayList<>();
		RDFParser parser = Rio.createParser(RDFFormat.NTRIPLES);
		parser.setRDFHandler(new AbstractRDFHandler() {
			@Override
			public void handleStatement(Statement st) {
				terms.add(st.getSubject());
				terms.add(st.getPredicate());
				terms.add(st.getObject());
			}
		});
		try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
			parser.parse(in, "");
		} catch (IOException e) {
			throw new UncheckedIOException("cannot read " + file, e);
		}
		return terms;
	}

	private static long cpu() {
		return THREADS.getCurrentThreadCpuTime();
	}
}
