package dev.basalt.bench.process;

import java.time.Duration;

/**
 * How long the bench waits for Basalt's launcher ({@code basalt-server.jar}) to announce its URL. Before it
 * announces itself the launcher opens its repositories, each store reading its caches (at most 20 s of CPU or
 * {@value #STORE_PREWARM_WALL_SECONDS} s of wall time, docs/operator-guide.md, "What a store reads when it opens"),
 * and warms itself up (at most 90 s of the JVM's CPU or {@value #WARMUP_WALL_SECONDS} s of wall time, "The
 * launcher's warm-up"); on a machine so busy that both run to their wall-time caps, that is 360 s on top of the JVM's
 * start, the relaunch with its own options and Jetty's start of the webapps (under a minute idle, a few minutes at
 * a load of 30-50 on two cores). {@link #TIMEOUT} covers the caps with {@value #START_MARGIN_SECONDS} s for the rest.
 *
 * <p>Thread-safe: constants only.
 */
public final class LauncherStartup {
	/** The wall-time cap of the launcher's warm-up ({@code LauncherWarmup.MAX_WALL_SECONDS}). */
	static final long WARMUP_WALL_SECONDS = 240;
	/** The wall-time cap of a store's cache reads when it opens ({@code StorePrewarm.MAX_WALL_SECONDS}). */
	static final long STORE_PREWARM_WALL_SECONDS = 120;
	/** The JVM's start, the relaunch, Jetty and the webapps, the repository, on a busy machine. */
	static final long START_MARGIN_SECONDS = 240;
	/** The longest a launcher may take to announce its URL before the bench gives up on it: 600 s. */
	public static final Duration TIMEOUT = Duration.ofSeconds(
		    WARMUP_WALL_SECONDS + STORE_PREWARM_WALL_SECONDS + START_MARGIN_SECONDS);

	private LauncherStartup() {
	}
}
