package dev.basalt.bench.bsbm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.bench.driver.QueryTemplate;

/**
 * The BI parameters fit the generated data: BI3's two compared months lie within the reviews'
 * publication dates, so that the query finds products reviewed in both, as the specification's
 * template intends.
 */
class BsbmBiQueriesTest {

	private static final QueryTemplate BI3 = BsbmBiQueries.ALL.get(2);

	@TempDir
	Path tmp;

	@Test
	void bi3ComparesWholeMonthsOfTheReviewsPublicationDates() {
		BsbmModel model = new BsbmModel(500, 808);
		SplittableRandom r = new SplittableRandom(1);
		LocalDate firstPublished = BsbmModel.CURRENT_DATE.minusDays(BsbmModel.REVIEW_DAYS);
		List<LocalDate> seen = new ArrayList<>();
		for (int i = 0; i < 500; i++) {
			Map<String, String> p = BsbmBiQueries.draw(model, 3, r);
			LocalDate month0 = LocalDate.parse(p.get("Month0"));
			assertEquals(1, month0.getDayOfMonth());
			assertEquals(month0.plusMonths(1).toString(), p.get("Month1"));
			assertEquals(month0.plusMonths(2).toString(), p.get("Month2"));
			assertFalse(month0.isBefore(firstPublished), "Month0 " + month0 + " starts before the first review");
			assertFalse(month0.plusMonths(2).isAfter(BsbmModel.CURRENT_DATE), "Month1 of " + month0 + " ends after the current date");
			seen.add(month0);
		}
		// every whole month pair of the year is drawn: July 2007 / August 2007 ... April 2008 / May 2008
		assertEquals(10, seen.stream().distinct().count());
		assertTrue(seen.contains(LocalDate.of(2007, 7, 1)) && seen.contains(LocalDate.of(2008, 4, 1)), seen.toString());
	}

	@Test
	void bi3FindsProductsForTheBenchsParameterSets() throws Exception {
		BsbmModel model = new BsbmModel(500, 808);
		Path file = tmp.resolve("bsbm.nt");
		new BsbmGenerator(model).write(file);
		SailRepository repo = new SailRepository(new MemoryStore());
		repo.init();
		try (RepositoryConnection c = repo.getConnection()) {
			c.add(file.toFile(), RDFFormat.NTRIPLES);
			// the stream AnalyticBench draws BI3's sets from, for seed 808
			SplittableRandom r = new SplittableRandom(808L * 31 + 100 + 3);
			for (int i = 0; i < 5; i++) {
				Map<String, String> p = BsbmBiQueries.draw(model, 3, r);
				List<Double> ratios = new ArrayList<>();
				try (TupleQueryResult result = c.prepareTupleQuery(BI3.instantiate(p)).evaluate()) {
					for (BindingSet b : result) {
						ratios.add(Double.parseDouble(b.getValue("ratio").stringValue()));
					}
				}
				assertFalse(ratios.isEmpty(), "BI3 found no product for months " + p.get("Month0") + ", " + p.get("Month1"));
				for (int k = 1; k < ratios.size(); k++) {
					assertTrue(ratios.get(k - 1) >= ratios.get(k), "ordered by descending ratio: " + ratios);
				}
			}
		} finally {
			repo.shutDown();
		}
	}
}
