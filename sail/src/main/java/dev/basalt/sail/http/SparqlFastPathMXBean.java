package dev.basalt.sail.http;

/**
 * What the SPARQL fast path of an RDF4J Server webapp did ({@code dev.basalt:type=SparqlFastPath,context=PATH}):
 * the requests to {@code /repositories/…} it answered itself and those it handed to RDF4J Server.
 * Thread-safe: the counts are read while request threads add to them.
 */
public interface SparqlFastPathMXBean {
    /** Queries the fast path answered. */
    long getAnswered();

    /** Requests to {@code /repositories/…} handed to RDF4J Server (not queries, other repositories, errors). */
    long getPassedOn();

    /** False when {@code -Dbasalt.server.fastQueries=false} or the webapp is not RDF4J Server. */
    boolean isEnabled();
}
