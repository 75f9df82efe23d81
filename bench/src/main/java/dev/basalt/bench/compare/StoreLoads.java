package dev.basalt.bench.compare;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Consumer;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.rio.RDFFormat;

import dev.basalt.bench.store.DiskUsage;
import dev.basalt.bench.store.StoreSetup;

/**
 * The loads of a {@link Comparison}: a generated N-Triples file added to a store in one transaction at
 * isolation NONE, measured as a {@link Results.Load} (statements in the store after the commit, seconds,
 * bytes on disk for a persistent store, peak heap during the load and heap still held after a GC). A
 * load with a time limit ({@link #limitedLoad}) is stopped, rolled back and recorded instead when it
 * passes the limit or the disk runs short.
 *
 * <p>Not thread-safe: one load at a time on the calling thread; the heap figures are the JVM's
 * ({@link HeapProbe}), so nothing else of the run may load meanwhile.
 */
final class StoreLoads {

	/** A load with a time limit is also stopped when the store's disk has less than this left. */
	private static final long MIN_FREE_DISK_BYTES = 4L << 30;

	private final Consumer<String> progress;

	StoreLoads(Consumer<String> progress) {
		this.progress = progress;
	}

	Results.Load load(Repository repo, Path dir, Path file, boolean persistent) {
		long baseline = HeapProbe.usedAfterGc();
		HeapProbe.resetPeaks();
		long t0 = System.nanoTime();
		try (RepositoryConnection conn = repo.getConnection()) {
			conn.begin(IsolationLevels.NONE);
			conn.add(file.toFile(), RDFFormat.NTRIPLES);
			conn.commit();
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot read generated data " + file, e);
		}
		return loaded(repo, dir, persistent, t0, baseline);
	}

	/** The figures of a load that has just committed: it started at {@code t0} with {@code baseline} heap in use. */
	private Results.Load loaded(Repository repo, Path dir, boolean persistent, long t0, long baseline) {
		double secs = Comparison.seconds(t0);
		long peak = HeapProbe.peakUsed();
		long retained = Math.max(0, HeapProbe.usedAfterGc() - baseline);
		long triples;
		try (RepositoryConnection conn = repo.getConnection()) {
			triples = conn.size();
		}
		long bytes = persistent ? DiskUsage.bytes(dir) : 0;
		return new Results.Load(triples, secs, bytes, peak, retained);
	}

	/**
	 * A load with a time limit ({@code --load-limit}): the file is read through a
	 * {@link LoadDeadlineStream}, which reports every 10M lines and fails the next read once the limit has
	 * passed or the disk has less than {@link #MIN_FREE_DISK_BYTES} left; the transaction is then rolled back, the stop and the triples read by then are recorded
	 * in {@link Results#stoppedLoads} (the report lists the store as skipped, with those figures) and
	 * null is returned.
	 */
	Results.Load limitedLoad(Repository repo, Path dir, Path file, StoreSetup s, double limitSeconds,
			Results results) {
		long baseline = HeapProbe.usedAfterGc();
		HeapProbe.resetPeaks();
		long t0 = System.nanoTime();
		LoadDeadlineStream in;
		try {
			FileStore disk = Files.getFileStore(dir);
			in = new LoadDeadlineStream(Files.newInputStream(file), limitSeconds, 10_000_000L,
					lines -> progress.accept(String.format(Locale.ROOT, "  %s: %,d lines read in %.1f s (%,.0f lines/s)",
							s.id(), lines, Comparison.seconds(t0), lines / Comparison.seconds(t0))),
					() -> usableSpace(disk), MIN_FREE_DISK_BYTES);
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot read generated data " + file, e);
		}
		try (in; RepositoryConnection conn = repo.getConnection()) {
			conn.begin(IsolationLevels.NONE);
			try {
				conn.add(in, file.toUri().toString(), RDFFormat.NTRIPLES);
			} catch (IOException | RuntimeException e) {
				if (!in.stopped()) {
					throw e;
				}
				double stoppedAt = Comparison.seconds(t0);
				conn.rollback();
				Results.StoppedLoad stop = new Results.StoppedLoad(in.stopReason(), stoppedAt, in.lines(), Comparison.seconds(t0),
						HeapProbe.peakUsed());
				results.stoppedLoads.put(s, stop);
				results.skippedStores.put(s.id(), stop.describe(results.bsbmCounts.total()));
				progress.accept("  " + s.id() + ": " + stop.describe(results.bsbmCounts.total()));
				return null;
			}
			conn.commit();
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot read generated data " + file, e);
		}
		return loaded(repo, dir, s.persistent(), t0, baseline);
	}

	private static long usableSpace(FileStore disk) {
		try {
			return disk.getUsableSpace();
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot read the free space of " + disk, e);
		}
	}
}
