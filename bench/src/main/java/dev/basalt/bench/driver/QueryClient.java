package dev.basalt.bench.driver;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;

/**
 * One benchmark client's way to a store: runs a query to completion and counts its results
 * (solutions of a SELECT, statements of a CONSTRUCT or DESCRIBE, 1 or 0 for an ASK), reading every
 * value. Used by one thread at a time; each client thread of a run opens its own.
 */
public interface QueryClient extends AutoCloseable {

	/** Runs {@code query}, whose form is {@code form}, and returns how many results it had. */
	long count(QueryForm form, String query);

	@Override
	void close();

	/** A client over a connection of {@code repository} (a local store or RDF4J's SPARQLRepository). */
	static QueryClient of(Repository repository) {
		RepositoryConnection conn = repository.getConnection();
		return new QueryClient() {
			@Override
			public long count(QueryForm form, String query) {
				return QueryExecutor.count(conn, query);
			}

			@Override
			public void close() {
				conn.close();
			}
		};
	}
}
