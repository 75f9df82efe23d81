package dev.basalt.bench.driver;

import org.eclipse.rdf4j.query.BooleanQuery;
import org.eclipse.rdf4j.query.GraphQuery;
import org.eclipse.rdf4j.query.GraphQueryResult;
import org.eclipse.rdf4j.query.Query;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQuery;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.repository.RepositoryConnection;

/**
 * Runs one query to completion through the Repository API and counts its results: solutions of a
 * SELECT, statements of a CONSTRUCT or DESCRIBE, 1 or 0 for an ASK. Consuming every result is part
 * of the measured time, as in the BSBM driver.
 */
public final class QueryExecutor {

	/** Queries running longer than this are aborted; the count then disagrees and the run fails. */
	public static final int MAX_EXECUTION_SECONDS = 300;

	private QueryExecutor() {
	}

	public static long count(RepositoryConnection conn, String sparql) {
		return count(conn, sparql, MAX_EXECUTION_SECONDS);
	}

	/**
	 * Like {@link #count(RepositoryConnection, String)} with a time limit of its own; a query that
	 * exceeds it throws RDF4J's {@code QueryEvaluationException} (an interruption, or the error of
	 * its closed iteration).
	 */
	public static long count(RepositoryConnection conn, String sparql, int maxSeconds) {
		Query query = conn.prepareQuery(QueryLanguage.SPARQL, sparql);
		query.setMaxExecutionTime(maxSeconds);
		long n = 0;
		if (query instanceof TupleQuery tq) {
			try (TupleQueryResult result = tq.evaluate()) {
				while (result.hasNext()) {
					result.next();
					n++;
				}
			}
		} else if (query instanceof GraphQuery gq) {
			try (GraphQueryResult result = gq.evaluate()) {
				while (result.hasNext()) {
					result.next();
					n++;
				}
			}
		} else if (query instanceof BooleanQuery bq) {
			n = bq.evaluate() ? 1 : 0;
		} else {
			throw new IllegalArgumentException("Unsupported query form: " + sparql);
		}
		return n;
	}
}
