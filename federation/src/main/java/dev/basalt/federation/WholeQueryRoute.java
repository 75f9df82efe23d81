package dev.basalt.federation;

import java.util.List;

import org.eclipse.rdf4j.query.algebra.TupleExpr;

/**
 * Finds queries that one member answers whole, exactly as one store holding all the data would: the
 * query is one the front evaluates itself ({@link DirectEvaluation}: data read through stars only, no
 * DESCRIBE) and it has one star only, and that star's subjects are
 * all held whole by one member — a constant subject (its owner holds every statement of it) or a star
 * with a replication pattern (every member holds the subjects it can match), with any stars over
 * replicated subjects joined into it ({@link ReplicatedRanges}). Everything else in the query
 * (FILTER, OPTIONAL within the star, BIND, VALUES, aggregates, ORDER BY, LIMIT, the CONSTRUCT
 * template) then sees on that member exactly the solutions it would see on one store, so the front
 * sends the query text itself to that member and passes its answer on: one request, no FedX planning,
 * no rows read or written by the front. DESCRIBE never qualifies: its answer includes the
 * statements that have a described resource as object, whose subjects other members own.
 *
 * <p>Thread rules: stateless; {@link #member} only reads the plan it is given, so any number of request
 * threads call it at once.
 */
final class WholeQueryRoute {
    private WholeQueryRoute() {
    }

    /**
     * The shard that answers a query alone, or -1 when it needs several members; {@code plan} is the
     * query's algebra as {@link DirectEvaluation#plan} rewrote it (null: FedX answers the query).
     */
    static int member(TupleExpr plan, StarEvaluator stars) {
        if (plan == null || DirectDescribe.where(plan) != null) {
            return -1; // DESCRIBE also returns statements with a described resource as object: every member's
        }
        List<StarGroup> found = StarGroup.in(plan);
        if (found.size() != 1) {
            return -1;
        }
        StarGroup star = found.get(0);
        if (star.subjectValue() != null) {
            return star.subjectValue().isIRI() ? stars.ownerOf(star.subjectValue().stringValue()) : -1;
        }
        return star.replicated() ? stars.anyMember() : -1;
    }
}
