package dev.basalt.bench.driver;

import java.util.Map;

/**
 * One measured phase: {@code mixes} complete query mixes run by {@code clients} concurrent clients in
 * {@code elapsedSeconds} of wall-clock time, and the per-query times.
 */
public record MixResult(int clients, long mixes, double elapsedSeconds, Map<String, QueryStats> perQuery) {

	/** Query mixes per hour, the BSBM throughput metric. */
	public double qmph() {
		return elapsedSeconds <= 0 ? 0 : mixes * 3600.0 / elapsedSeconds;
	}
}
