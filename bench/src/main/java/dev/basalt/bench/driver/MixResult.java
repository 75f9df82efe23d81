package dev.basalt.bench.driver;

import java.util.Map;

/**
 * One measured phase: {@code mixes} complete query mixes run by {@code clients} concurrent clients in
 * {@code elapsedSeconds} of wall-clock time, and the per-query times.
 *
 * <p>Made by the driver's thread after its clients have finished, then only read: safe to hand to another
 * thread then, but its {@link QueryStats} are mutable and not thread-safe, so nobody changes them afterwards.
 */
public record MixResult(int clients, long mixes, double elapsedSeconds, Map<String, QueryStats> perQuery) {

	/** Query mixes per hour, the BSBM throughput metric. */
	public double qmph() {
		return elapsedSeconds <= 0 ? 0 : mixes * 3600.0 / elapsedSeconds;
	}
}
