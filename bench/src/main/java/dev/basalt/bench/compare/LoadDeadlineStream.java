package dev.basalt.bench.compare;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The N-Triples file a store loads from, counting its lines as the store's parser reads them: every
 * {@code reportEvery} lines it reports the count, and once the load has run past its time limit the
 * next read fails with {@link Stopped}, which carries the lines read so far and aborts the load's
 * transaction; so does a read while the disk holding the store has less than the given free space
 * left (checked every {@value #DISK_CHECK_LINES} lines), so that a long load cannot fill a shared
 * disk. A line counts as read when its end has been handed to the parser, so the count runs
 * ahead of the statements added by at most one read buffer of lines. Used by one loading thread.
 */
final class LoadDeadlineStream extends FilterInputStream {

	private static final long DISK_CHECK_LINES = 1_000_000L;

	/** The load was stopped; {@link #lines} were read, {@link #seconds} had passed. */
	static final class Stopped extends IOException {
		private static final long serialVersionUID = 1L;
		final long lines;
		final double seconds;

		Stopped(String why, long lines, double seconds) {
			super(String.format("load stopped %s after %d lines", why, lines));
			this.lines = lines;
			this.seconds = seconds;
		}
	}

	private final long startNanos;
	private final long limitNanos;
	private final double limitSeconds;
	private final long reportEvery;
	private final LongConsumer report;
	private final LongSupplier freeDiskBytes;
	private final long minFreeDiskBytes;
	private long lines;
	private long nextReport;
	private long nextDiskCheck;
	private String stopReason;

	/**
	 * {@code limitSeconds} of 0 or less: no time limit. {@code freeDiskBytes} gives the free space of
	 * the store's disk, which must stay at {@code minFreeDiskBytes} or more.
	 */
	LoadDeadlineStream(InputStream in, double limitSeconds, long reportEvery, LongConsumer report,
			LongSupplier freeDiskBytes, long minFreeDiskBytes) {
		super(in);
		this.startNanos = System.nanoTime();
		this.limitSeconds = limitSeconds;
		this.limitNanos = limitSeconds > 0 ? (long) (limitSeconds * 1e9) : Long.MAX_VALUE;
		this.reportEvery = reportEvery;
		this.report = report;
		this.nextReport = reportEvery;
		this.freeDiskBytes = freeDiskBytes;
		this.minFreeDiskBytes = minFreeDiskBytes;
	}

	long lines() {
		return lines;
	}

	/**
	 * Whether a read failed at the time limit: parsers and repositories may wrap {@link Stopped} in
	 * their own exceptions, so the caller asks the stream.
	 */
	boolean stopped() {
		return stopReason != null;
	}

	/** Why the load was stopped ("at its time limit of 3600 s"), or null. */
	String stopReason() {
		return stopReason;
	}

	@Override
	public int read() throws IOException {
		checkDeadline();
		int b = super.read();
		if (b == '\n') {
			counted(1);
		}
		return b;
	}

	@Override
	public int read(byte[] buf, int off, int len) throws IOException {
		checkDeadline();
		int n = super.read(buf, off, len);
		int newlines = 0;
		for (int i = off; i < off + n; i++) {
			if (buf[i] == '\n') {
				newlines++;
			}
		}
		counted(newlines);
		return n;
	}

	@Override
	public long skip(long n) throws IOException {
		throw new IOException("LoadDeadlineStream counts every byte and does not skip");
	}

	private void checkDeadline() throws Stopped {
		long elapsed = System.nanoTime() - startNanos;
		if (stopReason == null && elapsed >= limitNanos) {
			stopReason = String.format(Locale.ROOT, "at its time limit of %.0f s", limitSeconds);
		}
		if (stopReason == null && lines >= nextDiskCheck) {
			nextDiskCheck = lines + DISK_CHECK_LINES;
			long free = freeDiskBytes.getAsLong();
			if (free < minFreeDiskBytes) {
				stopReason = String.format(Locale.ROOT, "with %,d MB left on the disk (floor %,d MB)", free >> 20,
						minFreeDiskBytes >> 20);
			}
		}
		if (stopReason != null) {
			throw new Stopped(stopReason, lines, elapsed / 1e9);
		}
	}

	private void counted(int newlines) {
		lines += newlines;
		while (lines >= nextReport) {
			report.accept(nextReport);
			nextReport += reportEvery;
		}
	}
}
