package dev.basalt.bench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

/** The phases of a cold/warm run send exactly the mixes asked for. */
class ColdWarmRunTest {
	private static final int QUERIES_PER_MIX = 2;

	private final AtomicLong sent = new AtomicLong();
	private final List<String> out = new ArrayList<>();

	private ColdWarmRun run() {
		MixDriver driver = new MixDriver(List.of(new QueryTemplate("Q1", "one", "SELECT * {}", QueryForm.SELECT),
				new QueryTemplate("Q2", "two", "ASK {}", QueryForm.ASK)), List.of(1, 2), (n, r) -> Map.of());
		return new ColdWarmRun(driver, out::add);
	}

	private Supplier<QueryClient> counting() {
		return () -> new QueryClient() {
			@Override
			public long count(QueryForm form, String query) {
				sent.incrementAndGet();
				return 1;
			}

			@Override
			public void close() {
			}
		};
	}

	@Test
	void noColdMixesMeansNoColdPhase() {
		ColdWarmRun.Outcome o = run().run("e", counting(), null, 2, 0, 0, 0, 1, 1);
		assertNull(o.cold());
		assertNull(o.warm());
		assertEquals(0, sent.get(), "queries sent with --cold-mixes 0 and nothing else");
		List<String> table = ColdWarmRun.table(List.of(o));
		assertTrue(table.get(2).startsWith("| e | - | - | - | - | - |"), table.get(2));
	}

	@Test
	void coldAndWarmUpMixesAreCountedTogether() {
		ColdWarmRun.Outcome o = run().run("e", counting(), null, 2, 4, 10, 0, 1, 1);
		assertEquals(4, o.cold().result().mixes());
		assertEquals(10 * QUERIES_PER_MIX, sent.get(), "4 cold mixes and 6 warm-up mixes");
		ColdWarmRun.Outcome warmOnly = run().run("e", counting(), null, 1, 0, 3, 0, 1, 1);
		assertNull(warmOnly.cold());
		assertEquals((10 + 3) * QUERIES_PER_MIX, sent.get(), "3 warm-up mixes without a cold phase");
	}

	@Test
	void aNegativeMixCountIsRefused() {
		assertThrows(IllegalArgumentException.class, () -> run().run("e", counting(), null, 1, -1, 0, 0, 1, 1));
	}
}
