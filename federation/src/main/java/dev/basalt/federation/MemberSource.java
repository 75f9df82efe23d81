package dev.basalt.federation;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.federated.algebra.FilterValueExpr;
import org.eclipse.rdf4j.federated.endpoint.Endpoint;
import org.eclipse.rdf4j.federated.structures.QueryInfo;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.impl.EmptyBindingSet;

/**
 * Where a star's SELECT goes ({@link StarEvaluator}): one member, answering its solutions whole. Two
 * kinds: {@link #viaFedX} asks through FedX's endpoint (its SPARQL client or a local repository) and
 * only asks whole; {@link #viaHttp} asks over the front's own HTTP requests to a member and can split
 * sending a query from reading its answer ({@link #send}), so that one thread can have every member
 * working at once ({@link MemberRequests#start}).
 *
 * <p>Thread rules: a source may be asked by many threads at once; a {@link Sent} belongs to the thread
 * that sent it until it is read or aborted.
 */
interface MemberSource {
    String name();

    /** The solutions of {@code query}; {@code timeoutMillis} the longest wait for the member's answer. */
    List<BindingSet> select(String query, QueryInfo info, long timeoutMillis);

    /**
     * Sends {@code query} now and returns how to read its solutions later, or null when this source
     * cannot split sending from reading (then {@link #select} runs on a thread of its own).
     */
    default Sent send(String query, long timeoutMillis) {
        return null;
    }

    /** A query sent to a member whose answer is not read yet. */
    interface Sent {
        /** The solutions, read whole. */
        List<BindingSet> read();

        /** Gives the request up unread. */
        void abort();
    }

    /** A source that asks through FedX's endpoint (its SPARQL client or a local repository). */
    static MemberSource viaFedX(Endpoint endpoint) {
        return new Named(endpoint.getName(), (query, info, timeout) -> fetch(endpoint, query, info));
    }

    /** A source over the front's own HTTP requests to a member, which splits sending from reading. */
    static MemberSource viaHttp(MemberHttp member) {
        return new MemberSource() {
            @Override
            public String name() {
                return member.name();
            }

            @Override
            public List<BindingSet> select(String query, QueryInfo info, long timeoutMillis) {
                return member.select(query, timeoutMillis);
            }

            @Override
            public Sent send(String query, long timeoutMillis) {
                MemberHttp.SentSelect sent = member.sendSelect(query, timeoutMillis);
                return new Sent() {
                    @Override
                    public List<BindingSet> read() {
                        return sent.read();
                    }

                    @Override
                    public void abort() {
                        sent.abort();
                    }
                };
            }
        };
    }

    /** How a source asks: the query, FedX's query info (or null) and the longest wait. */
    interface Ask {
        List<BindingSet> select(String query, QueryInfo info, long timeoutMillis);
    }

    /** A source that only asks whole, named {@code name}. */
    record Named(String name, Ask ask) implements MemberSource {
        @Override
        public List<BindingSet> select(String query, QueryInfo info, long timeoutMillis) {
            return ask.select(query, info, timeoutMillis);
        }
    }

    private static List<BindingSet> fetch(Endpoint endpoint, String query, QueryInfo info) {
        List<BindingSet> rows = new ArrayList<>();
        try (CloseableIteration<BindingSet> result = endpoint.getTripleSource()
                .getStatements(query, EmptyBindingSet.getInstance(), (FilterValueExpr) null, info)) {
            while (result.hasNext()) {
                rows.add(result.next());
            }
        }
        return rows;
    }
}
